// lifecycle.h — lifecycle.cpp: capture start/stop. Internal to the runtime.
#ifndef MEMTRACER_RT_LIFECYCLE_H
#define MEMTRACER_RT_LIFECYCLE_H

#include <stdint.h>

namespace mt::rt {

uint64_t late_events();  // records moved to a later frame (running or last capture)
// Tests: act as a platform without a process-wide barrier (Apple), so mt_stop keeps the rings.
void lifecycle_test_force_no_barrier(bool off);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_LIFECYCLE_H
