// The per-run backend on ClickHouse (fleet/src/ch_backend.h) against the SQLite one: the viewer's
// fixture database exported into a real two-shard cluster, then every target the viewer tests ask
// (backend_targets.txt) answered from both, byte for byte, status, body and download name.
// Also: the viewer and the report serve a clickhouse:// URL, and an unreachable one is an error
// naming it.
#include <catch2/catch.hpp>

#include <memtracer/viewer/backend.h>
#include <memtracer/viewer/query.h>

#include <fstream>
#include <string>
#include <vector>

#include "ch_backend.h"
#include "clickhouse_server.h"
#include "process.h"

using namespace mt;

namespace {

std::vector<std::string> targets() {
    std::ifstream in(MT_BACKEND_TARGETS);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("fleet backend: every viewer target byte-identical from SQLite and a two-shard ClickHouse", "[fleet]") {
    test::TempDir dir;
    uint16_t http1 = test::free_port(), tcp1 = test::free_port(), http2 = test::free_port(), tcp2 = test::free_port();
    test::ClickHouseServer s1{dir.path + "/s1", http1, tcp1, {tcp1, tcp2}};
    test::ClickHouseServer s2{dir.path + "/s2", http2, tcp2, {tcp1, tcp2}};
    s1.start();
    s2.start();
    const std::string url = s1.url("viewer");
    auto r = test::run_process({MT_EXPORT_BIN, MT_VIEWER_FIXTURE_DB, "--to", url, "--cluster", "mt_test", "--shard", url,
                                "--shard", s2.url("viewer")});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);

    viewer::Database lite(MT_VIEWER_FIXTURE_DB);
    viewer::Database ch(fleet::open_clickhouse_backend(url));
    auto list = targets();
    REQUIRE(list.size() > 200);
    int same = 0, answered = 0;
    for (const std::string &t : list) {
        INFO(t);
        auto a = viewer::handle_target(lite, t), b = viewer::handle_target(ch, t);
        CHECK(a.status == b.status);
        CHECK(a.filename == b.filename);
        CHECK(a.body == b.body);
        same += a.status == b.status && a.body == b.body && a.filename == b.filename;
        answered += b.status == 200;
    }
    CHECK(same == static_cast<int>(list.size()));
    // Most are answers, not the same error twice: stacks with their frames and addresses, leaks,
    // temporaries, flame graphs (the rest are the viewer tests' 400s and 404s).
    CHECK(answered > 150);
    CHECK(viewer::handle_target(ch, "/api/runs/1/top?group=stack&limit=1").body.find("\"address\":\"0x") != std::string::npos);

    // The report reads the same run through the URL (a run by its fleet id).
    auto top_db = test::run_process({MT_REPORT_BIN, "top", std::string(MT_VIEWER_FIXTURE_DB) + "@2", "--limit", "5"});
    auto top_ch = test::run_process({MT_REPORT_BIN, "top", url + "@2", "--limit", "5"});
    INFO(top_db.output);
    INFO(top_ch.output);
    CHECK(top_db.exit_code == 0);
    CHECK(top_ch.exit_code == 0);
    // The same table, the source's label aside.
    auto body = [](const std::string &out) { return out.substr(out.find('\n') + 1); };
    CHECK(body(top_db.output) == body(top_ch.output));

    // The viewer serves the URL (--get: one request, on stdout).
    auto v = test::run_process({MT_VIEWER_BIN, url, "--get", "/api/runs/1/top?limit=3"});
    CHECK(v.exit_code == 0);
    CHECK(v.output == viewer::handle_target(lite, "/api/runs/1/top?limit=3").body + "\n");
}

TEST_CASE("fleet backend: an unreachable ClickHouse is an error naming the URL", "[fleet]") {
    const std::string url = "clickhouse://127.0.0.1:" + std::to_string(test::free_port()) + "/nowhere";
    CHECK_THROWS_WITH(fleet::open_clickhouse_backend(url), Catch::Contains(url));
    auto v = test::run_process({MT_VIEWER_BIN, url, "--get", "/api/runs"});
    CHECK(v.exit_code != 0);
    CHECK(v.output.find("cannot reach ClickHouse at " + url) != std::string::npos);
    auto rep = test::run_process({MT_REPORT_BIN, "top", url + "@1"});
    CHECK(rep.exit_code != 0);
    CHECK(rep.output.find("cannot reach ClickHouse at " + url) != std::string::npos);
}
