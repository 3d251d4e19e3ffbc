// memtracer-export — finished runs into ClickHouse for the fleet's cross-run answers
// (docs/clickhouse.md): memtracer-export RUN.db ... --to clickhouse://host:port/db.
// Exit status: 0 every run exported (or already there), 2 bad command line or input, 3 ClickHouse
// failed (unreachable, refused): what was exported before stays, the failed run stays invisible.
#include <memtracer/cli.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "exporter.h"

using namespace mt::fleet;

int main(int argc, char **argv) {
    CLI::App app{"memtracer-export: MemTracer runs into ClickHouse"};
    mt::cli::set_version(app, "memtracer-export");
    std::vector<std::string> dbs, shards;
    std::string to, cluster;
    Labels labels;
    std::optional<int64_t> run;
    bool init = false;
    app.add_option("db", dbs, "run.db files (every run of each)")->check(CLI::ExistingFile);
    app.add_flag("--init,--upgrade", init,
                 "create the database and tables (if missing), fill the summaries of runs an earlier version exported, "
                 "and export nothing");
    app.add_option("--to", to, "clickhouse://host:port/database")->required();
    app.add_option("--run", run, "only this run of a single database")->check(CLI::PositiveNumber);
    app.add_option("--project", labels.project, "project label (default: the captured process)");
    app.add_option("--platform", labels.platform, "platform label (default: the captured OS)");
    app.add_option("--build", labels.build, "build label (default: the captured build id)");
    app.add_option("--device", labels.device, "device label (default: the captured device)");
    app.add_option("--night", labels.night, "night label, YYYY-MM-DD (default: the capture's UTC date)");
    app.add_option("--cluster", cluster, "ClickHouse cluster of Distributed tables (with --shard for each shard)");
    app.add_option("--shard", shards, "clickhouse://host:port/database of each shard (the --to server is one)");
    if (auto rc = mt::cli::parse_app(app, argc, argv, 2)) return *rc;
    try {
        if (cluster.empty() != shards.empty()) throw std::invalid_argument("--cluster and --shard go together");
        if (!labels.night.empty() && (labels.night.size() != 10 || labels.night[4] != '-' || labels.night[7] != '-'))
            throw std::invalid_argument("--night " + labels.night + ": expected YYYY-MM-DD");
        Layout l{ClickHouse(ClickHouseUrl::parse(to)), {}, cluster};
        for (const auto &s : shards) l.shards.emplace_back(ClickHouseUrl::parse(s));
        if (init) {
            if (int64_t n = create_schema(l)) std::cout << to << ": filled the per-run summaries of the " << n << " runs that had none\n";
            return 0;
        }
        if (dbs.empty()) throw std::invalid_argument("no run.db given (or --init to create the tables only)");
        for (const auto &db : dbs)
            export_database(l, db, labels, run, [&](const ExportResult &r) {
                std::cout << db << "@" << r.run << ": " << (r.skipped ? "already exported" : "exported")
                          << " as run " << r.fleet_run_id << " (key " << r.run_key << ", " << r.rows << " rows)\n";
            });
        return 0;
    } catch (const ClickHouseError &e) {
        return mt::cli::fail("memtracer-export", e, 3);
    } catch (const std::exception &e) {
        return mt::cli::fail("memtracer-export", e, 2);
    }
}
