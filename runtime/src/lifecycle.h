// lifecycle.h — lifecycle.cpp: capture start/stop. Internal to the runtime.
#ifndef MEMTRACER_RT_LIFECYCLE_H
#define MEMTRACER_RT_LIFECYCLE_H

#include <stdint.h>

namespace mt::rt {

uint64_t late_events();  // records moved to a later frame (running or last capture)
// Live control (stream_sink.cpp), on the writer thread of capture `gen`. Never waits for the
// capture lock (mt_stop holds it while joining the writer): -1 busy (try again), 0 applied,
// 1 refused (not that capture, or disabled).
int live_try_set_paused(uint64_t gen, bool paused);
// mt_stop of capture `gen` on a short-lived detached thread (the writer cannot join itself).
bool live_request_stop(uint64_t gen);
// Tests: act as a platform without a process-wide barrier (Apple), so mt_stop keeps the rings.
void lifecycle_test_force_no_barrier(bool off);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_LIFECYCLE_H
