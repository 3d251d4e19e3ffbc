// live_mode.h — memtracer-viewer --live ADDR (docs/live.md): receives a live capture into a
// run.mt beside the database (live/'s capture, the same code as memtracer-capture) and ingests it
// as it grows with ONE `memtracer-symbolize --follow` child into ONE run (live_follow.h),
// publishing that run's id and queryable frame count. The HTTP layer only reads the status and
// forwards controls.
#ifndef MEMTRACER_VIEWER_LIVE_MODE_H
#define MEMTRACER_VIEWER_LIVE_MODE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <memtracer/viewer/query.h>

namespace mt::viewer {

struct LiveOptions {
    std::string address;                   // the game's host:port (MEMTRACER_LISTEN)
    std::string token;                     // its MEMTRACER_TOKEN
    std::vector<std::string> symbol_args;  // --dsym/--elf/--symbols/--il2cpp-symbols, passed on
    bool listen = false;                   // listen on `address`; the game connects out (MEMTRACER_CONNECT)
    std::string out;                       // the run.mt written (--live-out); "" = <db stem>-live.mt beside the db
};

class LiveMode {
public:
    // db: the served database (created empty before); symbolizer: memtracer-symbolize;
    // refresh: called when the live run first appears, so readers reopen.
    LiveMode(LiveOptions o, std::string db, std::string symbolizer, std::function<void()> refresh);
    ~LiveMode();  // asks the follow child to finish the run (cut off if still live) and waits for it
    LiveMode(const LiveMode &) = delete;
    LiveMode &operator=(const LiveMode &) = delete;

    const std::string &run_path() const;
    // GET /api/live, GET /api/live/events (SSE), POST /api/live/{pause,resume,mark,stop}.
    Response handle(const std::string &method, const Request &req);

    struct Impl;

private:
    std::shared_ptr<Impl> impl_;  // shared with the capture's and the ingest's threads
};

}  // namespace mt::viewer

#endif
