// Who may ask what: cross-site requests that change state, a server reachable from other machines
// and its token, and per-client connection limits. Real server on loopback, in this process.
#include <thread>

#include "guard.h"
#include "http_client.h"
#include "server_fixture.h"

using namespace mt::test;
using mt::viewer::RequestFacts;

namespace {
Options upload_options(const fs::path &dir) {
    auto o = base_options(dir);
    o.data = (dir / "data").string();
    o.symbolizer = (dir / "no-such-symbolizer").string();
    return o;
}

int error_status(const HttpResult &r) {
    INFO(r.body);
    auto j = parse_json(r.body);  // every refusal is JSON in the one error shape
    REQUIRE(j["error"]["status"].i() == r.status);
    REQUIRE(!j["error"]["message"].str().empty());
    return r.status;
}
}  // namespace

TEST_CASE("viewer: guard: the rules on headers alone", "[viewer][http][security]") {
    using mt::viewer::guard;
    mt::viewer::GuardPolicy local;
    RequestFacts r{"POST", "127.0.0.1:8080", "", "", "", "", false};
    REQUIRE(!guard(r, local));  // curl: no Origin, no Sec-Fetch-Site
    r.origin = "http://127.0.0.1:8080", r.has_origin = true, r.fetch_site = "same-origin";
    REQUIRE(!guard(r, local));  // the page itself
    r.fetch_site = "none";
    REQUIRE(!guard(r, local));
    for (std::string_view o : {"http://evil.example", "null", "http://127.0.0.1:9999", "http://127.0.0.1:8080.evil",
                               "file://", "http://localhost:8080"}) {
        INFO(o);
        r.origin = o;
        auto refused = guard(r, local);
        REQUIRE(refused);
        REQUIRE(refused->status == 403);
    }
    r.has_origin = false;
    for (std::string_view site : {"cross-site", "same-site"}) {
        r.fetch_site = site;
        REQUIRE(guard(r, local)->status == 403);
    }
    r.method = "GET";  // reads are not state changes
    REQUIRE(!guard(r, local));
    r.host = "127.evil.example";  // the old prefix check let this through
    REQUIRE(guard(r, local)->status == 403);

    mt::viewer::GuardPolicy remote{false, "0123456789abcdef0123", "buildbox"};
    RequestFacts u{"POST", "192.168.1.5:8080", "", "", "", "", false};
    REQUIRE(guard(u, remote)->status == 401);
    u.authorization = "Bearer 0123456789abcdef0123";
    REQUIRE(!guard(u, remote));
    u.authorization = "bearer   0123456789abcdef0123 ";
    REQUIRE(!guard(u, remote));
    u.authorization = "Bearer 0123456789abcdef0124";
    REQUIRE(guard(u, remote)->status == 401);
    u.authorization = "";
    u.token_header = "0123456789abcdef0123";
    REQUIRE(!guard(u, remote));
    u.token_header = "0123456789abcdef012";
    REQUIRE(guard(u, remote)->status == 401);
    RequestFacts read{"GET", "buildbox:8080", "", "", "", "", false};
    REQUIRE(!guard(read, remote));
    read.host = "rebound.evil.example";  // a name that is not ours: a DNS rebinding page
    REQUIRE(guard(read, remote)->status == 403);
    read.token_header = "0123456789abcdef0123";
    REQUIRE(!guard(read, remote));
}

TEST_CASE("viewer: HTTP: uploads from another site are refused 403, and nothing is stored", "[viewer][http][security]") {
    auto dir = temp_dir("crosssite");
    Server s(upload_options(dir));
    std::string self = "http://127.0.0.1:" + std::to_string(s.port);
    for (Headers h : {Headers{{"Origin", "http://evil.example"}, {"Sec-Fetch-Site", "cross-site"}},
                      Headers{{"Origin", "http://evil.example"}},
                      Headers{{"Sec-Fetch-Site", "cross-site"}},
                      Headers{{"Origin", "null"}},
                      Headers{{"Origin", "http://127.0.0.1:1"}, {"Sec-Fetch-Site", "same-site"}},
                      Headers{{"Origin", self}, {"Sec-Fetch-Site", "cross-site"}}}) {
        auto r = fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt(), h);
        REQUIRE(error_status(r) == 403);
        REQUIRE(r.body.find("cross-site") != std::string::npos);
        // Other state-changing methods too, wherever they point.
        REQUIRE(fetch(s.port, http::verb::delete_, "/api/runs/1", "", h).status == 403);
    }
    REQUIRE(fs::is_empty(dir / "data" / "incoming"));
    REQUIRE(fs::is_empty(dir / "data" / "runs"));
    REQUIRE(parse_json(get(s.port, "/api/jobs").body)["total"].i() == 0);
    // Cross-site reads stay answered (a page cannot read them: no CORS headers).
    REQUIRE(fetch(s.port, http::verb::get, "/api/runs", "", {{"Sec-Fetch-Site", "cross-site"}}).status == 200);
    // The page itself, and a client that sends neither header, may upload.
    auto page = fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt(), {{"Origin", self}, {"Sec-Fetch-Site", "same-origin"}});
    REQUIRE(page.status == 202);
    REQUIRE(fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt()).status == 202);
}

