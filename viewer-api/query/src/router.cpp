// router.cpp — THE route table: every path the viewer answers, with the method, what the
// transport does with the body, and the endpoint that answers it. A new endpoint is one row here
// (and its ep_<name>.cpp); the HTTP server needs no change. Every failure becomes the one error
// shape.
#include <stdexcept>
#include <vector>

#include "memtracer/json.h"

#include "endpoints.h"
#include "memtracer/viewer/routes.h"
#include "model.h"
#include "memtracer/store/error.h"
#include "memtracer/viewer/backend.h"

namespace mt::viewer {

Response error_response(int status, const std::string &message, const std::string &param) {
    mt::Json j;
    j.obj().obj("error").kv("status", status).kv("message", message);
    if (!param.empty()) j.kv("param", param);
    j.end_obj().end_obj();
    return Response{status, j.take(), "application/json", ""};
}

namespace {

using Args = std::vector<std::pair<std::string_view, std::string_view>>;  // ({name}, segment)

// One request on its way through the table: the {placeholders} its path filled, and the
// database connection with its read snapshot, opened on first use.
struct Call {
    Services &s;
    const Request &req;
    std::string_view raw_path;  // still percent-encoded (the page's files judge it decoded)
    const StoredUpload *upload;
    Args args;
    Database *db_ = nullptr;
    std::optional<SnapshotGuard> snapshot;

