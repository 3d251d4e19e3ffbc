// capture_session.h — the capture's session (capture_session.cpp) with a front end on its
// thread: memtracer-capture's terminal (terminal.h) reads stdin and prints a status line there.
#pragma once

#include "memtracer/live/capture.h"

namespace boost::asio {
class io_context;
}

namespace mt::live {

// Something that runs beside the session on its one thread (Boost.Asio handlers on its
// io_context). attach: once connected the first time; detach: before the io_context goes, on
// every way out (its timers and descriptors must go first).
class FrontEnd {
public:
    virtual ~FrontEnd() = default;
    virtual void attach(boost::asio::io_context &io) = 0;
    virtual void detach() = 0;
};

// run_capture with a front end (nullptr: none).
int run_capture(const CaptureOptions &o, FrontEnd *front_end);

}  // namespace mt::live
