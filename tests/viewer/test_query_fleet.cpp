// The cross-run endpoints over the viewer's own database (the fixture: two runs, two builds, two
// devices): /api/trend, /api/fleet/top, /api/fleet/growth, /api/fleet/diff-flame, checked against
// the per-run endpoints' numbers; bad parameters named. (ClickHouse gives the same answers:
// tests/fleet.)
#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
const std::string kBuild1 = "5f1c2a9e0b7d4c3a8e6f1b2d3c4a5e6f", kBuild2 = "9a8b7c6d5e4f30211203f4e5d6c7b8a9";
}

TEST_CASE("viewer: /api/trend is the runs' totals per build, in the order builds appeared", "[viewer][query][fleet]") {
    Database db(fixture_db());
    auto t = ok(db, "/api/trend");
    REQUIRE(t["points"].size() == 2);
    for (int run = 1; run <= 2; ++run) {
        const auto &p = t["points"][static_cast<size_t>(run - 1)];
        CHECK(p["key"].str() == (run == 1 ? kBuild1 : kBuild2));
        CHECK(p["runs"].i() == 1);
        auto top = ok(db, "/api/runs/" + std::to_string(run) + "/top");
        CHECK(p["totals"]["requested_bytes"].i() == top["totals"]["requested_bytes"].i());
        CHECK(p["totals"]["count"].i() == top["totals"]["count"].i());
    }
    auto strings = ok(db, "/api/trend?class=System.String&device=Pixel%207");
    REQUIRE(strings["points"].size() == 1);
    CHECK(strings["points"][0]["totals"]["requested_bytes"].i() > 0);
    CHECK(strings["points"][0]["totals"]["requested_bytes"].i() < t["points"][0]["totals"]["requested_bytes"].i());
    CHECK(error_param(db, "/api/trend?builds=nope", 400) == "builds");
    CHECK(error_param(db, "/api/trend?class=A&site=B", 400) == "site");
    CHECK(error_param(db, "/api/trend?per=week", 400) == "per");
}

TEST_CASE("viewer: /api/fleet/top sums the runs' classes, /api/fleet/growth compares two builds per frame", "[viewer][query][fleet]") {
    Database db(fixture_db());
    auto top = ok(db, "/api/fleet/top?group=class&limit=1000");
    CHECK(top["runs"].i() == 2);
    int64_t strings = 0;
    for (int run = 1; run <= 2; ++run) {
        auto r = ok(db, "/api/runs/" + std::to_string(run) + "/top?group=class&limit=1000");
        for (size_t i = 0; i < r["entries"].size(); ++i)
            if (r["entries"][i]["full_name"].str() == "System.String") strings += r["entries"][i]["requested_bytes"].i();
    }
    bool found = false;
    for (size_t i = 0; i < top["entries"].size(); ++i)
        if (top["entries"][i]["key"].str() == "System.String") {
            found = true;
            CHECK(top["entries"][i]["totals"]["requested_bytes"].i() == strings);
        }
    CHECK(found);
    auto one = ok(db, "/api/fleet/top?group=site&builds=" + kBuild2);
    CHECK(one["runs"].i() == 1);
    auto g = ok(db, "/api/fleet/growth?group=class&a=" + kBuild1 + "&b=" + kBuild2);
    CHECK(g["a"]["runs"].i() == 1);
    CHECK(g["b"]["runs"].i() == 1);
    REQUIRE(g["entries"].size() > 0);
    CHECK(error_param(db, "/api/fleet/growth?a=" + kBuild1, 400) == "b");
    CHECK(error_param(db, "/api/fleet/top?group=stack", 400) == "group");
    CHECK(ask(db, "/api/fleet/nope").status == 404);
}

TEST_CASE("viewer: /api/fleet/diff-flame between two runs, as a tree, collapsed and speedscope", "[viewer][query][fleet]") {
    Database db(fixture_db());
    auto d = ok(db, "/api/fleet/diff-flame?a=" + kBuild1 + "&b=" + kBuild2);
    const auto &root = d["root"];
    auto t1 = ok(db, "/api/runs/1/top"), t2 = ok(db, "/api/runs/2/top");
    CHECK(root["value"].i() == t2["totals"]["requested_bytes"].i());
    CHECK(root["before"].i() == t1["totals"]["requested_bytes"].i());
    CHECK(root["delta"].i() == root["value"].i() - root["before"].i());
    REQUIRE(root["children"].size() > 0);
    auto collapsed = ask(db, "/api/fleet/diff-flame?a=" + kBuild1 + "&b=" + kBuild2 + "&format=collapsed");
    CHECK(collapsed.status == 200);
    CHECK(collapsed.body.find("main;") != std::string::npos);
    auto ss = ok(db, "/api/fleet/diff-flame?a=" + kBuild1 + "&b=" + kBuild2 + "&format=speedscope");
    CHECK(ss["profiles"].size() == 2);
    CHECK(ss["profiles"][0]["endValue"].i() == root["value"].i());
    CHECK(error_param(db, "/api/fleet/diff-flame?a=" + kBuild1 + "&b=" + kBuild2 + "&format=svg", 400) == "format");
}
