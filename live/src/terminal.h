// terminal.h — memtracer-capture's terminal front end on the capture (memtracer/live/capture.h):
// pause/resume/stop/mark NAME read from stdin, the periodic status line, the latency summary.
// It watches and steers the capture only through a LiveLink, as memtracer-viewer --live does.
#pragma once

#include "memtracer/live/capture.h"

namespace mt::live {

struct TerminalOptions {
    double status_seconds = 1;  // status line period (0: none)
    bool commands = true;       // read pause/resume/stop/mark NAME lines from stdin
    bool latency = false;       // print mt_frame_end -> stored latency (p50/p95/max) at the end
};

// run_capture(o) with the terminal on it; the same exit status. o.link must be null (the
// terminal brings its own).
int run_terminal_capture(CaptureOptions o, const TerminalOptions &t);

}  // namespace mt::live
