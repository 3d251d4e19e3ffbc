// Leaks, temporaries and the live-heap peak on the fixture database: run 2's death_sites rows
// are written by hand in fixture_shape.cpp (kDeathSites), so the numbers below are those rows;
// allocation sums come from SQL on the same file.
#include <unistd.h>

#include <filesystem>

#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
int64_t allocated(const std::string &cls, int from, int to) {
    return sql_int(fixture_db(),
                   "SELECT ifnull(sum(a.count), 0) FROM allocs a JOIN classes c ON c.run_id=a.run_id AND "
                   "c.class_id=a.class_id WHERE a.run_id=2 AND c.full_name='" + cls + "' AND a.seq BETWEEN " +
                       std::to_string(from) + " AND " + std::to_string(to));
}
const JValue &entry(const JValue &entries, const std::string &name) {
    for (auto &e : entries.a)
        if (e["full_name"].str() == name) return e;
    FAIL("no entry " << name);
    return entries.a[0];
}
}  // namespace

TEST_CASE("viewer: temporaries: deaths within N frames of their allocation, per class and site", "[viewer][query][lifetimes]") {
    Database db(fixture_db());
    auto t = ok(db, "/api/runs/2/temporaries");
    CHECK(t["lifetimes"].b);
    CHECK(t["within"].i() == 1);
    REQUIRE(t["entries"].size() == 2);
    // Frame 29: Node ages 0 and 1 (3 + 3); frame 59: String age 0 (5). Ages 2, 5, 40 are longer.
    CHECK(t["entries"][0]["full_name"].str() == "System.String");
    CHECK(t["entries"][0]["count"].i() == 5);
    CHECK(t["entries"][0]["gc_bytes"].i() == 320);
    CHECK(t["entries"][1]["full_name"].str() == "Node");
    CHECK(t["entries"][1]["count"].i() == 6);
    CHECK(t["entries"][1]["gc_bytes"].i() == 288);
    CHECK(t["entries"][1]["allocated"].i() == allocated("Node", 0, 299));
    CHECK(t["totals"]["count"].i() == 11);
    CHECK(t["totals"]["allocated"].i() == sql_int(fixture_db(), "SELECT alloc_count FROM runs WHERE run_id=2"));

    auto t5 = ok(db, "/api/runs/2/temporaries?within=5&by=count");
    CHECK(t5["totals"]["count"].i() == 17);  // + Node age 5 (1) + String age 2 (5)
    CHECK(t5["entries"][0]["full_name"].str() == "System.String");  // by count: 10 before 7
    CHECK(entry(t5["entries"], "Node")["count"].i() == 7);
    CHECK(entry(t5["entries"], "System.String")["gc_bytes"].i() == 640);
    auto t40 = ok(db, "/api/runs/2/temporaries?within=40");
    CHECK(entry(t40["entries"], "Enemy")["count"].i() == 1);
    CHECK(entry(t40["entries"], "Enemy")["gc_bytes"].i() == 128);
    // Born in frame 29 only: Node age 0 at 29 (age 1 was born in 28).
    auto one = ok(db, "/api/runs/2/temporaries?from=29&to=29");
    REQUIRE(one["entries"].size() == 1);
    CHECK(one["entries"][0]["count"].i() == 3);
    CHECK(one["entries"][0]["gc_bytes"].i() == 144);
    // By site: both Node stacks are Node..ctor's; the HUD strings are Hud.UpdateText's.
    auto sites = ok(db, "/api/runs/2/temporaries?group=site&within=5");
    REQUIRE(sites["entries"].size() == 2);
    CHECK(sites["entries"][0]["function"].str() == "Hud.UpdateText");
    CHECK(sites["entries"][0]["main_class"]["full_name"].str() == "System.String");
    CHECK(sites["entries"][1]["function"].str() == "Node..ctor");
    CHECK(sites["entries"][1]["count"].i() == 7);
}

