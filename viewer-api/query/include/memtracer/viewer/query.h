// query.h — the viewer's query layer: a parsed request in, {status, body} out. It knows nothing
// about sockets, so every endpoint is tested (and fuzzed) without a server; the HTTP layer in
// viewer-api/server is a thin adapter over handle().
#ifndef MEMTRACER_VIEWER_QUERY_H
#define MEMTRACER_VIEWER_QUERY_H

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mt::viewer {

struct Request {
    std::string method = "GET";
    std::string path;  // percent-decoded, without the query string
    std::vector<std::pair<std::string, std::string>> params;  // decoded, in order given
};

struct Response {
    int status = 200;
    std::string body;
    std::string content_type = "application/json";
    std::string filename;  // non-empty: offer the body as a download of that name
};

// What a handler throws for a bad request; handle() turns it into the one error shape
// {"error":{"status":400,"message":"...","param":"..."}}.
struct ApiError {
    int status;
    std::string message;
    std::string param;  // the offending parameter, "" if none
};

// Splits "/api/x?a=1&b=%20" into a Request. Throws ApiError(400) for a malformed target
// (bad percent escape, NUL, not starting with '/'): hostile input never gets past here raw.
Request parse_target(std::string_view target, std::string method = "GET");

// Percent-decoding; `plus_is_space` for query strings. Throws ApiError(400) on a bad escape.
std::string percent_decode(std::string_view s, bool plus_is_space, const std::string &what);

// Renders the error shape (used by the HTTP layer for its own 404/413/... too).
Response error_response(int status, const std::string &message, const std::string &param = "");

class RunBackend;  // backend.h: the per-run reads every endpoint goes through

// One read-only connection with its prepared statements. Not thread-safe: the server keeps
// one per worker thread.
class Database {
public:
    // Opens `path` read-only (through store/: the SQLite backend). Throws std::runtime_error
    // with SQLite's reason.
    explicit Database(const std::string &path);
    // Any other backend (fleet/'s ClickHouse one); `backend` must not be null.
    explicit Database(std::unique_ptr<RunBackend> backend);
    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    const std::string &path() const { return path_; }
    RunBackend &backend() { return *backend_; }

private:
    std::string path_;
    std::unique_ptr<RunBackend> backend_;
};

// Routes a request to its endpoint. Never throws: errors become the error shape.
Response handle(Database &db, const Request &req);
// parse_target + handle: a raw target such as "/api/runs/1/top?by=count". Never throws.
Response handle_target(Database &db, std::string_view target, const std::string &method = "GET");

}  // namespace mt::viewer

#endif  // MEMTRACER_VIEWER_QUERY_H
