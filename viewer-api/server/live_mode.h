// live_mode.h — memtracer-viewer --live ADDR (docs/live.md): receives a live capture into a
// run.mt beside the database (live/'s capture, the same code as memtracer-capture) and ingests it
// as it grows with ONE `memtracer-symbolize --follow` child into ONE run (live_follow.h),
// publishing that run's id and queryable frame count. The route table (query/src/router.cpp)
// only reads its view and forwards controls.
#ifndef MEMTRACER_VIEWER_LIVE_MODE_H
#define MEMTRACER_VIEWER_LIVE_MODE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <memtracer/viewer/live_view.h>

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
    // The state /api/live and /api/live/events show (rendered by query/src/ep_live.cpp).
    LiveView view();
    // A control for the game (the label for a mark); false when not connected to it.
    bool send(LiveControl c, const std::string &label);

    struct Impl;

private:
    std::shared_ptr<Impl> impl_;  // shared with the capture's and the ingest's threads
};

}  // namespace mt::viewer

#endif
