// app.h — what the server answers, without sockets: API requests go to the query layer (or the
// jobs), everything else to the page's folder. http_server.cpp only moves bytes.
#ifndef MEMTRACER_VIEWER_APP_H
#define MEMTRACER_VIEWER_APP_H

#include <string>

#include "db_pool.h"
#include "jobs.h"
#include "live_mode.h"
#include "options.h"
#include "static_files.h"

namespace mt::viewer {

class App {
public:
    // Opens nothing yet; throws std::runtime_error if the database is unusable (checked once
    // here so the server fails at start, not on the first request).
    explicit App(Options opts);
    // GET/HEAD of any target, and every non-upload method (answered 405).
    Response dispatch(const std::string &method, const std::string &target);
    Jobs &jobs() { return jobs_; }
    const Options &options() const { return opts_; }
    // --live: starts receiving (call once, not for --get); /api/live answers {"live":false} without.
    LiveMode &start_live();

private:
    Options opts_;
    DbPool pool_;
    StaticFiles static_;
    Jobs jobs_;
    std::unique_ptr<LiveMode> live_;
};

// Default folders relative to the running binary (<bin>/../viewer-web, <bin>/memtracer-symbolize).
std::string default_web_dir();
std::string default_symbolizer();

}  // namespace mt::viewer

#endif
