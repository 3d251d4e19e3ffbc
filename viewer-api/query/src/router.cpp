// router.cpp — maps a request path to its endpoint, and every failure to the one error shape.
#include <stdexcept>
#include <vector>

#include "endpoints.h"
#include "json.h"
#include "model.h"
#include "memtracer/store/error.h"
#include "memtracer/viewer/backend.h"

namespace mt::viewer {

Response error_response(int status, const std::string &message, const std::string &param) {
    Json j;
    j.obj().obj("error").kv("status", status).kv("message", message);
    if (!param.empty()) j.kv("param", param);
    j.end_obj().end_obj();
    return Response{status, j.take(), "application/json", ""};
}

namespace {
std::vector<std::string_view> split_path(std::string_view p) {
    std::vector<std::string_view> out;
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

Response route(Database &db, const Request &req) {
    auto seg = split_path(req.path);
    if (seg.size() < 2 || seg[0] != "api") throw ApiError{404, "no such endpoint: " + req.path, ""};
    if (req.method != "GET" && req.method != "HEAD")
        throw ApiError{405, "method " + req.method + " not allowed on " + req.path, ""};
    if (seg[1] == "compare" && seg.size() == 2) return compare(db, req);
    if (seg[1] != "runs") throw ApiError{404, "no such endpoint: " + req.path, ""};
    if (seg.size() == 2) return runs_list(db, req);
    int64_t run = parse_id(seg[2], "run");
    if (seg.size() == 3) return run_summary(db, req, run);
    auto what = seg[3];
    if (what == "frames" && seg.size() == 4) return frame_series(db, req, run);
    if (what == "frames" && seg.size() == 5) return frame_detail(db, req, run, parse_id(seg[4], "seq"));
    if (seg.size() == 4) {
        if (what == "top") return top_n(db, req, run);
        if (what == "flame") return flame(db, req, run);
        if (what == "collapsed") return collapsed(db, req, run);
        if (what == "trace") return chrome_trace(db, req, run);
        if (what == "search") return search(db, req, run);
        if (what == "speedscope") return speedscope(db, req, run);
        if (what == "leaks") return leaks(db, req, run);
        if (what == "temporaries") return temporaries(db, req, run);
        if (what == "markers") return markers(db, req, run);
        if (what == "threads") return threads_list(db, req, run);
    }
    throw ApiError{404, "no such endpoint: " + req.path, ""};
}
}  // namespace

Response handle(Database &db, const Request &req) {
    try {
        // One read transaction per request: every query of a response sees the same snapshot,
        // even while the symbolizer commits a new run. Rolled back on any throw.
        SnapshotGuard snapshot(db.backend());
        return route(db, req);
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

Response handle_target(Database &db, std::string_view target, const std::string &method) {
    Request req;
    try {
        req = parse_target(target, method);
    } catch (const ApiError &e) {
        return error_response(e.status, e.message, e.param);
    }
    return handle(db, req);
}

}  // namespace mt::viewer
