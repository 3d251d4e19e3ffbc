// memtracer-viewer: serves a MemTracer database (JSON endpoints + the web page) over HTTP.
#include <cstdio>
#include <exception>
#include <iostream>

#include "app.h"
#include "http_server.h"

int main(int argc, char **argv) {
    using namespace mt::viewer;
    Options opts;
    try {
        opts = parse_options(argc, argv);
    } catch (const std::invalid_argument &e) {
        if (*e.what()) std::fprintf(stderr, "memtracer-viewer: %s\n", e.what());
        std::fputs(usage(), stderr);
        return *e.what() ? 2 : 0;
    }
    try {
        App app(opts);
        if (!opts.get.empty()) {  // one request, answered on stdout: scripts and docs/api.md
            auto r = app.dispatch("GET", opts.get);
            std::cout << r.body;
            if (r.content_type == "application/json") std::cout << '\n';
            return r.status == 200 ? 0 : 1;
        }
        HttpServer server(app, app.options());
        std::printf("memtracer-viewer: serving %s on http://%s:%u/ with %d threads%s\n", app.options().db.c_str(),
                    opts.host.find(':') != std::string::npos ? ("[" + opts.host + "]").c_str() : opts.host.c_str(),
                    server.port(), opts.threads, app.jobs().enabled() ? ", uploads on" : "");
        std::fflush(stdout);
        server.run(true);
        app.jobs().stop();
        std::fprintf(stderr, "memtracer-viewer: stopped\n");
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "memtracer-viewer: %s\n", e.what());
        return 1;
    }
}