TEST_CASE("viewer: leaks: alive at the end of the run or of any frame, with their age", "[viewer][query][lifetimes]") {
    Database db(fixture_db());
    // The whole run: the symbolizer's survivors row (fixture: 25 Node of stack 0 from frame 3,
    // 20 allocation frames that survived a collection).
    auto whole = ok(db, "/api/runs/2/leaks");
    CHECK(whole["by"].str() == "frames");
    REQUIRE(whole["entries"].size() == 1);
    CHECK(whole["entries"][0]["full_name"].str() == "Node");
    CHECK(whole["entries"][0]["count"].i() == 25);
    CHECK(whole["entries"][0]["gc_bytes"].i() == 1200);
    CHECK(whole["entries"][0]["oldest_seq"].i() == 3);
    CHECK(whole["entries"][0]["age_frames"].i() == 296);
    CHECK(whole["entries"][0]["frames"].i() == 20);
    CHECK(whole["entries"][0]["allocated"].i() == allocated("Node", 0, 299));

    // A range: allocations minus every linked death (Node 7, String 10, Enemy 1).
    auto most = ok(db, "/api/runs/2/leaks?to=298&by=gc_bytes");
    CHECK_FALSE(most["range"]["whole"].b);
    CHECK(entry(most["entries"], "Node")["count"].i() == allocated("Node", 0, 298) - 7);
    CHECK(entry(most["entries"], "System.String")["count"].i() == allocated("System.String", 0, 298) - 10);
    CHECK(entry(most["entries"], "Enemy")["count"].i() == allocated("Enemy", 0, 298) - 1);
    CHECK(entry(most["entries"], "Node")["allocated"].i() == allocated("Node", 0, 298));
    CHECK(entry(most["entries"], "Node")["age_frames"].i() == 298 - entry(most["entries"], "Node")["oldest_seq"].i());
    // `frames`: allocation frames before the last collection (frame 59) with objects alive.
    // Nothing of List`1 ever dies, so every frame before 59 that allocated one counts.
    CHECK(entry(most["entries"], "System.Collections.Generic.List`1")["frames"].i() ==
          sql_int(fixture_db(), "SELECT count(DISTINCT seq) FROM allocs WHERE run_id=2 AND class_id=5 AND seq < 59"));
    auto by_frames = ok(db, "/api/runs/2/leaks?to=298");
    for (size_t i = 1; i < by_frames["entries"].size(); ++i)
        CHECK(by_frames["entries"][i - 1]["frames"].i() >= by_frames["entries"][i]["frames"].i());

    // Alive at the end of frame 29 of what frames 0..29 allocated: allocations minus the deaths
    // of frame 29 (Node 6 + 1).
    auto at29 = ok(db, "/api/runs/2/leaks?to=29&by=count");
    CHECK_FALSE(at29["range"]["whole"].b);
    const auto &node = entry(at29["entries"], "Node");
    CHECK(node["count"].i() == allocated("Node", 0, 29) - 7);
    CHECK(node["allocated"].i() == allocated("Node", 0, 29));
    CHECK(node["oldest_seq"].i() ==
          sql_int(fixture_db(), "SELECT min(seq) FROM allocs WHERE run_id=2 AND class_id=4 AND count > 0"));
    CHECK(entry(at29["entries"], "System.String")["count"].i() == allocated("System.String", 0, 29));
    // Frames 30..59: the strings of frame 59 (ages 0 and 2) died; the enemies (born in 19) were
    // not allocated in the range, so all of the range's enemies are alive.
    auto r = ok(db, "/api/runs/2/leaks?from=30&to=59");
    CHECK(entry(r["entries"], "System.String")["count"].i() == allocated("System.String", 30, 59) - 10);
    CHECK(entry(r["entries"], "Enemy")["count"].i() == allocated("Enemy", 30, 59));
    int64_t sum = 0;
    for (auto &e : r["entries"].a) sum += e["count"].i();
    CHECK(r["totals"]["count"].i() == sum);
    CHECK(sum == sql_int(fixture_db(), "SELECT sum(count) FROM allocs WHERE run_id=2 AND seq BETWEEN 30 AND 59") - 10);
}

