// memtracer-export against real ClickHouse servers: a two-shard cluster behind Distributed
// tables, the viewer's fixture database exported, rows on both shards, re-export changing
// nothing, a shard gone during an export leaving the run invisible, and an unreachable server
// named in the error.
#include <catch2/catch.hpp>

#include <memtracer/store/db.h>

#include <map>

#include "clickhouse.h"
#include "clickhouse_server.h"
#include "process.h"
#include "schema.h"

using namespace mt;


namespace {

int64_t sqlite_count(const std::string &sql) {
    store::Db db = store::Db::open_readonly(MT_VIEWER_FIXTURE_DB, 5000);
    return *db.query_int(sql);
}

int64_t ch_count(fleet::ClickHouse &c, const std::string &sql) { return std::stoll(c.rows(sql).at(0).at(0)); }

// Two servers, shards of cluster mt_test, each knowing both.
struct Cluster {
    test::TempDir dir;
    uint16_t http1 = test::free_port(), tcp1 = test::free_port(), http2 = test::free_port(), tcp2 = test::free_port();
    test::ClickHouseServer s1{dir.path + "/s1", http1, tcp1, {tcp1, tcp2}};
    test::ClickHouseServer s2{dir.path + "/s2", http2, tcp2, {tcp1, tcp2}};
    Cluster() {
        s1.start();
        s2.start();
    }
    test::ProcessResult export_to(const std::string &db, std::vector<std::string> extra = {}) {
        std::vector<std::string> argv = {MT_EXPORT_BIN, MT_VIEWER_FIXTURE_DB, "--to", s1.url(db), "--cluster", "mt_test",
                                         "--shard", s1.url(db), "--shard", s2.url(db)};
        argv.insert(argv.end(), extra.begin(), extra.end());
        return test::run_process(argv);
    }
};

// Rows of every table, as the Distributed tables see them.
std::map<std::string, int64_t> table_counts(fleet::ClickHouse &c) {
    std::map<std::string, int64_t> out;
    for (const auto &t : fleet::tables()) out[t.name] = ch_count(c, "SELECT count() FROM " + t.name);
    return out;
}

}  // namespace

