// The thread filter (issue 11): by id, by name (exact, case-insensitive, every thread of that
// name), comma lists; on TopN (whole run, short and long ranges), frames, one frame, flame,
// compare, leaks and temporaries; the threads list; and the 400s of runs that cannot answer
// (unknown thread, a run not split per thread, an aggregate capture, a version-1 database).
// Exact numbers of the fixture (fixture_shape.cpp's thread_split), each also derived by SQL.
#include <unistd.h>

#include <filesystem>
#include <set>

#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
int64_t allocs_sum(int run, const std::string &threads, const std::string &extra = "", const std::string &col = "count") {
    return sql_int(fixture_db(), "SELECT coalesce(sum(" + col + "),0) FROM allocs WHERE run_id=" + std::to_string(run) +
                                     " AND thread_id IN (" + threads + ")" + extra);
}

// A copy of the fixture changed by `sql`, removed with its directory at the end of the scope.
struct Copy {
    std::filesystem::path dir;
    std::string path;
    Copy(const std::string &name, const std::string &sql) {
        dir = std::filesystem::temp_directory_path() / ("mt-threads-" + name + "-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        path = (dir / "run.db").string();
        std::filesystem::copy_file(fixture_db(), path, std::filesystem::copy_options::overwrite_existing);
        mt::store::Db::open(path, false).exec(sql);
    }
    ~Copy() { std::filesystem::remove_all(dir); }
};

std::string error_message(Database &db, const std::string &target) {
    auto a = ask(db, target);
    REQUIRE(a.status == 400);
    REQUIRE(a.json["error"]["param"].str() == "thread");
    return a.json["error"]["message"].str();
}
}  // namespace

TEST_CASE("viewer: thread filter by id and by name on TopN, whole run and ranges", "[viewer][query][threads]") {
    Database db(fixture_db());
    auto t = ok(db, "/api/runs/1/top?thread=1");
    REQUIRE(t["filter"]["thread"].str() == "1");
    REQUIRE(t["filter"]["thread_ids"].size() == 1);
    REQUIRE(t["totals"]["count"].i() == 774);
    REQUIRE(t["totals"]["requested_bytes"].i() == 34488);
    REQUIRE(t["totals"]["gc_bytes"].i() == 38016);
    REQUIRE(t["totals"]["count"].i() == allocs_sum(1, "1"));
    // By name: exact, ASCII case-insensitive.
    REQUIRE(ok(db, "/api/runs/1/top?thread=job.worker%200")["totals"]["count"].i() == 774);
    // A name two threads share takes both; a list takes the union.
    auto lw = ok(db, "/api/runs/1/top?thread=Loading.Worker");
    REQUIRE(lw["filter"]["thread_ids"].size() == 2);
    REQUIRE(lw["totals"]["count"].i() == 567);
    REQUIRE(lw["totals"]["requested_bytes"].i() == 33992);
    REQUIRE(lw["totals"]["count"].i() == allocs_sum(1, "2,3"));
    REQUIRE(ok(db, "/api/runs/1/top?thread=main,%201")["totals"]["count"].i() == 3733 + 774);
    // Ranges: a short one, and a long one the cached blocks would serve unfiltered.
    auto r = ok(db, "/api/runs/1/top?from=10&to=200&thread=0,1");
    REQUIRE(r["totals"]["count"].i() == 3615);
    REQUIRE(r["totals"]["count"].i() == allocs_sum(1, "0,1", " AND seq BETWEEN 10 AND 200"));
    REQUIRE(ok(db, "/api/runs/1/top?from=10&to=200&thread=2")["totals"]["count"].i() == 218);
    REQUIRE(ok(db, "/api/runs/1/top?from=3&to=4&thread=1")["totals"]["count"].i() ==
            allocs_sum(1, "1", " AND seq BETWEEN 3 AND 4"));
    // With the class filter: the job worker's Node allocations of run 2.
    auto node = ok(db, "/api/runs/2/top?thread=1&class=node");
    REQUIRE(node["totals"]["count"].i() ==
            allocs_sum(2, "1", " AND class_id IN (SELECT class_id FROM classes WHERE run_id=2 AND lower(full_name) LIKE '%node%')"));
    // Unfiltered answers sum every thread's rows: one entry per (class, stack), as before.
    auto all = ok(db, "/api/runs/1/top?group=stack&limit=1000");
    REQUIRE(all["totals"]["count"].i() == sql_int(fixture_db(), "SELECT sum(count) FROM allocs WHERE run_id=1"));
    REQUIRE(all["entries"].size() ==
            static_cast<size_t>(sql_int(fixture_db(), "SELECT count(DISTINCT stack_id) FROM allocs WHERE run_id=1")));
}

