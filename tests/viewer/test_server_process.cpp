// memtracer-viewer as a process: it prints where it listens, serves, logs one line per request,
// and exits 0 on SIGTERM and on SIGINT.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "http_client.h"
#include "viewer_process.h"

using namespace mt::test;


TEST_CASE("viewer: the viewer process serves, logs each request and stops cleanly on SIGTERM and SIGINT", "[viewer][http]") {
    for (int sig : {SIGTERM, SIGINT}) {
        Child c = spawn_viewer({});
        uint16_t port = read_port(c);
        REQUIRE(get(port, "/api/runs").status == 200);
        REQUIRE(get(port, "/api/runs/5").status == 404);
        REQUIRE(kill(c.pid, sig) == 0);
        int status = 0;
        REQUIRE(waitpid(c.pid, &status, 0) == c.pid);
        fclose(c.out);
        REQUIRE(WIFEXITED(status));
        REQUIRE(WEXITSTATUS(status) == 0);
        auto log = slurp(c.err_path);
        INFO(log);
        // method, path, status, bytes, ms
        REQUIRE(log.find(" GET /api/runs 200 ") != std::string::npos);
        REQUIRE(log.find(" GET /api/runs/5 404 ") != std::string::npos);
        REQUIRE(log.find("ms\n") != std::string::npos);
        REQUIRE(log.find("stopped") != std::string::npos);
        std::remove(c.err_path.c_str());
    }
}

TEST_CASE("viewer: the viewer refuses bad command lines and databases with a reason", "[viewer][http]") {
    auto run = run_cli;
    auto [c1, o1] = run("");
    REQUIRE(c1 == 2);
    REQUIRE(o1.find("missing run.db") != std::string::npos);
    auto [c2, o2] = run(fixture_db() + " --port 99999");
    REQUIRE(c2 == 2);
    REQUIRE(o2.find("--port") != std::string::npos);
    auto [c3, o3] = run("/nonexistent/run.db");
    REQUIRE(c3 == 1);
    REQUIRE(o3.find("no database at /nonexistent/run.db") != std::string::npos);
    auto [c4, o4] = run(fixture_db() + " --get /api/runs/1/top?limit=1");
    REQUIRE(c4 == 0);
    REQUIRE(parse_json(o4)["entries"].size() == 1);
}
