// app.h — the server's parts the route table reaches (routes.h's Services): the database pool,
// the upload jobs, the live capture and the page's folder. Which path reaches which of them is
// the table's business (query/src/router.cpp); http_server.cpp only moves bytes.
#ifndef MEMTRACER_VIEWER_APP_H
#define MEMTRACER_VIEWER_APP_H

#include <memory>
#include <string>

#include <memtracer/viewer/routes.h>

#include "db_pool.h"
#include "jobs.h"
#include "live_mode.h"
#include "options.h"
#include "static_files.h"

namespace mt::viewer {

class App : public Services {
public:
    // Opens nothing yet; throws std::runtime_error if the database is unusable (checked once
    // here so the server fails at start, not on the first request).
    explicit App(Options opts);
    // One request without a transport (memtracer-viewer --get): the route table's answer.
    Response dispatch(const std::string &method, const std::string &target) {
        return viewer::dispatch(*this, method, target);
    }
    Jobs &jobs() { return jobs_; }
    const Options &options() const { return opts_; }
    // --live: starts receiving (call once, not for --get); /api/live answers {"live":false} without.
    LiveMode &start_live();

    // Services
    Database &database() override { return pool_.local(); }
    std::optional<std::string> upload_file() override;
    Response accept_upload(const StoredUpload &u) override { return jobs_.accept(u.path, u.size); }
    bool uploads_enabled() const override { return jobs_.enabled(); }
    std::vector<JobView> jobs(int64_t offset, int64_t limit, int64_t &total) override {
        return jobs_.page(offset, limit, total);
    }
    std::optional<JobView> job(int64_t id) override { return jobs_.find(id); }
    bool live_enabled() const override { return live_ != nullptr; }
    std::optional<LiveView> live() override;
    bool live_send(LiveControl c, const std::string &label) override;
    Response page_file(const std::string &raw_path) override { return static_.get(raw_path); }

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
