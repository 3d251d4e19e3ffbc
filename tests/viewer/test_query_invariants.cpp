// Invariants every database must satisfy through the query layer: the endpoints agree with each
// other and with SQL on the file. Run on the fixture, and on a real database from the sample
// game + symbolizer when the CTest fixture made one ([.realdb], run by add_test with its path).
#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
std::string S(int64_t v) { return std::to_string(v); }

int64_t sum(const JValue &arr) {
    int64_t s = 0;
    for (auto &v : arr.a) s += v.i();
    return s;
}

void check_run(Database &db, const std::string &path, const JValue &run) {
    const auto id = S(run["run_id"].i());
    INFO("run " << id);
    auto summary = ok(db, "/api/runs/" + id);
    int64_t frames = summary["frame_stats"]["rows"].i();
    auto top = ok(db, "/api/runs/" + id + "/top?limit=1000");
    const auto &tot = top["totals"];
    REQUIRE(tot["count"].i() == sql_int(path, "SELECT coalesce(sum(count),0) FROM allocs WHERE run_id=" + id));
    REQUIRE(tot["requested_bytes"].i() ==
            sql_int(path, "SELECT coalesce(sum(requested_bytes),0) FROM allocs WHERE run_id=" + id));
    if (frames == 0) return;

    // Series: dense, one entry per frame, sums equal the frames table.
    auto series = ok(db, "/api/runs/" + id + "/frames");
    REQUIRE(static_cast<int64_t>(series["seq"].size()) == frames);
    REQUIRE(series["seq"][0].i() == 0);
    REQUIRE(series["seq"][static_cast<size_t>(frames - 1)].i() == frames - 1);
    REQUIRE(sum(series["requested_bytes"]) ==
            sql_int(path, "SELECT sum(requested_bytes) FROM frames WHERE run_id=" + id));
    REQUIRE(static_cast<int64_t>(series["gc"].size()) ==
            sql_int(path, "SELECT count(*) FROM gc_events WHERE run_id=" + id));

    // Whole-run TopN (run_class_stack) equals a range TopN (allocs) over the same frames split in two.
    if (frames >= 2) {
        auto h1 = ok(db, "/api/runs/" + id + "/top?from=0&to=" + S(frames / 2 - 1));
        auto h2 = ok(db, "/api/runs/" + id + "/top?from=" + S(frames / 2) + "&to=" + S(frames - 1));
        REQUIRE(h2["range"]["whole"].b == false);
        REQUIRE(h1["totals"]["count"].i() + h2["totals"]["count"].i() == tot["count"].i());
        REQUIRE(h1["totals"]["gc_bytes"].i() + h2["totals"]["gc_bytes"].i() == tot["gc_bytes"].i());
    }
    // Every grouping partitions the same total.
    for (std::string g : {"class", "site", "stack"}) {
        for (std::string by : {"bytes", "count"}) {
            auto t = ok(db, "/api/runs/" + id + "/top?limit=1000&group=" + g + "&by=" + by);
            int64_t c = 0, b = 0, prev = INT64_MAX;
            for (auto &e : t["entries"].a) {
                c += e["count"].i();
                b += e["requested_bytes"].i();
                int64_t key = by == "count" ? e["count"].i() : e["requested_bytes"].i();
                REQUIRE(key <= prev);  // sorted
                prev = key;
            }
            if (t["next_offset"].is_null()) {
                REQUIRE(c == tot["count"].i());
                REQUIRE(b == tot["requested_bytes"].i());
            }
        }
    }
    // Flame root and collapsed lines carry the whole total.
    auto fl = ok(db, "/api/runs/" + id + "/flame");
    REQUIRE(fl["root"]["value"].i() == tot["requested_bytes"].i());
    auto col = mt::viewer::handle(db, mt::viewer::parse_target("/api/runs/" + id + "/collapsed?by=count"));
    REQUIRE(col.status == 200);
    int64_t csum = 0;
    for (size_t p = 0; p < col.body.size();) {
        auto nl = col.body.find('\n', p);
        auto line = col.body.substr(p, nl - p);
        csum += std::stoll(line.substr(line.rfind(' ') + 1));
        p = nl + 1;
    }
    REQUIRE(csum == tot["count"].i());

    // A few frames: class entries sum to the frame's allocs rows; stacks sum to their class.
    for (int64_t seq : {int64_t{0}, frames / 2, frames - 1}) {
        auto f = ok(db, "/api/runs/" + id + "/frames/" + S(seq) + "?limit=2000");
        int64_t fc = 0;
        for (auto &c : f["classes"].a) {
            int64_t sc = 0;
            for (auto &s : c["stacks"].a) {
                sc += s["count"].i();
                REQUIRE(s["frames"].kind == JValue::Array);
            }
            REQUIRE(sc == c["count"].i());
            fc += c["count"].i();
        }
        REQUIRE(fc == sql_int(path, "SELECT coalesce(sum(count),0) FROM allocs WHERE run_id=" + id + " AND seq=" + S(seq)));
    }
    // A run compared with itself: nothing new, nothing gone, zero deltas.
    auto cmp = ok(db, "/api/compare?a=" + id + "&b=" + id + "&limit=1000");
    REQUIRE(cmp["counts"]["new"].i() == 0);
    REQUIRE(cmp["counts"]["vanished"].i() == 0);
    REQUIRE(cmp["counts"]["changed"].i() == 0);
    REQUIRE(cmp["delta"]["count"].i() == 0);
    // The trace has one frame slice per frame.
    auto tr = ok(db, "/api/runs/" + id + "/trace");
    int64_t slices = 0;
    for (auto &e : tr["traceEvents"].a) slices += e["ph"].str() == "X" && e["cat"].str() == "frame";
    REQUIRE(slices == frames);
}

void check_database(const std::string &path) {
    Database db(path);
    auto runs = ok(db, "/api/runs?limit=1000");
    REQUIRE(runs["runs"].size() >= 1);
    REQUIRE(runs["total"].i() == sql_int(path, "SELECT count(*) FROM runs"));
    for (auto &r : runs["runs"].a) check_run(db, path, r);
}
}  // namespace

TEST_CASE("viewer: endpoints agree with each other and with SQL on the fixture", "[viewer][query]") {
    check_database(fixture_db());
}

TEST_CASE("viewer: endpoints agree with each other and with SQL on a real database", "[.realdb]") {
    auto path = real_db();
    REQUIRE(!path.empty());  // set by the CTest fixture that runs the sample game + symbolizer
    check_database(path);
}
