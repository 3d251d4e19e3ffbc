// memtracer-report — MemTracer's answers in a terminal or a CI job, over a run.db (docs/report.md).
// Exit status: 0 done (gate passed), 1 gate failed, 2 bad command line or input, 3 the run has
// no lifetimes (leaks, temporaries).
#include <memtracer/cli.h>

#include <iostream>

#include "commands.h"
#include "compare.h"
#include "trend_table.h"

using namespace mt::report;

namespace {

struct Args {
    std::string db, db_b, format = "table", max_growth, by = "class", sort, thread, kind;
    int64_t run = 0;
    std::optional<std::string> from, to;
    int64_t limit = 20, within = 1;
    double min_share = 1.0;
};

void range_options(CLI::App *c, Args &a) {
    // A frame number or marker:LABEL (docs/report.md); the label is resolved per run by the query layer.
    auto bound = CLI::Validator(
        [](std::string &v) {
            try {
                v = range_bound(v);
                return std::string();
            } catch (const std::invalid_argument &e) {
                return std::string(e.what());
            }
        },
        "FRAME|marker:LABEL");
    c->add_option("--from", a.from, "first frame (seq) of the range, or marker:LABEL")->check(bound);
    c->add_option("--to", a.to, "last frame (seq) of the range, or marker:LABEL")->check(bound);
    c->add_option("--limit", a.limit, "rows to print (default 20)")->check(CLI::Range(int64_t{1}, int64_t{1000}));
    c->add_option("--format", a.format, "table (default), csv or json")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    c->add_option("--thread", a.thread,
                  "only what these allocating threads allocated: ids or names (exact, case-insensitive; a name "
                  "takes every thread of that name), comma-separated");
    c->add_option("--kind", a.kind, "only native heaps' allocations (ITT heap functions, docs/itt.md) or only managed (C#) ones")
        ->check(CLI::IsMember({"native", "managed"}));
}

CLI::App *one_run(CLI::App &app, const char *name, const char *what, Args &a, bool grouped) {
    auto *c = app.add_subcommand(name, what);
    c->add_option("db", a.db, "run.db (or run.db@N for run N)")->required();
    c->add_option("--run", a.run, "run id when the database holds several")->check(CLI::PositiveNumber);
    range_options(c, a);
    if (grouped) {
        c->add_option("--by", a.by, "class (default), site or stack")->check(CLI::IsMember({"class", "site", "stack"}));
        c->add_option("--sort", a.sort,
                      "top: bytes, gc_bytes or count; leaks: frames (default), gc_bytes or count; temporaries: "
                      "gc_bytes or count")
            ->check(CLI::IsMember({"bytes", "gc_bytes", "count", "frames"}));
    }
    return c;
}

Query query_of(const Args &a) {
    Query q;
    q.from = a.from;
    q.to = a.to;
    q.group = a.by;
    q.by = a.sort;
    q.limit = a.limit;
    q.within = a.within;
    q.thread = a.thread;
    q.kind = a.kind;
    return q;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"memtracer-report: allocations, leaks, temporaries and regressions of MemTracer runs"};
    app.require_subcommand(1);
    // The --version every MemTracer tool answers (common/'s mt::cli); subcommands keep CLI11's own parse.
    mt::cli::set_version(app, "memtracer-report");
    Args a;
    auto *top_cmd = one_run(app, "top", "what allocated most, by class, site or stack", a, true);
    auto *frames_cmd = one_run(app, "frames", "the per-frame series, with the live and GC heap peaks", a, false);
    auto *leaks_cmd = one_run(app, "leaks", "objects still alive at the end of the range (leak candidates)", a, true);
    auto *temp_cmd = one_run(app, "temporaries", "objects that died within --within frames", a, true);
    temp_cmd->add_option("--within", a.within, "frames (default 1; 0 = the frame they were made in)")
        ->check(CLI::Range(int64_t{0}, int64_t{1000000}));
    auto two_runs = [&](const char *name, const char *what) {
        auto *c = app.add_subcommand(name, what);
        c->add_option("a", a.db, "base: run.db or run.db@N")->required();
        c->add_option("b", a.db_b, "new: run.db or run.db@N (the same file for two runs of one database)")->required();
        c->add_option("--by", a.by, "class (default) or site")->check(CLI::IsMember({"class", "site"}));
        range_options(c, a);
        return c;
    };
    auto *compare_cmd = two_runs("compare", "two runs per class or site, per frame");
    auto *gate_cmd = two_runs("gate", "fail (exit 1) when NEW grew past a limit over BASE");
    std::vector<std::string> trend_sources;
    std::string trend_class, trend_site, trend_per = "build";
    mt::fleet::TrendQuery tq;
    auto *trend_cmd = app.add_subcommand("trend", "a class, a site or the total per build or night, over many runs");
    trend_cmd->add_option("sources", trend_sources, "one clickhouse://host:port/db URL, or run.db files")->required();
    auto *cls_opt = trend_cmd->add_option("--class", trend_class, "a class by full name (default: the total)");
    trend_cmd->add_option("--site", trend_site, "a site: 'Function' or 'Function (File)'")->excludes(cls_opt);
    trend_cmd->add_option("--per", trend_per, "build (default) or night")->check(CLI::IsMember({"build", "night"}));
    trend_cmd->add_option("--project", tq.project, "only runs of this project");
    trend_cmd->add_option("--platform", tq.platform, "only runs of this platform");
    trend_cmd->add_option("--device", tq.device, "only runs of this device");
    trend_cmd->add_option("--format", a.format, "table (default), csv or json")->check(CLI::IsMember({"table", "csv", "json"}));
    gate_cmd->add_option("--max-growth", a.max_growth, "limits, e.g. 'bytes_per_frame=5%,allocs_per_frame=10%'")
        ->required();
    gate_cmd->add_option("--min-share", a.min_share,
                         "a class or site is over only if it grew by this percentage of BASE's total (default 1)")
        ->check(CLI::Range(0.0, 100.0));
    if (auto rc = mt::cli::parse_app(app, argc, argv, 2)) return *rc;
    try {
        Format f = parse_format(a.format == "table" ? "table" : a.format);
        Query q = query_of(a);
        if (gate_cmd->parsed()) {
            GateLimits limits = parse_limits(a.max_growth);
            Source base(a.db), now(a.db_b);
            GateResult r = gate(base, now, q, limits, a.min_share);
            render(r.table, f, std::cout, std::cerr);
            return r.failed ? 1 : 0;
        }
        if (trend_cmd->parsed()) {
            using W = mt::fleet::TrendQuery::What;
            tq.what = !trend_class.empty() ? W::Class : !trend_site.empty() ? W::Site : W::Total;
            tq.name = !trend_class.empty() ? trend_class : trend_site;
            tq.per = trend_per == "night" ? mt::fleet::TrendQuery::Per::Night : mt::fleet::TrendQuery::Per::Build;
            render(trend_table(trend_sources, tq), f, std::cout, std::cerr);
            return 0;
        }
        if (compare_cmd->parsed()) {
            Source x(a.db), y(a.db_b);
            render(compare(x, y, q), f, std::cout, std::cerr);
            return 0;
        }
        Source s(a.db, a.run);
        Table t = top_cmd->parsed()      ? top(s, q)
                  : frames_cmd->parsed() ? frames(s, q)
                  : leaks_cmd->parsed()  ? leaks(s, q)
                                         : temporaries(s, q);
        render(t, f, std::cout, std::cerr);
        return 0;
    } catch (const NoLifetimes &e) {
        std::cerr << "memtracer-report: " << e.what() << "\n";
        return 3;
    } catch (const std::exception &e) {
        std::cerr << "memtracer-report: " << e.what() << "\n";
        return 2;
    }
}
