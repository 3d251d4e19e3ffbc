// Thousands of random and hostile request targets at the query layer: every one must come back
// as a well-formed answer (200, or an error in the one shape with a 4xx status), never a crash,
// a 500 or invalid JSON. The libFuzzer target (viewer_request_fuzz) explores the same surface.
#include <random>

#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
const std::vector<std::string> kPaths = {
    "/api/runs", "/api/runs/1", "/api/runs/2/frames", "/api/runs/1/frames/3", "/api/runs/1/top",
    "/api/compare", "/api/runs/1/flame", "/api/runs/2/collapsed", "/api/runs/1/trace", "/api/runs/{}",
    "/api/runs/{}/frames/{}", "/api/runs/{}/top", "/api/{}", "/{}", "/api/runs/1/{}", "/api/runs//top",
    "/api/runs/1/search", "/api/runs/2/search?q={}", "/api/runs/2/leaks", "/api/runs/2/temporaries",
    "/api/runs/{}/leaks", "/api/runs/2/temporaries?within={}",
};
const std::vector<std::string> kNames = {"from", "to", "by", "group", "limit", "offset", "a", "b", "a_from",
                                         "a_to", "b_from", "b_to", "match", "normalize", "only", "min_share",
                                         "classes", "max_nodes", "class", "function", "thread", "within", "q", "x", "", "%00", "from%00", "FROM"};
const std::vector<std::string> kValues = {
    "", "0", "1", "2", "-1", "239", "240", "299", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "1e9", "0x10", "%00", "%zz", "%", "%%", "%2", "NaN", "nan", "inf", "-inf", "1.5",
    "0.0000001", "1e-400", "1e400", "'; DROP TABLE runs;--", "1 OR 1=1", "\xff\xfe", "%c0%af", "%ff",
    std::string(1000, '9'), "../../etc/passwd", "a=b", "%E2%82%AC", " 1", "1 ", "+1", "bytes", "count",
    "class", "site", "stack", "function", "location", "per_frame", "new", "true", "false", "\t", "%0a%0d"};

std::string pick(std::mt19937 &rng, const std::vector<std::string> &v) { return v[rng() % v.size()]; }

std::string random_bytes(std::mt19937 &rng, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>(rng() % 256);
    return s;
}

std::string templated(std::mt19937 &rng) {
    std::string p = pick(rng, kPaths);
    for (size_t at; (at = p.find("{}")) != std::string::npos;) p.replace(at, 2, pick(rng, kValues));
    int n = static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) {
        p += (i == 0 ? '?' : '&');
        p += pick(rng, kNames);
        if (rng() % 8) p += "=" + pick(rng, kValues);
    }
    if (rng() % 10 == 0) p.insert(rng() % (p.size() + 1), random_bytes(rng, 1 + rng() % 8));
    return p;
}

void check(Database &db, const std::string &target) {
    INFO("target: " << target);
    mt::viewer::Request req;
    try {
        req = mt::viewer::parse_target(target);
    } catch (const mt::viewer::ApiError &e) {
        REQUIRE(e.status == 400);
        REQUIRE(!e.message.empty());
        return;
    }
    auto r = mt::viewer::handle(db, req);
    INFO("body: " << r.body.substr(0, 300));
    REQUIRE((r.status == 200 || r.status == 400 || r.status == 404 || r.status == 405));
    if (r.content_type == "application/json") {
        JValue v;
        REQUIRE_NOTHROW(v = parse_json(r.body));
        if (r.status != 200) {
            REQUIRE(v["error"]["status"].i() == r.status);
            REQUIRE(!v["error"]["message"].str().empty());
        }
    }
}
}  // namespace

TEST_CASE("viewer: random and hostile query strings never crash the query layer", "[viewer][hostile]") {
    Database db(fixture_db());
    std::mt19937 rng(20240601);
    for (int i = 0; i < 4000; ++i) check(db, templated(rng));
    for (int i = 0; i < 2000; ++i) {
        std::string t = random_bytes(rng, rng() % 200);
        check(db, rng() % 2 ? "/" + t : t);
        check(db, "/api/runs/1/top?" + t);
    }
    // Nothing was changed: the connection is read-only and values are bound, never spliced.
    REQUIRE(sql_int(fixture_db(), "SELECT count(*) FROM runs") == 2);
    REQUIRE(ok(db, "/api/runs")["total"].i() == 2);
}

TEST_CASE("viewer: percent-decoding and target parsing", "[viewer][hostile]") {
    auto r = mt::viewer::parse_target("/api/runs/1/top?by=count&group=s%69te&x=a+b&&empty=");
    REQUIRE(r.path == "/api/runs/1/top");
    REQUIRE(r.params.size() == 4);
    REQUIRE(r.params[1].second == "site");
    REQUIRE(r.params[2].second == "a b");
    REQUIRE(r.params[3].second.empty());
    REQUIRE_THROWS_AS(mt::viewer::parse_target("api/runs"), mt::viewer::ApiError);
    REQUIRE_THROWS_AS(mt::viewer::parse_target("/api/runs%00"), mt::viewer::ApiError);
    REQUIRE_THROWS_AS(mt::viewer::parse_target("/api/runs?x=%4"), mt::viewer::ApiError);
    REQUIRE_THROWS_AS(mt::viewer::parse_target("/api/runs?=1"), mt::viewer::ApiError);
    std::string many = "/api/runs?";
    for (int i = 0; i < 100; ++i) many += "p" + std::to_string(i) + "=1&";
    REQUIRE_THROWS_AS(mt::viewer::parse_target(many), mt::viewer::ApiError);
}
