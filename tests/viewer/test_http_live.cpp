// The live endpoints (memtracer-viewer --live, docs/live.md) over real HTTP on loopback, without a
// game: a viewer that has no --live, and one whose game is not there yet (its capture keeps
// trying to connect). The whole path with a game is tests/viewer/browser/live.test.mjs.
#include <sys/socket.h>

#include "http_client.h"
#include "live_follow.h"
#include "server_fixture.h"

using namespace mt::test;
using mt::viewer::parse_follow_line;

namespace {
// A loopback port nobody listens on: bound, then closed.
uint16_t closed_port() {
    boost::asio::io_context ioc;
    tcp::acceptor a(ioc, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
    return a.local_endpoint().port();
}
}  // namespace

TEST_CASE("viewer: follow lines are read field by field, anything else is ignored", "[viewer][live]") {
    auto f = parse_follow_line("follow run=3 frames=120 last_seq=119 events=4567 state=live");
    REQUIRE(f);
    REQUIRE(f->run_id == 3);
    REQUIRE(f->frames == 120);
    REQUIRE(f->last_seq == 119);
    REQUIRE(f->events == 4567);
    REQUIRE(f->state == "live");
    auto g = parse_follow_line("follow run=1 frames=0 last_seq=-1 events=0 state=cut_off\r");
    REQUIRE(g);
    REQUIRE(g->last_seq == -1);
    REQUIRE(g->state == "cut_off");
    for (const char *bad : {"", "follow", "run=1 frames=2 last_seq=1 events=0 state=live",
                            "follow run=x frames=2 last_seq=1 events=0 state=live",
                            "follow run=1 frames=2 last_seq=1 events=0", "follow run=1 frames=2 last_seq=1 events=0 state=",
                            "follow run=1 frames=-2 last_seq=1 events=0 state=live", "memtracer-symbolize: warning: x"})
        REQUIRE_FALSE(parse_follow_line(bad));
}

TEST_CASE("viewer: /api/live without --live says so and refuses controls", "[viewer][http][live]") {
    auto dir = temp_dir("nolive");
    Server s(base_options(dir));
    auto st = get(s.port, "/api/live");
    REQUIRE(st.status == 200);
    REQUIRE_FALSE(parse_json(st.body)["live"].b);
    REQUIRE(fetch(s.port, http::verb::post, "/api/live/pause").status == 409);
    REQUIRE(get(s.port, "/api/live/events").status == 409);
}

TEST_CASE("viewer: /api/live while the game is not there: status, events, guarded controls", "[viewer][http][live]") {
    auto dir = temp_dir("live-wait");
    auto o = base_options(dir);
    o.live = "127.0.0.1:" + std::to_string(closed_port());
    o.live_token = "s3cret";
    o.live_out = (dir / "live.mt").string();
    Server s(o);
    s.app->start_live();
    auto st = parse_json(get(s.port, "/api/live").body);
    REQUIRE(st["live"].b);
    REQUIRE(st["state"].str() == "connecting");
    REQUIRE(st["frames"].i() == 0);
    REQUIRE(st["last_frame"].is_null());
    REQUIRE(st["run_id"].is_null());
    REQUIRE(st["ingest"].str() == "waiting");
    REQUIRE(st["run_path"].str() == o.live_out);
    // Server-sent events: one event per answer, with the reconnect delay first.
    auto ev = get(s.port, "/api/live/events");
    REQUIRE(ev.status == 200);
    REQUIRE(ev.content_type == "text/event-stream");
    REQUIRE(ev.body.rfind("retry: 500\n", 0) == 0);
    auto data = ev.body.find("\ndata: ");
    REQUIRE(data != std::string::npos);
    REQUIRE(ev.body.find("event: live\n") != std::string::npos);
    REQUIRE(ev.body.substr(ev.body.size() - 2) == "\n\n");
    REQUIRE(parse_json(ev.body.substr(data + 7, ev.body.size() - data - 9))["state"].str() == "connecting");
    // Controls change the game's state: another site's page is refused before anything is sent.
    std::string self = "http://127.0.0.1:" + std::to_string(s.port);
    for (Headers h : {Headers{{"Origin", "http://evil.example"}}, Headers{{"Sec-Fetch-Site", "cross-site"}},
                      Headers{{"Origin", self}, {"Sec-Fetch-Site", "same-site"}}})
        for (const char *c : {"/api/live/pause", "/api/live/resume", "/api/live/stop", "/api/live/mark?label=x"}) {
            auto r = fetch(s.port, http::verb::post, c, "", h);
            INFO(c << " " << r.body);
            REQUIRE(r.status == 403);
            REQUIRE(r.body.find("cross-site") != std::string::npos);
        }
    // The page itself gets "not connected" while there is no game; a bad label is named.
    auto same = Headers{{"Origin", self}, {"Sec-Fetch-Site", "same-origin"}};
    auto r = fetch(s.port, http::verb::post, "/api/live/pause", "", same);
    REQUIRE(r.status == 409);
    REQUIRE(r.body.find("not connected") != std::string::npos);
    auto bad = fetch(s.port, http::verb::post, "/api/live/mark", "", same);
    REQUIRE(bad.status == 400);
    REQUIRE(parse_json(bad.body)["error"]["param"].str() == "label");
    REQUIRE(fetch(s.port, http::verb::post, "/api/live/mark?label=" + std::string(256, 'x'), "", same).status == 400);
    REQUIRE(get(s.port, "/api/live/pause").status == 405);
    REQUIRE(get(s.port, "/api/live/nope").status == 404);
    REQUIRE(fetch(s.port, http::verb::post, "/api/live", "", same).status == 405);
    REQUIRE_FALSE(fs::exists(o.live_out));  // nothing is written before a game welcomed the viewer
}
