// Markers on the fixture database: run 1 has "level loaded" at frame 0 and "boss spawned" at
// frames 120 and 239 (fixture_shape.cpp); run 2 has none. Range ends may name them.
#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

TEST_CASE("viewer: markers: the run's mt_mark labels in frame order", "[viewer][query][markers]") {
    Database db(fixture_db());
    auto m = ok(db, "/api/runs/1/markers");
    REQUIRE(m["run"].i() == 1);
    REQUIRE(m["markers"].size() == 3);
    const int64_t seqs[] = {0, 120, 239};
    const char *labels[] = {"level loaded", "boss spawned", "boss spawned"};
    for (size_t i = 0; i < 3; ++i) {
        const auto &row = m["markers"][i];
        CHECK(row["seq"].i() == seqs[i]);
        CHECK(row["frame_index"].i() == 1000 + seqs[i]);
        CHECK(row["label"].str() == labels[i]);
        CHECK(row["ns"].i() == sql_int(fixture_db(), "SELECT start_ns FROM frames WHERE run_id=1 AND seq=" +
                                                         std::to_string(seqs[i])) + 100 * static_cast<int64_t>(i + 1));
    }
    CHECK(ok(db, "/api/runs/2/markers")["markers"].size() == 0);
    CHECK(error_param(db, "/api/runs/9/markers", 404) == "run");
}

TEST_CASE("viewer: markers as frame range ends - the first occurrence - an unknown one is named", "[viewer][query][markers]") {
    Database db(fixture_db());
    auto by_marker = ask(db, "/api/runs/1/top?from=marker:level%20loaded&to=marker:boss%20spawned");
    auto by_seq = ask(db, "/api/runs/1/top?from=0&to=120");
    REQUIRE(by_marker.status == 200);
    CHECK(by_marker.body == by_seq.body);
    auto series = ok(db, "/api/runs/1/frames?from=marker:boss%20spawned");
    REQUIRE(series["seq"].size() == 240 - 120);
    CHECK(series["seq"][0].i() == 120);
    CHECK(error_param(db, "/api/runs/1/top?from=marker:nope", 400) == "from");
    auto unknown = ask(db, "/api/runs/1/top?to=marker:nope");
    CHECK(unknown.json["error"]["message"].str() == "run 1 has no marker 'nope'");
    CHECK(error_param(db, "/api/runs/1/top?from=marker:boss%20spawned&to=marker:level%20loaded", 400) == "to");
    CHECK(error_param(db, "/api/runs/2/top?from=marker:level%20loaded", 400) == "from");
}
