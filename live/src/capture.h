// capture.h — memtracer-capture: receives a live capture (docs/live.md) into run.mt.
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
    double status_seconds = 1;       // status line period (0: none)
    bool commands = true;            // read pause/resume/stop/mark NAME lines from stdin
    bool latency = false;            // print mt_frame_end -> stored latency (p50/p95/max) at the end
    LiveLink *link = nullptr;        // an embedding program's view and controls (live_link.h)
};

// Exit status: 0 the capture ended (END stored), 2 refused / not a runtime / I/O error,
// 3 cut off (the game went away before END and, with reconnect_seconds, did not come back in
// time; every whole chunk received is kept).
int run_capture(const CaptureOptions &o);

}  // namespace mt::live