TEST_CASE("fleet export: a run.db into a two-shard cluster, on both shards, re-export a no-op", "[fleet]") {
    Cluster cl;
    auto r = cl.export_to("fleet", {"--project", "Nightly", "--night", "2026-11-20"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    fleet::ClickHouse c(fleet::ClickHouseUrl::parse(cl.s1.url("fleet")));
    const int64_t runs = sqlite_count("SELECT count(*) FROM runs");
    CHECK(ch_count(c, "SELECT count() FROM runs") == runs);
    CHECK(ch_count(c, "SELECT count() FROM runs WHERE project = 'Nightly' AND night = toDate('2026-11-20')") == runs);
    // The big per-frame tables hold every row, with the capture's run-local ids.
    CHECK(ch_count(c, "SELECT count() FROM frames") == sqlite_count("SELECT count(*) FROM frames"));
    CHECK(ch_count(c, "SELECT count() FROM allocs") == sqlite_count("SELECT count(*) FROM allocs"));
    CHECK(ch_count(c, "SELECT sum(requested_bytes) FROM allocs") == sqlite_count("SELECT sum(requested_bytes) FROM allocs"));
    // The per-run summaries the cross-run answers read: run_class_stack summed per site and per
    // class, every byte once.
    const int64_t rcs_bytes = sqlite_count("SELECT sum(requested_bytes) FROM run_class_stack");
    CHECK(ch_count(c, "SELECT sum(requested_bytes) FROM run_site_sums") == rcs_bytes);
    CHECK(ch_count(c, "SELECT sum(requested_bytes) FROM run_class_sums") == rcs_bytes);
    CHECK(ch_count(c, "SELECT sum(count) FROM run_class_sums") == sqlite_count("SELECT sum(count) FROM run_class_stack"));
    CHECK(ch_count(c, "SELECT count() FROM run_class_sums") == sqlite_count("SELECT count(*) FROM (SELECT DISTINCT run_id, class_id FROM run_class_stack)"));
    CHECK(ch_count(c, "SELECT count() FROM run_site_sums") ==
          sqlite_count("SELECT count(*) FROM (SELECT DISTINCT r.run_id, s.site_id FROM run_class_stack r "
                       "LEFT JOIN stacks s ON s.run_id = r.run_id AND s.stack_id = r.stack_id)"));
    // Content-addressed: one row per distinct class and site, whichever runs named them.
    CHECK(ch_count(c, "SELECT uniqExact(class_key) FROM class_dict") ==
          sqlite_count("SELECT count(*) FROM (SELECT DISTINCT full_name, name, namespace, flags, element_size FROM classes)"));
    CHECK(ch_count(c, "SELECT uniqExact(site_key) FROM site_dict") ==
          sqlite_count("SELECT count(DISTINCT site_id) FROM stacks WHERE site_id IS NOT NULL"));
    // Both shards hold rows: dictionaries shard by content key.
    fleet::ClickHouse sh1(fleet::ClickHouseUrl::parse(cl.s1.url("fleet"))), sh2(fleet::ClickHouseUrl::parse(cl.s2.url("fleet")));
    int64_t on1 = ch_count(sh1, "SELECT count() FROM stack_frame_dict_local") + ch_count(sh1, "SELECT count() FROM class_dict_local");
    int64_t on2 = ch_count(sh2, "SELECT count() FROM stack_frame_dict_local") + ch_count(sh2, "SELECT count() FROM class_dict_local");
    CHECK(on1 > 0);
    CHECK(on2 > 0);

    auto before = table_counts(c);
    auto again = cl.export_to("fleet", {"--project", "Nightly", "--night", "2026-11-20"});
    INFO(again.output);
    REQUIRE(again.exit_code == 0);
    CHECK_THAT(again.output, Catch::Contains("already exported"));
    CHECK(table_counts(c) == before);
}

TEST_CASE("fleet export: a shard gone during the export leaves the run invisible, the retry shows it once", "[fleet]") {
    Cluster cl;
    REQUIRE(cl.export_to("gone", {"--init"}).exit_code == 0);
    cl.s2.stop();
    auto r = cl.export_to("gone");
    INFO(r.output);
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains(cl.s1.url("gone")));
    fleet::ClickHouse sh1(fleet::ClickHouseUrl::parse(cl.s1.url("gone")));
    CHECK(ch_count(sh1, "SELECT count() FROM runs_local") == 0);  // no run row: nothing of it visible

    cl.s2.start();
    fleet::ClickHouse c(fleet::ClickHouseUrl::parse(cl.s1.url("gone")));
    CHECK(ch_count(c, "SELECT count() FROM runs") == 0);
    auto retry = cl.export_to("gone");
    INFO(retry.output);
    REQUIRE(retry.exit_code == 0);
    const int64_t runs = sqlite_count("SELECT count(*) FROM runs");
    CHECK(ch_count(c, "SELECT count() FROM runs") == runs);
    // What the failed attempt left carries another export id: joined from the runs rows, the
    // frames are the database's, once.
    CHECK(ch_count(c, "SELECT count() FROM frames WHERE (run_key, export_id) GLOBAL IN (SELECT run_key, export_id FROM runs)") ==
          sqlite_count("SELECT count(*) FROM frames"));
}

TEST_CASE("fleet export: an unreachable ClickHouse is an error naming the URL", "[fleet]") {
    const std::string url = "clickhouse://127.0.0.1:" + std::to_string(test::free_port()) + "/nowhere";
    auto r = test::run_process({MT_EXPORT_BIN, MT_VIEWER_FIXTURE_DB, "--to", url});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains("cannot reach ClickHouse at " + url));
    auto bad = test::run_process({MT_EXPORT_BIN, MT_VIEWER_FIXTURE_DB, "--to", "http://127.0.0.1/x"});
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.output, Catch::Contains("not a clickhouse:// URL"));
}
