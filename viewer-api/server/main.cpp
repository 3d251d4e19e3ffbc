// memtracer-viewer: serves a MemTracer database (JSON endpoints + the web page) over HTTP.
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>

#include "app.h"
#include "http_server.h"

int main(int argc, char **argv) {
    using namespace mt::viewer;
    // A write past a file size limit (RLIMIT_FSIZE) or to a closed stdout must fail with an
    // error the server answers (507 for an upload), not kill it.
    std::signal(SIGXFSZ, SIG_IGN);
    std::signal(SIGPIPE, SIG_IGN);
    Options opts;
    if (auto code = parse_options(argc, argv, opts)) return *code;
    try {
        App app(opts);
        if (!opts.get.empty()) {  // one request, answered on stdout: scripts and docs/api.md
            auto r = app.dispatch("GET", opts.get);
            std::cout << r.body;
            if (r.content_type == "application/json") std::cout << '\n';
            return r.status == 200 ? 0 : 1;
        }
        if (!opts.live.empty()) {
            auto &live = app.start_live();
            std::printf("memtracer-viewer: live from %s into %s\n", opts.live.c_str(), live.run_path().c_str());
        }
        HttpServer server(app, app.options());
        std::printf("memtracer-viewer: serving %s on http://%s:%u/ with %d threads%s\n", app.options().db.c_str(),
                    opts.host.find(':') != std::string::npos ? ("[" + opts.host + "]").c_str() : opts.host.c_str(),
                    server.port(), opts.threads, app.jobs().enabled() ? ", uploads on" : "");
        if (!server.token().empty())
            std::printf("memtracer-viewer: uploads need the token: Authorization: Bearer %s\n", server.token().c_str());
        std::fflush(stdout);
        if (server.remote())
            std::fprintf(stderr, "memtracer-viewer: warning: listening on %s: every machine that can reach port %u can "
                                 "read this database; uploads need the token\n", opts.host.c_str(), server.port());
        server.run(true);
        app.jobs().stop();
        std::fprintf(stderr, "memtracer-viewer: stopped\n");
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "memtracer-viewer: %s\n", e.what());
        return 1;
    }
}