TEST_CASE("viewer: leaks and temporaries say plainly when a run has no lifetimes", "[viewer][query][lifetimes]") {
    Database db(fixture_db());
    for (const char *target : {"/api/runs/1/leaks", "/api/runs/1/temporaries?within=3"}) {
        auto a = ok(db, target);
        CHECK_FALSE(a["lifetimes"].b);
        CHECK(a["note"].str().find("run 1 recorded no lifetimes") != std::string::npos);
        CHECK(a["entries"].size() == 0);
        CHECK(a["total"].i() == 0);
    }
    CHECK(error_param(db, "/api/runs/2/temporaries?within=-1", 400) == "within");
    CHECK(error_param(db, "/api/runs/2/leaks?within=1", 400) == "within");
    CHECK(error_param(db, "/api/runs/2/leaks?by=bytes", 400) == "by");
    CHECK(error_param(db, "/api/runs/2/temporaries?by=frames", 400) == "by");
    CHECK(error_param(db, "/api/runs/2/leaks?to=300", 400) == "to");
}

TEST_CASE("viewer: frame series marks the live-heap and GC-heap peaks of the range", "[viewer][query][lifetimes]") {
    Database db(fixture_db());
    auto s = ok(db, "/api/runs/2/frames?from=0&to=100&limit=10");
    REQUIRE(s["live_bytes"].size() == 10);
    // Over the whole range asked for, not only the first page of 10.
    int64_t live_max = sql_int(fixture_db(), "SELECT max(live_bytes) FROM frames WHERE run_id=2 AND seq <= 100");
    CHECK(s["live_peak"]["live_bytes"].i() == live_max);
    CHECK(s["live_peak"]["seq"].i() ==
          sql_int(fixture_db(), "SELECT min(seq) FROM frames WHERE run_id=2 AND seq <= 100 AND live_bytes=" +
                                    std::to_string(live_max)));
    CHECK(s["live_peak"]["seq"].i() % 30 == 28);  // the fixture collects at seq % 30 == 29
    CHECK(s["heap_peak"]["heap_size"].i() ==
          sql_int(fixture_db(), "SELECT max(heap_size) FROM frames WHERE run_id=2 AND seq <= 100"));
    CHECK(ok(db, "/api/runs/1/frames")["live_peak"].is_null());
}

TEST_CASE("viewer: a database written before death_sites and survivors.frames: whole-run leaks from survivors, no range", "[viewer][query][lifetimes]") {
    auto dir = std::filesystem::temp_directory_path() / ("mt-old-db-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto path = (dir / "old.db").string();
    std::filesystem::copy_file(fixture_db(), path, std::filesystem::copy_options::overwrite_existing);
    mt::store::Db::open(path, false).exec("DROP TABLE death_sites; ALTER TABLE survivors DROP COLUMN frames");
    {
        Database db(path);
        auto whole = ok(db, "/api/runs/2/leaks");
        CHECK(whole["lifetimes"].b);
        REQUIRE(whole["entries"].size() == 1);  // the survivors row
        CHECK(whole["entries"][0]["full_name"].str() == "Node");
        CHECK(whole["entries"][0]["count"].i() == 25);
        CHECK(whole["entries"][0]["gc_bytes"].i() == 1200);
        CHECK(whole["entries"][0]["oldest_seq"].i() == 3);
        CHECK(whole["entries"][0]["age_frames"].i() == 296);
        CHECK(whole["entries"][0]["frames"].i() == 0);  // not known
        auto range = ok(db, "/api/runs/2/leaks?to=29");
        CHECK_FALSE(range["lifetimes"].b);
        CHECK(range["note"].str().find("written before death_sites") != std::string::npos);
        CHECK_FALSE(ok(db, "/api/runs/2/temporaries")["lifetimes"].b);
    }
    std::filesystem::remove_all(dir);
}
