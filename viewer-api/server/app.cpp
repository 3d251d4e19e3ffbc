#include "app.h"
#include "clickhouse.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

namespace mt::viewer {

namespace fs = std::filesystem;

namespace {
fs::path self_dir() {
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : p.parent_path();
}

Options prepared(Options o) {
    if (o.web.empty()) o.web = default_web_dir();
    if (o.symbolizer.empty()) o.symbolizer = default_symbolizer();
    if (fleet::ClickHouseUrl::is_url(o.db)) return o;  // served from ClickHouse (docs/clickhouse.md)
    std::error_code ec;
    if (!fs::exists(o.db, ec)) {
        // Serving uploads only: start from an empty database the symbolizer will fill.
        if (o.data.empty() && o.live.empty()) throw std::runtime_error("no database at " + o.db + " (give --data DIR to start empty)");
        create_empty_database(o.db);
    }
    o.db = fs::absolute(o.db).string();
    return o;
}
}  // namespace

std::string default_web_dir() { return (self_dir().parent_path() / "viewer-web").string(); }
std::string default_symbolizer() { return (self_dir() / "memtracer-symbolize").string(); }

App::App(Options opts)
    : opts_(prepared(std::move(opts))),
      pool_(opts_.db),
      static_(opts_.web),
      jobs_(JobConfig{opts_.data, opts_.symbols, opts_.db, opts_.symbolizer}, [this] { pool_.refresh(); }) {
    pool_.local();  // throws now, with SQLite's reason, for a file that is not a database
}

LiveMode &App::start_live() {
    LiveOptions lo{opts_.live, opts_.live_token, opts_.live_symbol_args, opts_.live_listen, opts_.live_out};
    live_ = std::make_unique<LiveMode>(lo, opts_.db, opts_.symbolizer, [this] { pool_.refresh(); });
    return *live_;
}

Response App::dispatch(const std::string &method, const std::string &target) {
    auto q = target.find('?');
    std::string raw_path = target.substr(0, q);
    try {
        if (raw_path.rfind("/api/", 0) == 0 || raw_path == "/api") {
            Request req = parse_target(target, method);
            if (req.path == "/api/live" || req.path.rfind("/api/live/", 0) == 0) {
                if (live_) return live_->handle(method, req);
                if (req.path == "/api/live") return Response{200, R"({"live":false})", "application/json", ""};
                return error_response(409, "not live: start memtracer-viewer with --live ADDR");
            }
            if (req.path.rfind("/api/jobs", 0) == 0) {
                if (method != "GET" && method != "HEAD") return error_response(405, "method " + method + " not allowed");
                return jobs_.get(req);
            }
            if (req.path == "/api/runs" && method == "POST")  // reached only without a body reader
                return error_response(400, "upload the run.mt as the request body", "body");
            Database *db = nullptr;
            try {
                db = &pool_.local();
            } catch (const std::exception &e) {
                return error_response(503, std::string("database unavailable: ") + e.what());
            }
            return handle(*db, req);
        }
        if (method != "GET" && method != "HEAD") return error_response(405, "method " + method + " not allowed");
        return static_.get(raw_path);
    } catch (const ApiError &e) {
        return error_response(e.status, e.message, e.param);
    } catch (const std::exception &e) {
        return error_response(500, e.what());
    }
}

}  // namespace mt::viewer