    // One read transaction per request: every query of a response sees the same snapshot, even
    // while the symbolizer commits a new run. Ended with the call, a throw included.
    Database &db() {
        if (!db_) {
            try {
                db_ = &s.database();
            } catch (const std::exception &e) {
                throw ApiError{503, std::string("database unavailable: ") + e.what(), ""};
            }
            snapshot.emplace(db_->backend());
        }
        return *db_;
    }
    std::string_view arg(size_t k) const { return args.at(k).second; }
    // The k-th {placeholder} as an id: 400 naming the placeholder when it is not one.
    int64_t id(size_t k) const { return parse_id(args.at(k).second, std::string(args.at(k).first)); }
};

using Handler = Response (*)(Call &);

struct Route {
    std::string_view method;   // "GET" (also answers HEAD) or "POST"
    std::string_view pattern;  // "/api/runs/{run}/top": {name} is any one segment; "/**": every path outside /api
    Handler run;
    Body body = Body::Small;
};

// clang-format off
const Route kRoutes[] = {
    // The API over the database (endpoints.h; docs/api.md).
    {"GET",  "/api/runs",                     [](Call &c) { return runs_list(c.db(), c.req); }},
    {"GET",  "/api/runs/{run}",               [](Call &c) { return run_summary(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/frames",        [](Call &c) { return frame_series(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/frames/{seq}",  [](Call &c) { return frame_detail(c.db(), c.req, c.id(0), c.id(1)); }},
    {"GET",  "/api/runs/{run}/top",           [](Call &c) { return top_n(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/flame",         [](Call &c) { return flame(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/collapsed",     [](Call &c) { return collapsed(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/trace",         [](Call &c) { return chrome_trace(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/search",        [](Call &c) { return search(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/speedscope",    [](Call &c) { return speedscope(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/leaks",         [](Call &c) { return leaks(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/temporaries",   [](Call &c) { return temporaries(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/markers",       [](Call &c) { return markers(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/runs/{run}/threads",       [](Call &c) { return threads_list(c.db(), c.req, c.id(0)); }},
    {"GET",  "/api/compare",                  [](Call &c) { return compare(c.db(), c.req); }},
    // Across runs (ep_fleet.cpp; docs/clickhouse.md).
    {"GET",  "/api/trend",                    [](Call &c) { return fleet_trend(c.db(), c.req); }},
    {"GET",  "/api/fleet/{what}",             [](Call &c) { return fleet_endpoint(c.db(), c.req, c.arg(0)); }},
    // Uploads: the body streamed to a file, symbolized by a background job (ep_jobs.cpp).
    {"POST", "/api/runs",                     [](Call &c) { return upload_run(c.s, c.upload); }, Body::Upload},
    {"GET",  "/api/jobs",                     [](Call &c) { return jobs_page(c.s, c.req); }},
    {"GET",  "/api/jobs/{job}",               [](Call &c) { return job_detail(c.s, c.req, c.arg(0)); }},
    // The live capture (ep_live.cpp; docs/live.md).
    {"GET",  "/api/live",                     [](Call &c) { return live_status(c.s); }},
    {"GET",  "/api/live/events",              [](Call &c) { return live_events(c.s); }},
    {"POST", "/api/live/pause",               [](Call &c) { return live_control(c.s, c.req, LiveControl::Pause); }},
    {"POST", "/api/live/resume",              [](Call &c) { return live_control(c.s, c.req, LiveControl::Resume); }},
    {"POST", "/api/live/stop",                [](Call &c) { return live_control(c.s, c.req, LiveControl::Stop); }},
    {"POST", "/api/live/mark",                [](Call &c) { return live_control(c.s, c.req, LiveControl::Mark); }},
    // The page: every other path is a file of its folder ("/" is index.html).
    {"GET",  "/**",                           [](Call &c) { return c.s.page_file(std::string(c.raw_path)); }},
};
// clang-format on

using Segments = std::vector<std::string_view>;

Segments split_path(std::string_view p) {
    Segments out;
    while (!p.empty()) {
        auto s = p.find('/');
        auto seg = p.substr(0, s);
        if (!seg.empty()) out.push_back(seg);
        if (s == std::string_view::npos) break;
        p = p.substr(s + 1);
        if (out.size() > 16) break;  // no endpoint is that deep
    }
    return out;
}

bool under_api(const Segments &seg) { return !seg.empty() && seg[0] == "api"; }

bool matches(const Route &r, const Segments &seg, Args &args) {
    if (r.pattern == "/**") return !under_api(seg);
    auto pat = split_path(r.pattern);
    if (pat.size() != seg.size()) return false;
    args.clear();
    for (size_t i = 0; i < pat.size(); ++i) {
        if (pat[i].front() == '{') args.emplace_back(pat[i].substr(1, pat[i].size() - 2), seg[i]);
        else if (pat[i] != seg[i]) return false;
    }
    return true;
}

bool accepts(const Route &r, std::string_view method) {
    return method == r.method || (r.method == "GET" && method == "HEAD");
}

// The row for the request: 404 when no path matches, 405 when one does but not its method.
const Route &pick(Call &c) {
    Segments seg = split_path(c.req.path);
    bool path_known = false;
    for (const Route &r : kRoutes) {
        if (!matches(r, seg, c.args)) continue;
        path_known = true;
        if (accepts(r, c.req.method)) return r;
    }
    if (path_known) throw ApiError{405, "method " + c.req.method + " not allowed on " + c.req.path, ""};
    throw ApiError{404, "no such endpoint: " + c.req.path, ""};
}

bool is_api_target(std::string_view raw_path) { return raw_path == "/api" || raw_path.rfind("/api/", 0) == 0; }

Response answer(Services &s, const Request &req, std::string_view raw_path, const StoredUpload *upload) {
    try {
        Call c{s, req, raw_path, upload, {}, nullptr, std::nullopt};
        return pick(c).run(c);
    } catch (const ApiError &e) {
        return error_response(e.status, e.message, e.param);
    } catch (const store::Error &e) {
        return error_response(500, "sqlite: " + e.message());  // SQLite's reason, not our SQL
    } catch (const std::bad_alloc &) {
        return error_response(503, "out of memory answering this request");
    } catch (const std::exception &e) {
        return error_response(500, e.what());
    }
}

// The API paths are percent-decoded before matching; the page's folder decodes (and judges) its
// own paths, so a page path is matched as sent.
Request request_of(const std::string &method, std::string_view target) {
    std::string_view raw = target.substr(0, target.find('?'));
    if (is_api_target(raw)) return parse_target(target, method);
    Request req;
    req.method = method;
    req.path = std::string(raw);
    return req;
}

// The query layer on its own (tests, fuzzing, memtracer-viewer --get without a server): the
// database and nothing else.
class DatabaseOnly : public Services {
public:
    explicit DatabaseOnly(Database &db) : db_(db) {}
    Database &database() override { return db_; }

private:
    Database &db_;
};

}  // namespace

Response Services::accept_upload(const StoredUpload &) { return uploads_off(403); }
std::vector<JobView> Services::jobs(int64_t, int64_t, int64_t &total) {
    total = 0;
    return {};
}
std::optional<JobView> Services::job(int64_t) { return std::nullopt; }
bool Services::live_send(LiveControl, const std::string &) { return false; }
Response Services::page_file(const std::string &raw_path) { return error_response(404, "no such endpoint: " + raw_path); }

Body body_of(std::string_view method, std::string_view target) {
    try {
        Request req = request_of(std::string(method), target);
        Segments seg = split_path(req.path);
        Args args;
        for (const Route &r : kRoutes)
            if (accepts(r, method) && matches(r, seg, args)) return r.body;
    } catch (const ApiError &) {
        // A malformed target reads no body it could take; dispatch() answers it.
    }
    return Body::Small;
}

Response dispatch(Services &s, const std::string &method, std::string_view target, const StoredUpload *upload) {
    std::string_view raw = target.substr(0, target.find('?'));
    Request req;
    try {
        req = request_of(method, target);
    } catch (const ApiError &e) {
        return error_response(e.status, e.message, e.param);
    }
    return answer(s, req, raw, upload);
}

Response handle(Database &db, const Request &req) {
    DatabaseOnly s(db);
    return answer(s, req, req.path, nullptr);
}

Response handle_target(Database &db, std::string_view target, const std::string &method) {
    DatabaseOnly s(db);
    return dispatch(s, method, target);
}

}  // namespace mt::viewer
