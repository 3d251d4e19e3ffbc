// Leaks and temporaries under the shared filter (class substring, function in the stack, frame
// range): the fixture's run 2 death_sites rows (fixture_shape.cpp kDeathSites) give the lifetime
// numbers; allocation sums come from SQL written here, independently of the query layer.
#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
// Objects run 2 allocated in [from, to] whose class full name contains `cls` and whose stack
// has a frame (C#, demangled or raw name) containing `fn`; lowercase needles, "" = any.
int64_t allocated(const std::string &cls, const std::string &fn, int from, int to) {
    std::string w = "run_id=2 AND seq BETWEEN " + std::to_string(from) + " AND " + std::to_string(to);
    if (!cls.empty())
        w += " AND class_id IN (SELECT class_id FROM classes WHERE run_id=2 AND lower(full_name) LIKE '%" + cls + "%')";
    if (!fn.empty())
        w += " AND stack_id IN (SELECT sf.stack_id FROM stack_frames sf JOIN symbols s USING(addr_id) WHERE "
             "sf.run_id=2 AND (lower(s.csharp) LIKE '%" + fn + "%' OR lower(s.demangled) LIKE '%" + fn +
             "%' OR lower(s.function) LIKE '%" + fn + "%'))";
    return sql_int(fixture_db(), "SELECT coalesce(sum(count), 0) FROM allocs WHERE " + w);
}
}  // namespace

TEST_CASE("viewer: temporaries take the class and function filter", "[viewer][query][lifetimes][filter]") {
    Database db(fixture_db());
    // Class, case-insensitive: only Node's deaths within 1 frame (frame 29: ages 0 and 1, 3 + 3).
    auto node = ok(db, "/api/runs/2/temporaries?class=NODE");
    CHECK(node["filter"]["class"].str() == "NODE");
    REQUIRE(node["entries"].size() == 1);
    CHECK(node["entries"][0]["full_name"].str() == "Node");
    CHECK(node["entries"][0]["count"].i() == 6);
    CHECK(node["entries"][0]["gc_bytes"].i() == 288);
    CHECK(node["entries"][0]["share"].n == Approx(1.0));
    CHECK(node["totals"]["count"].i() == 6);
    CHECK(node["totals"]["gc_bytes"].i() == 288);
    CHECK(node["totals"]["allocated"].i() == allocated("node", "", 0, 299));
    // Function: the HUD strings (stack 4, Hud.UpdateText), ages 0 and 2 within 5 frames.
    auto hud = ok(db, "/api/runs/2/temporaries?function=hud.UpdateText&within=5&group=site");
    CHECK(hud["filter"]["function"].str() == "hud.UpdateText");
    REQUIRE(hud["entries"].size() == 1);
    CHECK(hud["entries"][0]["function"].str() == "Hud.UpdateText");
    CHECK(hud["entries"][0]["count"].i() == 10);
    CHECK(hud["entries"][0]["gc_bytes"].i() == 640);
    CHECK(hud["totals"]["allocated"].i() == allocated("", "hud.updatetext", 0, 299));
    // Class and function and range together: Node..ctor's Nodes born in frame 29 (age 0: 3).
    auto both = ok(db, "/api/runs/2/temporaries?class=node&function=Node..ctor&from=29&to=29&within=0");
    REQUIRE(both["entries"].size() == 1);
    CHECK(both["entries"][0]["count"].i() == 3);
    CHECK(both["entries"][0]["gc_bytes"].i() == 144);
    CHECK(both["totals"]["allocated"].i() == allocated("node", "node..ctor", 29, 29));
    // A filter nothing passes: an empty answer, not an error.
    auto none = ok(db, "/api/runs/2/temporaries?class=no-such-class");
    CHECK(none["entries"].size() == 0);
    CHECK(none["totals"]["count"].i() == 0);
    CHECK(none["totals"]["allocated"].i() == 0);
    // Without a filter the answer has no "filter" member and keeps every class.
    auto all = ok(db, "/api/runs/2/temporaries");
    CHECK_FALSE(all.has("filter"));
    CHECK(all["totals"]["count"].i() == 11);
}

TEST_CASE("viewer: leaks take the class and function filter, whole run and range", "[viewer][query][lifetimes][filter]") {
    Database db(fixture_db());
    // Whole run (survivors): the one survivors row is Node's.
    auto node = ok(db, "/api/runs/2/leaks?class=nOdE");
    REQUIRE(node["entries"].size() == 1);
    CHECK(node["entries"][0]["count"].i() == 25);
    CHECK(node["entries"][0]["gc_bytes"].i() == 1200);
    CHECK(node["totals"]["count"].i() == 25);
    auto str = ok(db, "/api/runs/2/leaks?class=string");
    CHECK(str["entries"].size() == 0);
    CHECK(str["totals"]["count"].i() == 0);
    // A range: allocations minus linked deaths, of the strings only (10 died in frame 59).
    auto s = ok(db, "/api/runs/2/leaks?to=298&class=String");
    REQUIRE(s["entries"].size() == 1);
    CHECK(s["entries"][0]["full_name"].str() == "System.String");
    CHECK(s["entries"][0]["count"].i() == allocated("string", "", 0, 298) - 10);
    CHECK(s["entries"][0]["allocated"].i() == allocated("string", "", 0, 298));
    CHECK(s["totals"]["count"].i() == allocated("string", "", 0, 298) - 10);
    // Function: the HUD strings of frames 30..59, less the 10 that died in 59.
    auto hud = ok(db, "/api/runs/2/leaks?from=30&to=59&function=Hud.UpdateText&by=count");
    CHECK(hud["totals"]["count"].i() == allocated("", "hud.updatetext", 30, 59) - 10);
    // A thread the run does not have: a 400 here too (test_query_threads.cpp: the thread filter).
    CHECK(error_param(db, "/api/runs/2/leaks?thread=9", 400) == "thread");
    CHECK(error_param(db, "/api/runs/2/temporaries?class=", 400) == "class");
}

TEST_CASE("viewer: leaks by stack: one `frames` key (the count), the stack as stack_frames", "[viewer][query][lifetimes]") {
    Database db(fixture_db());
    auto s = ok(db, "/api/runs/2/leaks?group=stack&to=298");
    REQUIRE(s["entries"].size() > 0);
    for (auto &e : s["entries"].a) {
        INFO("stack " << e["stack_id"].i());
        CHECK(e["frames"].kind == JValue::Number);
        CHECK(e["stack_frames"].kind == JValue::Array);
        CHECK(e["stack_frames"].size() > 0);
    }
    // Temporaries have no frame count: their stacks stay `frames`, as TopN's.
    auto t = ok(db, "/api/runs/2/temporaries?group=stack");
    REQUIRE(t["entries"].size() > 0);
    CHECK(t["entries"][0]["frames"].kind == JValue::Array);
}
