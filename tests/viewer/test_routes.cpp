// The route table (query/src/router.cpp): every path of the server in one list, where a body
// goes, the parts of the server a route reaches through Services, and /api/live rendered by the
// query layer byte for byte as the server rendered it before (docs/api.md).
#include <optional>

#include "memtracer/viewer/routes.h"
#include "viewer_test_util.h"

using namespace mt::test;
using namespace mt::viewer;

namespace {

// The fixture database plus a live capture and jobs the test sets: what the server's App does,
// with its state in plain members.
class TestServices : public Services {
public:
    explicit TestServices(Database &db) : db_(db) {}
    Database &database() override { return db_; }
    bool uploads_enabled() const override { return true; }
    std::vector<JobView> jobs(int64_t offset, int64_t limit, int64_t &total) override {
        total = static_cast<int64_t>(all.size());
        std::vector<JobView> out;
        for (int64_t i = offset; i < total && i < offset + limit; ++i) out.push_back(all[static_cast<size_t>(i)]);
        return out;
    }
    std::optional<JobView> job(int64_t id) override {
        for (auto &j : all)
            if (j.id == id) return j;
        return std::nullopt;
    }
    bool live_enabled() const override { return view.has_value(); }
    std::optional<LiveView> live() override { return view; }
    bool live_send(LiveControl c, const std::string &label) override {
        sent.emplace_back(c, label);
        return connected;
    }
    Response page_file(const std::string &raw_path) override { return Response{200, "page " + raw_path, "text/plain", ""}; }

    std::vector<JobView> all;
    std::optional<LiveView> view;
    bool connected = true;
    std::vector<std::pair<LiveControl, std::string>> sent;

private:
    Database &db_;
};

}  // namespace

TEST_CASE("viewer: routes: the body of an upload goes to a file, every other body is small", "[viewer][routes]") {
    CHECK(body_of("POST", "/api/runs") == Body::Upload);
    CHECK(body_of("POST", "/api/runs/") == Body::Upload);
    CHECK(body_of("POST", "/api/runs?x=1") == Body::Upload);
    CHECK(body_of("GET", "/api/runs") == Body::Small);
    CHECK(body_of("PUT", "/api/runs") == Body::Small);
    CHECK(body_of("POST", "/api/live/mark") == Body::Small);
    CHECK(body_of("POST", "/api/runs%zz") == Body::Small);  // malformed: answered 400 by dispatch
    CHECK(body_of("POST", "/index.html") == Body::Small);
}

TEST_CASE("viewer: routes: unknown paths 404, known paths with another method 405, the page gets the rest",
          "[viewer][routes]") {
    Database db(fixture_db());
    TestServices s(db);
    CHECK(dispatch(s, "GET", "/api/nope").status == 404);
    CHECK(dispatch(s, "GET", "/api/runs/1/nope").status == 404);
    CHECK(dispatch(s, "GET", "/api").status == 404);
    CHECK(dispatch(s, "DELETE", "/api/runs/1").status == 405);
    CHECK(dispatch(s, "GET", "/api/live/pause").status == 405);
    CHECK(dispatch(s, "POST", "/api/live").status == 405);
    CHECK(dispatch(s, "PUT", "/index.html").status == 405);
    auto page = dispatch(s, "GET", "/app%2Ejs?v=1");
    CHECK(page.status == 200);
    CHECK(page.body == "page /app%2Ejs");  // the page's folder gets the path as sent
    CHECK(dispatch(s, "HEAD", "/").body == "page /");
    CHECK(dispatch(s, "GET", "/api/runs/x").status == 400);
    CHECK(dispatch(s, "GET", "/api/runs/%zz").status == 400);
    // An upload route reached without a stored body (memtracer-viewer --get, a client that sent
    // none through a proxy) is the client's error.
    CHECK(dispatch(s, "POST", "/api/runs").status == 400);
}

TEST_CASE("viewer: routes: the query layer on its own answers the database and 'off' for the rest",
          "[viewer][routes]") {
    Database db(fixture_db());
    auto live = handle_target(db, "/api/live");
    CHECK(live.status == 200);
    CHECK(live.body == R"({"live":false})");
    CHECK(handle_target(db, "/api/live/events").status == 409);
    CHECK(handle_target(db, "/api/live/pause", "POST").status == 409);
    CHECK(handle_target(db, "/api/jobs").status == 404);
    CHECK(handle_target(db, "/index.html").status == 404);
    CHECK(handle_target(db, "/api/runs", "POST").status == 400);
    CHECK(handle_target(db, "/api/runs/1").status == 200);
}