TEST_CASE("viewer: thread filter on frames, one frame, flame and compare", "[viewer][query][threads]") {
    Database db(fixture_db());
    auto fs = ok(db, "/api/runs/1/frames?thread=1");
    int64_t sum = 0;
    for (auto &v : fs["alloc_count"].a) sum += v.i();
    REQUIRE(sum == 774);
    auto one = ok(db, "/api/runs/1/frames/5?thread=1");
    int64_t n = 0;
    for (auto &c : one["classes"].a) n += c["count"].i();
    REQUIRE(n == 2);
    REQUIRE(n == allocs_sum(1, "1", " AND seq=5"));
    // Unfiltered, a stack split between threads is one entry of its class (not one per thread).
    auto whole = ok(db, "/api/runs/1/frames/5");
    for (auto &c : whole["classes"].a) {
        std::set<int64_t> ids;
        for (auto &s : c["stacks"].a) REQUIRE(ids.insert(s["stack_id"].i()).second);
    }
    auto fl = ok(db, "/api/runs/1/flame?thread=Loading.Worker");
    REQUIRE(fl["root"]["value"].i() == allocs_sum(1, "2,3", "", "requested_bytes"));
    auto cmp = ok(db, "/api/compare?a=1&b=2&thread=Job.Worker%200&by=count");
    REQUIRE(cmp["a"]["totals"]["count"].i() == allocs_sum(1, "1"));
    REQUIRE(cmp["b"]["totals"]["count"].i() == allocs_sum(2, "1"));
}

TEST_CASE("viewer: thread filter on leaks and temporaries", "[viewer][query][threads]") {
    Database db(fixture_db());
    // The job worker allocates stack 1 (Node) and others; of its Nodes, one died in frame 59's
    // collection... of frame 29: death_sites row (29, Node, stack 1, age 5).
    auto lk = ok(db, "/api/runs/2/leaks?to=298&thread=1&class=Node&by=count");
    // class=Node is a substring: Node and Node[].
    const std::string node = " AND class_id IN (SELECT class_id FROM classes WHERE run_id=2 AND full_name LIKE '%Node%')";
    REQUIRE(lk["totals"]["count"].i() == allocs_sum(2, "1", node + " AND seq <= 298") - 1);
    REQUIRE(lk["entries"][0]["allocated"].i() == allocs_sum(2, "1", node + " AND seq <= 298"));
    // The main thread's Nodes: 6 of stack 0 died (frame 29), the worker's one is not among them.
    auto lm = ok(db, "/api/runs/2/leaks?to=298&thread=main&class=Node&by=count");
    REQUIRE(lm["totals"]["count"].i() == allocs_sum(2, "0", node + " AND seq <= 298") - 6);
    // Whole run from survivors: the one survivors row is the main thread's.
    REQUIRE(ok(db, "/api/runs/2/leaks?thread=0")["totals"]["count"].i() == 25);
    REQUIRE(ok(db, "/api/runs/2/leaks?thread=1")["totals"]["count"].i() == 0);
    // Temporaries: the worker's Node died at age 5, outside within=1; within=5 keeps it.
    REQUIRE(ok(db, "/api/runs/2/temporaries?thread=1&within=5")["totals"]["count"].i() == 1);
    REQUIRE(ok(db, "/api/runs/2/temporaries?thread=1&within=1")["totals"]["count"].i() == 0);
    REQUIRE(ok(db, "/api/runs/2/temporaries?thread=0&within=5")["totals"]["count"].i() == 3 + 3 + 5 + 5);
}

TEST_CASE("viewer: threads list with each thread's allocations", "[viewer][query][threads]") {
    Database db(fixture_db());
    auto t = ok(db, "/api/runs/1/threads");
    REQUIRE(t["split"].b);
    REQUIRE(t["threads"].size() == 4);
    CHECK(t["threads"][0]["name"].str() == "main");
    CHECK(t["threads"][0]["os_tid"].i() == 5001);
    CHECK(t["threads"][0]["count"].i() == 3733);
    CHECK(t["threads"][1]["count"].i() == 774);
    CHECK(t["threads"][1]["gc_bytes"].i() == 38016);
    CHECK(t["threads"][2]["count"].i() == 274);
    CHECK(t["threads"][3]["count"].i() == 293);
    CHECK(t["threads"][3]["requested_bytes"].i() == allocs_sum(1, "3", "", "requested_bytes"));
}