TEST_CASE("viewer: HTTP: a non-loopback address needs --allow-remote, and uploads there need the token", "[viewer][http][security]") {
    auto dir = temp_dir("remote");
    auto o = upload_options(dir);
    o.host = "0.0.0.0";
    o.port = 0;
    {
        App app(o);
        REQUIRE_THROWS_WITH(HttpServer(app, app.options()), Catch::Contains("--allow-remote"));
    }
    o.allow_remote = true;
    Server s(o);
    std::string token = s.http->token();
    REQUIRE(token.size() == 32);  // generated: none was given
    REQUIRE(get(s.port, "/api/runs").status == 200);  // reads stay open (Host is an IP literal)
    auto none = fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt());
    REQUIRE(error_status(none) == 401);
    REQUIRE(none.body.find("X-MemTracer-Token") != std::string::npos);
    REQUIRE(error_status(fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt(), {{"X-MemTracer-Token", token + "x"}})) == 401);
    REQUIRE(fs::is_empty(dir / "data" / "incoming"));
    REQUIRE(fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt(), {{"Authorization", "Bearer " + token}}).status == 202);
    REQUIRE(fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt(), {{"X-MemTracer-Token", token}}).status == 202);
    // The token does not excuse a cross-site request.
    REQUIRE(fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt(),
                  {{"X-MemTracer-Token", token}, {"Sec-Fetch-Site", "cross-site"}}).status == 403);
    // A given token is used as given, on loopback too.
    auto d2 = temp_dir("remote-given");
    auto o2 = upload_options(d2);
    o2.token = "given-token-0123456789";
    Server l(o2);
    REQUIRE(l.http->token() == o2.token);
    REQUIRE(fetch(l.port, http::verb::post, "/api/runs", tiny_run_mt()).status == 401);
    REQUIRE(fetch(l.port, http::verb::post, "/api/runs", tiny_run_mt(), {{"X-MemTracer-Token", o2.token}}).status == 202);
}

TEST_CASE("viewer: HTTP: idle connections from one client cannot lock out others", "[viewer][http][security]") {
    auto dir = temp_dir("conns");
    auto o = base_options(dir);
    o.limits.header_timeout = std::chrono::seconds(600);  // the timeout is not what frees the slots here
    o.limits.max_connections = 8;
    o.limits.max_connections_per_client = 4;
    Server s(o);
    boost::asio::io_context ioc;
    // One client opens one connection more than its limit, and sends nothing.
    std::vector<tcp::socket> idle;
    for (int i = 0; i < 5; ++i) idle.push_back(connect_from(ioc, s.port, "127.0.0.1"));
    // Its oldest idle connection was closed to make room for the fifth.
    REQUIRE(closed_by_server(idle[0]));
    // It still gets answers: each new connection takes the place of its oldest idle one.
    REQUIRE(fetch_from("127.0.0.1", s.port, http::verb::get, "/api/runs").status == 200);
    REQUIRE(closed_by_server(idle[1]));
    // Other clients fill the total (8): the oldest idle connections go, whoever holds them.
    std::vector<tcp::socket> others;
    for (int i = 0; i < 4; ++i) others.push_back(connect_from(ioc, s.port, "127.0.0." + std::to_string(2 + i)));
    for (int i = 0; i < 6; ++i) {
        INFO(i);
        REQUIRE(fetch_from("127.0.0." + std::to_string(10 + i), s.port, http::verb::get, "/api/runs").status == 200);
    }
    // The last connections opened are the ones still open: a request on them is answered.
    auto &last = others.back();
    std::string req = "GET /api/runs/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    boost::asio::write(last, boost::asio::buffer(req));
    boost::beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(last, buf, res);
    REQUIRE(res.result_int() == 200);
}

TEST_CASE("viewer: HTTP: a chunked body with a bad chunk size is answered 400, upload or not (issue 21)",
          "[viewer][http][upload]") {
    auto dir = temp_dir("badchunk");
    Server s(upload_options(dir));
    for (std::string target : {"/api/runs", "/api/live/pause"}) {
        INFO(target);
        std::string req = "POST " + target +
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                          "zz\r\nabc\r\n0\r\n\r\n";
        auto answer = raw_exchange(s.port, req);
        INFO(answer);
        REQUIRE(raw_status(answer) == 400);  // before: the connection closed without a status line
        CHECK(answer.find("malformed") != std::string::npos);
    }
    // Nothing of the refused upload is left in the data folder.
    size_t files = 0;
    if (fs::exists(dir / "data"))
        for (auto &e : fs::recursive_directory_iterator(dir / "data"))
            if (e.is_regular_file() && e.path().extension() == ".mt") ++files;
    CHECK(files == 0);
}