TEST_CASE("viewer: routes: jobs are paged newest first and found by id through Services", "[viewer][routes]") {
    Database db(fixture_db());
    TestServices s(db);
    for (int64_t id : {3, 2, 1}) {
        JobView j;
        j.id = id;
        j.state = id == 3 ? "queued" : "done";
        j.run_id = id == 3 ? -1 : id;
        s.all.push_back(j);
    }
    auto page = parse_json(dispatch(s, "GET", "/api/jobs?limit=2&offset=1").body);
    REQUIRE(page["jobs"].size() == 2);
    CHECK(page["jobs"][0]["id"].i() == 2);
    CHECK(page["total"].i() == 3);
    auto one = dispatch(s, "GET", "/api/jobs/3");
    CHECK(one.status == 200);
    CHECK(one.body == job_json(s.all[0]));
    CHECK(parse_json(one.body)["run_id"].is_null());
    CHECK(dispatch(s, "GET", "/api/jobs/9").status == 404);
    CHECK(dispatch(s, "GET", "/api/jobs/x").status == 400);
    CHECK(dispatch(s, "GET", "/api/jobs/3?x=1").status == 400);
}

TEST_CASE("viewer: routes: /api/live renders the capture's view byte for byte, controls reach the game",
          "[viewer][routes][live]") {
    Database db(fixture_db());
    TestServices s(db);
    LiveView v;
    v.state = LiveState::CutOff;
    v.message = "the game went away before the end of its capture";
    v.address = "127.0.0.1:34999";
    v.run_path = "/tmp/run-live.mt";
    v.version = 12;
    v.frames = 120;
    v.events = 4567;
    v.frames_per_s = 59.96;
    v.events_per_s = 2280.4;
    v.game_lag_frames = 2;
    v.drops = 1;
    v.paused = false;
    v.marks = 3;
    v.stored_bytes = 65536;
    v.ingest = IngestState::Live;
    v.run_frames = 118;
    v.last_ack = "mark applied";
    v.run_id = 3;
    v.latency_frames = 118;
    v.latency_p50_ms = 12.34;
    v.latency_p95_ms = 20.0;
    v.latency_max_ms = 1500.26;
    s.view = v;
    const std::string expected =
        R"({"live":true,"state":"cut_off","message":"the game went away before the end of its capture",)"
        R"("address":"127.0.0.1:34999","run_path":"/tmp/run-live.mt","version":12,"frames":120,"last_frame":119,)"
        R"("events":4567,"frames_per_s":60.0,"events_per_s":2280,"lag_frames":2,"game_lag_frames":2,"drops":1,)"
        R"("paused":false,"marks":3,"stored_bytes":65536,"ingest":"live","ingest_error":"","run_frames":118,)"
        R"("last_ack":"mark applied","run_id":3,"queryable_latency_ms":{"frames":118,"p50":12.3,"p95":20.0,"max":1500.3}})";
    auto st = dispatch(s, "GET", "/api/live");
    CHECK(st.body == expected);
    auto ev = dispatch(s, "GET", "/api/live/events");
    CHECK(ev.content_type == "text/event-stream");
    CHECK(ev.body == "retry: 500\nid: 12\nevent: live\ndata: " + expected + "\n\n");

    LiveView none;  // before the first frame: nulls, no percentiles
    s.view = none;
    CHECK(parse_json(dispatch(s, "GET", "/api/live").body)["last_frame"].is_null());
    CHECK(dispatch(s, "GET", "/api/live").body.find(R"("run_id":null,"queryable_latency_ms":{"frames":0}})") !=
          std::string::npos);

    CHECK(dispatch(s, "POST", "/api/live/mark?label=boss").body == R"({"sent":true})");
    CHECK(dispatch(s, "POST", "/api/live/mark").status == 400);
    CHECK(dispatch(s, "POST", "/api/live/mark?label=" + std::string(256, 'x')).status == 400);
    CHECK(dispatch(s, "POST", "/api/live/pause?label=ignored").status == 200);
    REQUIRE(s.sent.size() == 2);
    CHECK(s.sent[0] == std::make_pair(LiveControl::Mark, std::string("boss")));
    CHECK(s.sent[1] == std::make_pair(LiveControl::Pause, std::string()));
    s.connected = false;
    CHECK(dispatch(s, "POST", "/api/live/stop").status == 409);
}