TEST_CASE("viewer: thread filter 400s: unknown thread, runs not split, version-1 databases", "[viewer][query][threads]") {
    {
        Database db(fixture_db());
        // Unknown: a 400 listing the run's threads, not an empty answer (a typo would look like
        // "this thread allocated nothing").
        auto m = error_message(db, "/api/runs/1/top?thread=Job.Worker%209");
        CHECK(m.find("has no thread Job.Worker 9") != std::string::npos);
        CHECK(m.find("1 Job.Worker 0") != std::string::npos);
        CHECK(error_message(db, "/api/runs/1/top?thread=1,,2").find("empty entry") != std::string::npos);
        CHECK(error_message(db, "/api/runs/1/frames/3?thread=17").find("has no thread 17") != std::string::npos);
        // A substring is not a name.
        CHECK(error_message(db, "/api/runs/1/top?thread=Worker").find("has no thread Worker") != std::string::npos);
    }
    {
        Copy c("nosplit", "UPDATE runs SET thread_split=0, mode='events' WHERE run_id=1");
        Database db(c.path);
        CHECK(error_message(db, "/api/runs/1/top?thread=1").find("re-symbolize it without --no-threads") != std::string::npos);
        CHECK(error_message(db, "/api/runs/1/leaks?thread=main").find("symbolized before per-thread data") != std::string::npos);
        CHECK_FALSE(ok(db, "/api/runs/1/threads")["split"].b);
        CHECK(ok(db, "/api/runs/1/threads")["threads"][0]["count"].is_null());
        CHECK(ok(db, "/api/runs/2/top?thread=1")["totals"]["count"].i() == allocs_sum(2, "1"));  // run 2 still is
    }
    {
        Copy c("aggregate", "UPDATE runs SET thread_split=0, mode='aggregate' WHERE run_id=1");
        Database db(c.path);
        CHECK(error_message(db, "/api/runs/1/top?thread=1").find("aggregate-mode capture") != std::string::npos);
    }
    {
        // A version-1 database: no thread_id anywhere, one row per (frame, class, stack).
        Copy c("v1",
               "CREATE TABLE a1(run_id INTEGER NOT NULL, seq INTEGER NOT NULL, class_id INTEGER NOT NULL, stack_id INTEGER NOT NULL,"
               " count INTEGER NOT NULL, requested_bytes INTEGER NOT NULL, gc_bytes INTEGER NOT NULL,"
               " PRIMARY KEY (run_id, seq, class_id, stack_id)) WITHOUT ROWID;"
               "INSERT INTO a1 SELECT run_id, seq, class_id, stack_id, sum(count), sum(requested_bytes), sum(gc_bytes)"
               " FROM allocs GROUP BY run_id, seq, class_id, stack_id;"
               "DROP TABLE allocs; ALTER TABLE a1 RENAME TO allocs;"
               "CREATE TABLE r1(run_id INTEGER NOT NULL, class_id INTEGER NOT NULL, stack_id INTEGER NOT NULL,"
               " count INTEGER NOT NULL, requested_bytes INTEGER NOT NULL, gc_bytes INTEGER NOT NULL,"
               " first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, PRIMARY KEY (run_id, class_id, stack_id)) WITHOUT ROWID;"
               "INSERT INTO r1 SELECT run_id, class_id, stack_id, sum(count), sum(requested_bytes), sum(gc_bytes),"
               " min(first_seq), max(last_seq) FROM run_class_stack GROUP BY run_id, class_id, stack_id;"
               "DROP TABLE run_class_stack; ALTER TABLE r1 RENAME TO run_class_stack;"
               "CREATE TABLE d1(run_id INTEGER NOT NULL, seq INTEGER NOT NULL, class_id INTEGER NOT NULL,"
               " stack_id INTEGER NOT NULL, ages BLOB NOT NULL, PRIMARY KEY (run_id, seq, class_id, stack_id)) WITHOUT ROWID;"
               "INSERT INTO d1 SELECT run_id, seq, class_id, stack_id, ages FROM death_sites;"
               "DROP TABLE death_sites; ALTER TABLE d1 RENAME TO death_sites;"
               "ALTER TABLE survivors DROP COLUMN all_frames;"
               "CREATE TABLE s1 AS SELECT run_id, class_id, stack_id, count, gc_bytes, first_seq, frames FROM survivors;"
               "DROP TABLE survivors; ALTER TABLE s1 RENAME TO survivors;"
               "ALTER TABLE runs DROP COLUMN thread_split; PRAGMA user_version = 1");
        mt::store::check_readable(c.path);  // readers take version 1
        Database db(c.path);
        CHECK(ok(db, "/api/runs/1/top")["totals"]["count"].i() ==
              sql_int(fixture_db(), "SELECT sum(count) FROM allocs WHERE run_id=1"));
        CHECK(ok(db, "/api/runs/2/leaks")["totals"]["count"].i() == 25);
        Database now(fixture_db());
        CHECK(ok(db, "/api/runs/2/leaks?to=298")["totals"]["count"].i() == ok(now, "/api/runs/2/leaks?to=298")["totals"]["count"].i());
        auto m = error_message(db, "/api/runs/1/top?thread=1");
        CHECK(m.find("this run was symbolized before per-thread data") != std::string::npos);
        CHECK(m.find("re-symbolize it") != std::string::npos);
        CHECK_FALSE(ok(db, "/api/runs/1/threads")["split"].b);
    }
}

TEST_CASE("viewer: search under a thread filter: totals of that thread, every match listed", "[viewer][query][threads]") {
    Database db(fixture_db());
    auto all = ok(db, "/api/runs/1/search?q=node");
    auto t = ok(db, "/api/runs/1/search?q=node&thread=1");
    REQUIRE(t["filter"]["thread_ids"].size() == 1);
    REQUIRE(t["classes"].size() == all["classes"].size());
    for (auto &c : t["classes"].a) {
        INFO(c["full_name"].str());
        CHECK(c["count"].i() == allocs_sum(1, "1", " AND class_id=" + std::to_string(c["class_id"].i())));
    }
    CHECK(error_param(db, "/api/runs/1/search?q=node&thread=nosuch", 400) == "thread");
}
