// clock.h — the runtime's tick: the cheapest monotonic counter each CPU offers (TSC, CNTVCT),
// read raw on the hot path. tick_hz converts, once, on the host.
#ifndef MEMTRACER_RT_CLOCK_H
#define MEMTRACER_RT_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace mt::rt {

inline uint64_t mono_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

inline uint64_t wall_ns() {
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

inline uint64_t now_ticks() {
#if defined(__x86_64__)
    return __rdtsc();
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return mono_ns();
#endif
}

// Ticks per second, measured against CLOCK_MONOTONIC where the counter's rate is not readable.
// Blocks the caller for about 20 ms on x86_64 (mt_start only).
double calibrate_tick_hz();

}  // namespace mt::rt

#endif  // MEMTRACER_RT_CLOCK_H
