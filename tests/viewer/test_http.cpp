// The HTTP server on 127.0.0.1 with an ephemeral port, in this process: endpoints over real
// sockets, the page's folder and path traversal, request limits, uploads and jobs.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>

#include "http_client.h"
#include "server_fixture.h"

using namespace mt::test;


TEST_CASE("viewer: HTTP: endpoints over loopback, keep-alive, errors in the one shape", "[viewer][http]") {
    auto dir = temp_dir("api");
    Server s(base_options(dir));
    auto r = get(s.port, "/api/runs");
    REQUIRE(r.status == 200);
    REQUIRE(r.content_type == "application/json");
    REQUIRE(parse_json(r.body)["total"].i() == 2);
    auto e = get(s.port, "/api/runs/1/top?by=nope");
    REQUIRE(e.status == 400);
    REQUIRE(parse_json(e.body)["error"]["param"].str() == "by");
    REQUIRE(get(s.port, "/api/runs/77").status == 404);
    auto trace = get(s.port, "/api/runs/1/trace");
    REQUIRE(trace.disposition.find("run-1.trace.json") != std::string::npos);
    // Two requests on one connection.
    auto both = raw_exchange(s.port,
                             "GET /api/runs/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                             "GET /api/runs/2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    REQUIRE(both.find("\"run_id\":1") != std::string::npos);
    REQUIRE(both.find("\"run_id\":2") != std::string::npos);
    auto del = fetch(s.port, http::verb::delete_, "/api/runs/1");
    INFO(del.body);
    REQUIRE(del.status == 405);
    REQUIRE(fetch(s.port, http::verb::put, "/index.html").status == 405);
    // Parallel clients, each thread its own connection.
    std::vector<std::thread> ts;
    std::atomic<int> good{0};
    for (int t = 0; t < 4; ++t)
        ts.emplace_back([&] {
            for (int i = 0; i < 25; ++i) good += get(s.port, "/api/runs/2/frames/" + std::to_string(i)).status == 200;
        });
    for (auto &t : ts) t.join();
    REQUIRE(good == 100);
}

TEST_CASE("viewer: HTTP: the page folder only, path traversal refused in every spelling", "[viewer][http][security]") {
    auto dir = temp_dir("static");
    Server s(base_options(dir));
    auto index = get(s.port, "/");
    REQUIRE(index.status == 200);
    REQUIRE(index.content_type.rfind("text/html", 0) == 0);
    REQUIRE(get(s.port, "/assets/app.js").content_type.rfind("text/javascript", 0) == 0);
    REQUIRE(get(s.port, "/missing.js").status == 404);
    for (std::string t : {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/..%2fsecret.txt",
                          "/assets/..%2f..%2fsecret.txt", "/assets/%2e%2e/%2e%2e/secret.txt", "/..%5csecret.txt",
                          "/%5c..%5csecret.txt", "/.env", "/%2eenv", "/assets/../.env", "/link.txt",
                          "/%252e%252e/secret.txt", "//..//secret.txt", "/assets/%00.js", "/..", "/%2e%2e",
                          "/assets/....//....//secret.txt", "/../../../../etc/passwd"}) {
        INFO(t);
        auto answer = raw_exchange(s.port, "GET " + t + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        int st = raw_status(answer);
        REQUIRE((st == 400 || st == 404));
        REQUIRE(answer.find("SECRET") == std::string::npos);
        REQUIRE(answer.find("root:") == std::string::npos);
    }
}

TEST_CASE("viewer: HTTP: limits on header size, header count, body size, host and idle time", "[viewer][http][security]") {
    auto dir = temp_dir("limits");
    Server s(base_options(dir));
    std::string big = "GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n";
    REQUIRE(raw_status(raw_exchange(s.port, big)) == 431);
    std::string many = "GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < 100; ++i) many += "X-H" + std::to_string(i) + ": 1\r\n";
    REQUIRE(raw_status(raw_exchange(s.port, many + "\r\n")) == 431);
    auto body = fetch(s.port, http::verb::get, "/api/runs", std::string(100000, 'x'));
    REQUIRE(body.status == 413);
    auto evil = raw_exchange(s.port, "GET /api/runs HTTP/1.1\r\nHost: evil.example\r\n\r\n");
    REQUIRE(raw_status(evil) == 403);
    REQUIRE(raw_status(raw_exchange(s.port, "BLAH\r\n\r\n")) == 400);
    // A client that says nothing is dropped after the header timeout (1 s here): the read ends.
    REQUIRE(raw_exchange(s.port, "").empty());
    // A half-sent request is dropped too, without an answer the client could mistake.
    REQUIRE(raw_exchange(s.port, "GET /api/runs HTTP/1.1\r\nHost: 127").empty());
    REQUIRE(get(s.port, "/api/runs").status == 200);  // still serving
}

TEST_CASE("viewer: HTTP: uploads are checked, stored under server-chosen names, and reported as jobs", "[viewer][http][upload]") {
    auto dir = temp_dir("upload");
    {  // No --data: uploads are off.
        Server off(base_options(dir / "off"));
        auto r = fetch(off.port, http::verb::post, "/api/runs", tiny_run_mt());
        REQUIRE(r.status == 403);
    }
    auto o = base_options(dir);
    o.data = (dir / "data").string();
    o.symbolizer = (dir / "no-such-symbolizer").string();
    o.limits.max_upload = 64 * 1024;
    Server s(o);
    auto junk = fetch(s.port, http::verb::post, "/api/runs", "PK\x03\x04 this is a zip file, not a capture");
    REQUIRE(junk.status == 400);
    auto jj = parse_json(junk.body);
    REQUIRE(jj["error"]["param"].str() == "body");
    REQUIRE(jj["error"]["message"].str().find("not a run.mt") != std::string::npos);
    auto bad_version = tiny_run_mt();
    bad_version[8] = 9;
    auto bv = fetch(s.port, http::verb::post, "/api/runs", bad_version);
    REQUIRE(bv.status == 400);
    REQUIRE(bv.body.find("version") != std::string::npos);
    auto huge = fetch(s.port, http::verb::post, "/api/runs", std::string(200 * 1024, 'M'));
    REQUIRE(huge.status == 413);
    REQUIRE(huge.body.find("--max-upload") != std::string::npos);
    // Nothing refused stays on disk.
    REQUIRE(fs::is_empty(dir / "data" / "incoming"));
    REQUIRE(fs::is_empty(dir / "data" / "runs"));

    {  // Expect: 100-continue is answered before the body is sent (it was not: the header was read
       // from a moved-from message).
        boost::asio::io_context ioc;
        auto sock = connect_from(ioc, s.port);
        std::string head = "POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: " +
                           std::to_string(tiny_run_mt().size()) + "\r\nConnection: close\r\n\r\n";
        boost::asio::write(sock, boost::asio::buffer(head));
        boost::asio::streambuf got;
        boost::asio::read_until(sock, got, "\r\n\r\n");
        std::string interim(boost::asio::buffers_begin(got.data()), boost::asio::buffers_end(got.data()));
        REQUIRE(interim.rfind("HTTP/1.1 100 Continue\r\n", 0) == 0);
        boost::asio::write(sock, boost::asio::buffer(tiny_run_mt()));
        http::response<http::string_body> res;
        boost::beast::flat_buffer rest;
        http::read(sock, rest, res);
        REQUIRE(res.result_int() == 202);
        auto first = parse_json(res.body());
        REQUIRE(first["id"].i() == 1);
        JValue st;
        for (int i = 0; i < 2400; ++i) {  // let it fail (no symbolizer) before the next job is counted; a bound
            st = parse_json(get(s.port, "/api/jobs/1").body);
            if (st["state"].str() == "failed") break;
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
    }
    auto ok202 = fetch(s.port, http::verb::post, "/api/runs", tiny_run_mt(), {{"Expect", "100-continue"}});
    REQUIRE(ok202.status == 202);
    auto job = parse_json(ok202.body);
    REQUIRE(job["id"].i() == 2);
    // The server chose the name: runs/<job>-<random>.mt, whatever the client called it.
    REQUIRE(job["file"].str().rfind("runs/2-", 0) == 0);
    REQUIRE(job["size"].i() == static_cast<int64_t>(tiny_run_mt().size()));
    // The symbolizer here does not exist: the job fails and says why.
    JValue st;
    for (int i = 0; i < 2400; ++i) {  // a bound for a loaded machine, not an assertion on time
        st = parse_json(get(s.port, "/api/jobs/2").body);
        if (st["state"].str() == "failed" || st["state"].str() == "done") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    REQUIRE(st["state"].str() == "failed");
    REQUIRE(st["error"].str().find("no-such-symbolizer") != std::string::npos);
    // A failed job's upload is deleted: failing uploads cannot fill the disk.
    REQUIRE(st["file_removed"].b);
    REQUIRE(!fs::exists(dir / "data" / job["file"].str()));
    REQUIRE(fs::is_empty(dir / "data" / "runs"));
    REQUIRE(parse_json(get(s.port, "/api/jobs").body)["jobs"].size() == 2);
    REQUIRE(get(s.port, "/api/jobs/99").status == 404);
    REQUIRE(get(s.port, "/api/jobs/x").status == 400);
}

TEST_CASE("viewer: an uploaded sample-game capture is symbolized by the real symbolizer and served", "[.realupload]") {
    const char *run = std::getenv("MT_VIEWER_REAL_RUN");
    const char *sym = std::getenv("MT_VIEWER_SYMBOLIZER");
    const char *symbols = std::getenv("MT_VIEWER_SYMBOLS");
    REQUIRE(run);
    REQUIRE(sym);
    auto dir = temp_dir("realupload");
    auto o = base_options(dir);
    o.db = (dir / "served.db").string();  // absent: the server starts with an empty database
    o.data = (dir / "data").string();
    o.symbolizer = sym;
    o.symbols = symbols ? symbols : "";
    Server s(o);
    REQUIRE(parse_json(get(s.port, "/api/runs").body)["total"].i() == 0);
    std::ifstream in(run, std::ios::binary);
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto r = fetch(s.port, http::verb::post, "/api/runs", body);
    INFO(r.body);
    REQUIRE(r.status == 202);
    JValue st;
    for (int i = 0; i < 2400; ++i) {  // the symbolizer's own time; a bound, not an assertion on it
        st = parse_json(get(s.port, "/api/jobs/1").body);
        if (st["state"].str() == "done" || st["state"].str() == "failed") break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    INFO(get(s.port, "/api/jobs/1").body);
    REQUIRE(st["state"].str() == "done");
    auto id = std::to_string(st["run_id"].i());
    auto runs = parse_json(get(s.port, "/api/runs").body);
    REQUIRE(runs["total"].i() == 1);
    REQUIRE(runs["runs"][0]["run_id"].i() == st["run_id"].i());
    auto summary = parse_json(get(s.port, "/api/runs/" + id).body);
    REQUIRE(summary["frames"].i() > 0);
    auto top = parse_json(get(s.port, "/api/runs/" + id + "/top?group=site").body);
    REQUIRE(top["entries"].size() > 0);

    // Damaged captures keep what is good: one cut at 60% (truncated), one cut at 90% with a
    // byte flipped at 50% (corrupt: the job runs the symbolizer with --salvage).
    auto full_frames = summary["frames"].i();
    std::string truncated = body.substr(0, body.size() * 6 / 10);
    std::string corrupt = body.substr(0, body.size() * 9 / 10);
    corrupt[corrupt.size() * 5 / 9] ^= 0x5A;
    int job_id = 1;
    for (auto [damaged, stop] : {std::pair{truncated, "truncated"}, std::pair{corrupt, "corrupt"}}) {
        INFO(stop);
        auto up = fetch(s.port, http::verb::post, "/api/runs", damaged);
        REQUIRE(up.status == 202);
        ++job_id;
        JValue js;
        for (int i = 0; i < 2400; ++i) {
            js = parse_json(get(s.port, "/api/jobs/" + std::to_string(job_id)).body);
            if (js["state"].str() == "done" || js["state"].str() == "failed") break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        INFO(get(s.port, "/api/jobs/" + std::to_string(job_id)).body);
        REQUIRE(js["state"].str() == "done");
        auto run = parse_json(get(s.port, "/api/runs/" + std::to_string(js["run_id"].i())).body);
        INFO(run["stop"].str() << ": " << run["stop_reason"].str());
        REQUIRE(run["frames"].i() > 0);
        REQUIRE(run["frames"].i() < full_frames);
        if (std::string(stop) == "corrupt") REQUIRE(run["stop"].str() == "corrupt");
        else REQUIRE(run["stop"].str() != "end");
    }
}
