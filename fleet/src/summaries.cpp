#include "summaries.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace mt::fleet {

namespace {

const std::string kRun = "project, platform, build, device, night, run_key, export_id";

struct RunId {
    std::string key, export_id, build;
};

// Visible runs (a run row, of that row's export) without rows in `table`. Runs on a shard that
// is down are not seen (skip_unavailable_shards): their rows and summaries live on that shard
// together, so a later call fills them.
std::vector<RunId> without_rows(ClickHouse &c, const std::string &table) {
    std::vector<RunId> out;
    for (auto &r : c.rows("SELECT run_key, export_id, build FROM runs WHERE (run_key, export_id) GLOBAL NOT IN (SELECT run_key, export_id "
                          "FROM " + table + ") SETTINGS skip_unavailable_shards = 1"))
        out.push_back({r.at(0), r.at(1), r.at(2)});
    return out;
}

// Rows of exactly these runs: their builds first (the sorting key prunes other builds'
// granules), then the pairs as literals (one pair is written twice: alone it reads as a tuple).
std::string of_runs(const std::vector<RunId> &runs) {
    std::set<std::string> builds;
    std::string pairs;
    for (const RunId &r : runs) {
        builds.insert(sql_quote(r.build));
        pairs += (pairs.empty() ? "(" : ", (") + r.key + ", " + r.export_id + ")";
    }
    if (runs.size() == 1) pairs += ", (" + runs[0].key + ", " + runs[0].export_id + ")";
    std::string in_builds;
    for (const std::string &b : builds) in_builds += (in_builds.empty() ? "" : ", ") + b;
    return "build IN (" + in_builds + ") AND (run_key, export_id) IN (" + pairs + ")";
}

// run_site_sums: the run's run_class_stack summed per site key (each row carries its stack's).
std::string site_sums_sql(const std::string &cond) {
    return "INSERT INTO run_site_sums (" + kRun + ", site_key, count, requested_bytes, gc_bytes) SELECT " + kRun +
           ", site_key, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack WHERE " + cond + " GROUP BY " + kRun +
           ", site_key";
}

// run_class_sums, by the exporter's rule: a class id the run's `classes` name gets its content key
// and class id 0, one it never named key 0 and its id; ids with the same key add up. run_class_stack has no class key, and the subset has no JOIN, so the
// run's classes come in by UNION ALL as rows with zero sums, a class id's key is the max over its
// rows, and only ids with run_class_stack rows (`used`) are kept. Aliases differ per level
// (ClickHouse aliases are query-wide).
std::string class_sums_sql(const std::string &cond) {
    return "INSERT INTO run_class_sums (" + kRun + ", class_key, class_id, count, requested_bytes, gc_bytes) SELECT " + kRun +
           ", ck1, cid1, sum(c1), sum(r1), sum(g1) FROM (SELECT " + kRun +
           ", max(k0) AS ck1, if(max(k0) = 0, class_id, toInt64(0)) AS cid1, sum(c0) AS c1, sum(r0) AS r1, sum(g0) AS g1 FROM (SELECT " +
           kRun + ", class_id, toUInt64(0) AS k0, count AS c0, requested_bytes AS r0, gc_bytes AS g0, toUInt8(1) AS used0 "
           "FROM run_class_stack WHERE " + cond + " UNION ALL SELECT " + kRun +
           ", class_id, class_key, toInt64(0), toInt64(0), toInt64(0), toUInt8(0) FROM classes WHERE " + cond + ") GROUP BY " + kRun +
           ", class_id HAVING max(used0) = 1) GROUP BY " + kRun + ", ck1, cid1";
}

bool summary_tables_exist(ClickHouse &c) {
    auto n = c.rows("SELECT count() FROM system.tables WHERE database = " + sql_quote(c.url().database) +
                    " AND name IN ('run_site_sums', 'run_class_sums')");
    return !n.empty() && n[0][0] == "2";
}

}  // namespace

int64_t backfill_summaries(ClickHouse &c) {
    std::set<std::string> missing;
    for (auto [table, sql] : {std::pair{"run_site_sums", &site_sums_sql}, std::pair{"run_class_sums", &class_sums_sql}}) {
        auto runs = without_rows(c, table);
        // A few hundred runs a statement: a literal set stays small to send and quick to build.
        for (size_t at = 0; at < runs.size(); at += 500) {
            std::vector<RunId> part(runs.begin() + static_cast<ptrdiff_t>(at), runs.begin() + static_cast<ptrdiff_t>(std::min(runs.size(), at + 500)));
            c.execute(sql(of_runs(part)));
        }
        for (const RunId &r : runs) missing.insert(r.key + "," + r.export_id);
    }
    return static_cast<int64_t>(missing.size());
}

void require_summaries(ClickHouse &c) {
    const std::string fix = "; run `memtracer-export --upgrade --to " + c.url().text +
                            "` once (with --cluster and --shard as for an export) to fill them from run_class_stack";
    if (!summary_tables_exist(c))
        throw std::runtime_error(c.url().text + " was exported by a memtracer-export from before the per-run summaries "
                                                "(run_site_sums, run_class_sums): the trend, fleet top and growth read them" + fix);
    std::vector<RunId> runs = without_rows(c, "run_site_sums"), more = without_rows(c, "run_class_sums");
    runs.insert(runs.end(), more.begin(), more.end());
    if (runs.empty()) return;
    // A run with no run_class_stack rows has no summaries either, and needs none.
    auto n = c.rows("SELECT uniqExact(run_key, export_id) FROM run_class_stack WHERE " + of_runs(runs));
    if (!n.empty() && n[0][0] != "0")
        throw std::runtime_error(c.url().text + ": " + n[0][0] +
                                 " runs were exported before the per-run summaries (run_site_sums, run_class_sums) existed, so "
                                 "the trend, fleet top and growth would leave them out" + fix);
}

}  // namespace mt::fleet
