// routes.h — every HTTP path the viewer answers lives in ONE table (query/src/router.cpp):
// the API endpoints, the uploads and their jobs, the live capture and the page's files. The
// HTTP server is transport only: it asks body_of() where a request's body goes, reads it, and
// hands the request to dispatch(). What the routes reach besides the database (the upload jobs,
// the live capture, the page's folder) the server provides as a Services; the query layer knows
// nothing about sockets, processes or files.
#ifndef MEMTRACER_VIEWER_ROUTES_H
#define MEMTRACER_VIEWER_ROUTES_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memtracer/viewer/jobs_view.h"
#include "memtracer/viewer/live_view.h"
#include "memtracer/viewer/query.h"

namespace mt::viewer {

// What the transport does with a request's body before dispatching it.
enum class Body {
    Small,   // read into memory (at most --max-body) and dropped: no endpoint takes a body
    Upload,  // streamed to the file Services::upload_file() names (at most --max-upload)
};

// An upload the transport stored.
struct StoredUpload {
    std::string path;
    uint64_t size = 0;
};

// The server's parts a route reaches. Every member but database() has a default meaning "this
// server has none": no uploads, no live capture, no page.
class Services {
public:
    virtual ~Services() = default;
    // This thread's read-only connection; throws std::exception (answered 503) when it cannot open.
    virtual Database &database() = 0;

    // Uploads (--data DIR). upload_file: a fresh path for a body being received, nullopt when
    // uploads are off; accept_upload: checks and queues what was stored there (202 with the job).
    virtual std::optional<std::string> upload_file() { return std::nullopt; }
    virtual Response accept_upload(const StoredUpload &u);
    // The jobs, newest first: the page [offset, offset+limit) and the total; one job by id.
    virtual bool uploads_enabled() const { return false; }
    virtual std::vector<JobView> jobs(int64_t offset, int64_t limit, int64_t &total);
    virtual std::optional<JobView> job(int64_t id);

    // The live capture (--live ADDR): whether there is one, its state now (nullopt without), and
    // a control sent to the game (false: not connected to it).
    virtual bool live_enabled() const { return false; }
    virtual std::optional<LiveView> live() { return std::nullopt; }
    virtual bool live_send(LiveControl c, const std::string &label);

    // A file of the page's folder by the request's path still percent-encoded (the folder judges
    // it decoded: "%2e%2e" is ".."); 404 without a page.
    virtual Response page_file(const std::string &raw_path);
};

// Where the body of `method target` goes (Body::Small for a target no route takes).
Body body_of(std::string_view method, std::string_view target);

// Answers one request through the table. `upload`: what the transport stored for a Body::Upload
// route, null otherwise. Never throws: every failure is the one error shape.
Response dispatch(Services &s, const std::string &method, std::string_view target,
                  const StoredUpload *upload = nullptr);

// The error a server without --data answers for the uploads and the jobs.
Response uploads_off(int status);

}  // namespace mt::viewer

#endif
