// capture.h — live/'s public face: receive a live capture (docs/live.md) into run.mt. The wire
// session and the file only; what it reports goes to a LiveLink (live_link.h). memtracer-capture
// puts a terminal front end on it (live/src/terminal.h), memtracer-viewer --live the page.
#pragma once

#include <cstdint>
#include <string>

namespace mt::live {

class LiveLink;

struct CaptureOptions {
    std::string address;             // host:port of the game (or, with listen, where to listen)
    bool listen = false;             // the game connects out (MEMTRACER_CONNECT)
    std::string out = "run.mt";
    std::string token;
    bool resume = false;             // keep out's whole chunks and ask only for the rest
    uint64_t stop_after_frames = 0;  // send STOP once this many frames are stored
    double wait_seconds = 10;        // keep trying to connect this long
    double reconnect_seconds = 0;    // after a lost connection, wait this long for the game, then resume
    LiveLink *link = nullptr;        // an embedding program's view and controls (live_link.h)
};

// Exit status: 0 the capture ended (END stored), 2 refused / not a runtime / I/O error,
// 3 cut off (the game went away before END and, with reconnect_seconds, did not come back in
// time; every whole chunk received is kept). Never throws; says why on stderr.
int run_capture(const CaptureOptions &o);

}  // namespace mt::live
