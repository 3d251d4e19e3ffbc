// info.cpp — what the file says about the capture: header fields, the INFO chunk, and the tick
// rate calibration.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include "clock.h"
#include "info.h"
#include "lifetimes.h"
#include "unwind.h"

#ifndef MEMTRACER_VERSION
#define MEMTRACER_VERSION "0.0.0"
#endif

namespace mt::rt {

double calibrate_tick_hz() {
#if defined(__aarch64__)
    uint64_t f;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
    return static_cast<double>(f);
#elif defined(__x86_64__)
    static double cached = 0;  // the TSC rate is fixed (constant_tsc); measure once per process
    if (cached > 0) return cached;
    uint64_t n0 = mono_ns(), t0 = now_ticks();
    timespec d{0, 20 * 1000 * 1000};
    while (nanosleep(&d, &d) != 0 && errno == EINTR) {}
    uint64_t n1 = mono_ns(), t1 = now_ticks();
    cached = static_cast<double>(t1 - t0) * 1e9 / static_cast<double>(n1 - n0);
    return cached;
#else
    return 1e9;
#endif
}

void InfoList::add(const char *key, const char *value) {
    if (n >= sizeof kv / sizeof kv[0]) return;
    size_t len = strlen(value);
    if (used + len + 1 > sizeof store) len = used + 1 < sizeof store ? sizeof store - used - 1 : 0;
    char *dst = store + used;
    memcpy(dst, value, len);
    dst[len] = 0;
    used += len + 1;
    kv[n++] = trace::KeyValue{key, dst};
}

void InfoList::add_u(const char *key, uint64_t value) {
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(value));
    add(key, buf);
}

static const char *process_name() {
#if defined(__GLIBC__)
    return program_invocation_short_name;
#else
    return getprogname();
#endif
}

void build_info(const mt_config &c, double tick_hz, InfoList *out) {
    out->add("process", process_name());
    utsname u;
    char os[256] = "unknown", device[256] = "unknown";
    if (uname(&u) == 0) snprintf(os, sizeof os, "%s %s", u.sysname, u.release);
#if defined(__APPLE__)
    size_t len = sizeof device - 1;
    if (sysctlbyname("hw.machine", device, &len, nullptr, 0) != 0) snprintf(device, sizeof device, "unknown");
#else
    if (gethostname(device, sizeof device - 1) != 0) snprintf(device, sizeof device, "unknown");
#endif
    device[sizeof device - 1] = 0;
    out->add("os", os);
    out->add("arch", trace::host_arch() == MT_ARCH_X86_64 ? "x86_64" : trace::host_arch() == MT_ARCH_ARM64 ? "arm64" : "unknown");
    out->add("device", device);
    out->add("session_label", c.session_label ? c.session_label : "");
    out->add("runtime_version", MEMTRACER_VERSION);
    out->add("unwinder", c.unwinder == MT_UNWIND_LIBUNWIND ? "libunwind" : "frame_pointer");
    out->add("mode", c.mode == MT_MODE_AGGREGATE ? "aggregate" : "events");
    out->add_u("ring_capacity", c.ring_capacity);
    out->add_u("max_threads", c.max_threads);
    out->add_u("drain_interval_us", c.drain_interval_us);
    out->add_u("tick_hz", static_cast<uint64_t>(tick_hz + 0.5));
}

void fill_header(const mt_config &c, uint64_t start_unix_ns, trace::FileHeaderParams *hp) {
    hp->start_unix_ns = start_unix_ns;
    hp->sample_interval_bytes = c.sample_interval_bytes;
    hp->flags = (c.mode == MT_MODE_AGGREGATE ? MT_FILE_FLAG_AGGREGATE : 0u) |
                (c.sample_interval_bytes ? MT_FILE_FLAG_SAMPLED : 0u) |
                (c.unwinder == MT_UNWIND_LIBUNWIND ? MT_FILE_FLAG_LIBUNWIND : 0u) |
                (c.flags & MT_FLAG_GC_EVENTS ? MT_FILE_FLAG_GC_EVENTS : 0u) |
                ((c.flags & MT_FLAG_LIFETIMES) && (lifetimes_supported() || (c.flags & MT_FLAG_NATIVE_HEAPS))
                     ? MT_FILE_FLAG_LIFETIMES : 0u);
    hp->pid = static_cast<uint32_t>(getpid());
    hp->pointer_size = sizeof(void *);
    hp->max_stack_depth = static_cast<uint16_t>(c.max_stack_depth);
    hp->arch = trace::host_arch();
}

}  // namespace mt::rt
