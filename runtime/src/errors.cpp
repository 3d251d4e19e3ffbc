// errors.cpp — config defaults and validation, status names, and mt_last_error.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "stream_sink.h"
#include "unwind.h"

namespace mt::rt {

namespace {
char g_error[512];
}

void set_last_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
}

void clear_last_error() { g_error[0] = 0; }

static mt_status reject(mt_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static mt_status reject(mt_status st, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    set_last_error("%s: %s", mt_status_string(st), msg);
    return st;
}

// Enum fields are read as raw ints: a caller may pass any value, and loading an out-of-range
// value as the enum type is itself undefined behaviour.
template <class E>
static int raw(const E &e) {
    int v;
    static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
    memcpy(&v, &e, sizeof v);
    return v;
}

mt_status validate_config(const mt_config *c) {
    if (!c) return reject(MT_ERR_CONFIG_NULL, "config is NULL");
    if (c->struct_size != sizeof(mt_config) && c->struct_size != MT_CONFIG_SIZE_V1)
        return reject(MT_ERR_CONFIG_SIZE, "config.struct_size is %u, this runtime knows %zu (call mt_config_init)",
                      c->struct_size, sizeof(mt_config));
    if (!c->output_path || !c->output_path[0])
        return reject(MT_ERR_OUTPUT_PATH, "config.output_path is %s", c->output_path ? "empty" : "NULL");
    if (strnlen(c->output_path, MT_MAX_PATH + 1) > MT_MAX_PATH)
        return reject(MT_ERR_OUTPUT_PATH, "config.output_path is longer than %d bytes", MT_MAX_PATH);
    uint32_t r = c->ring_capacity;
    if (r < MT_MIN_RING || r > MT_MAX_RING || (r & (r - 1)) != 0)
        return reject(MT_ERR_RING_CAPACITY, "config.ring_capacity %u is not a power of two in [%u, %u]", r,
                      MT_MIN_RING, MT_MAX_RING);
    if (c->max_stack_depth < 1 || c->max_stack_depth > MT_MAX_STACK_DEPTH)
        return reject(MT_ERR_MAX_DEPTH, "config.max_stack_depth %u is not in [1, %d]", c->max_stack_depth,
                      MT_MAX_STACK_DEPTH);
    if (raw(c->unwinder) != MT_UNWIND_FRAME_POINTER && raw(c->unwinder) != MT_UNWIND_LIBUNWIND)
        return reject(MT_ERR_UNWINDER, "config.unwinder %d is not a known unwinder", raw(c->unwinder));
    if (raw(c->unwinder) == MT_UNWIND_LIBUNWIND && !libunwind_available())
        return reject(MT_ERR_UNWINDER, "config.unwinder is MT_UNWIND_LIBUNWIND but this runtime was built without "
                                       "libunwind (MEMTRACER_LIBUNWIND=OFF or libunwind not found)");
    if (raw(c->mode) != MT_MODE_EVENTS && raw(c->mode) != MT_MODE_AGGREGATE)
        return reject(MT_ERR_MODE, "config.mode %d is not a known mode", raw(c->mode));
    if (c->sample_interval_bytes > MT_MAX_SAMPLE_INTERVAL)
        return reject(MT_ERR_SAMPLING, "config.sample_interval_bytes %llu is above %llu",
                      static_cast<unsigned long long>(c->sample_interval_bytes), MT_MAX_SAMPLE_INTERVAL);
    if (c->max_threads < 1 || c->max_threads > MT_MAX_THREADS)
        return reject(MT_ERR_MAX_THREADS, "config.max_threads %u is not in [1, %d]", c->max_threads, MT_MAX_THREADS);
    if (raw(c->on_full) != MT_ON_FULL_DROP && raw(c->on_full) != MT_ON_FULL_BLOCK)
        return reject(MT_ERR_FULL_POLICY, "config.on_full %d is not a known policy", raw(c->on_full));
    if (c->drain_interval_us < 100 || c->drain_interval_us > 1000000)
        return reject(MT_ERR_DRAIN_INTERVAL, "config.drain_interval_us %u is not in [100, 1000000]",
                      c->drain_interval_us);
    if (c->flags & ~MT_FLAGS_ALL)
        return reject(MT_ERR_FLAGS, "config.flags has unknown bits 0x%x", c->flags & ~MT_FLAGS_ALL);
    return live_validate(c);
}

}  // namespace mt::rt

using namespace mt::rt;

extern "C" MT_API mt_status mt_config_init(mt_config *c) {
    if (!c) {
        set_last_error("MT_ERR_CONFIG_NULL: config is NULL");
        return MT_ERR_CONFIG_NULL;
    }
    memset(c, 0, sizeof *c);
    c->struct_size = sizeof(mt_config);
    c->ring_capacity = 1u << 20;
    c->max_stack_depth = 64;
    c->unwinder = MT_UNWIND_FRAME_POINTER;
    c->mode = MT_MODE_EVENTS;
    c->max_threads = 64;
    c->on_full = MT_ON_FULL_DROP;
    c->drain_interval_us = 2000;
    c->flags = MT_FLAG_GC_EVENTS;
    return MT_OK;
}

extern "C" MT_API const char *mt_last_error(void) { return g_error; }

extern "C" MT_API const char *mt_status_string(mt_status s) {
    switch (s) {
    case MT_OK: return "MT_OK";
    case MT_ERR_ALREADY_STARTED: return "MT_ERR_ALREADY_STARTED: a capture is already running";
    case MT_ERR_NOT_STARTED: return "MT_ERR_NOT_STARTED: no capture is running";
    case MT_ERR_DISABLED: return "MT_ERR_DISABLED: the runtime disabled itself (see mt_last_error)";
    case MT_ERR_NOOP_BUILD: return "MT_ERR_NOOP_BUILD: memtracer was compiled out";
    case MT_ERR_CONFIG_NULL: return "MT_ERR_CONFIG_NULL: config is NULL";
    case MT_ERR_CONFIG_SIZE: return "MT_ERR_CONFIG_SIZE: config.struct_size is not one this runtime knows";
    case MT_ERR_OUTPUT_PATH: return "MT_ERR_OUTPUT_PATH: output_path is NULL, empty or too long";
    case MT_ERR_RING_CAPACITY: return "MT_ERR_RING_CAPACITY: ring_capacity is not a power of two in range";
    case MT_ERR_MAX_DEPTH: return "MT_ERR_MAX_DEPTH: max_stack_depth is out of range";
    case MT_ERR_UNWINDER: return "MT_ERR_UNWINDER: unknown unwinder, or libunwind not compiled in";
    case MT_ERR_MODE: return "MT_ERR_MODE: unknown mode";
    case MT_ERR_SAMPLING: return "MT_ERR_SAMPLING: sample_interval_bytes is too large";
    case MT_ERR_MAX_THREADS: return "MT_ERR_MAX_THREADS: max_threads is out of range";
    case MT_ERR_FULL_POLICY: return "MT_ERR_FULL_POLICY: unknown on_full policy";
    case MT_ERR_DRAIN_INTERVAL: return "MT_ERR_DRAIN_INTERVAL: drain_interval_us is out of range";
    case MT_ERR_FLAGS: return "MT_ERR_FLAGS: unknown bits in flags";
    case MT_ERR_LIVE: return "MT_ERR_LIVE: live_listen/live_connect is not host:port, both are set, or the token is too long";
    case MT_ERR_OPEN_OUTPUT: return "MT_ERR_OPEN_OUTPUT: the output file could not be created or written";
    case MT_ERR_NO_MEMORY: return "MT_ERR_NO_MEMORY: could not reserve the capture's memory";
    case MT_ERR_THREAD: return "MT_ERR_THREAD: could not start the writer thread";
    case MT_ERR_ARGUMENT: return "MT_ERR_ARGUMENT: a NULL or out-of-range argument";
    case MT_ERR_MARKS_FULL: return "MT_ERR_MARKS_FULL: too many marks are waiting for the writer; this one was dropped";
    case MT_ERR_IL2CPP_NOT_FOUND: return "MT_ERR_IL2CPP_NOT_FOUND: il2cpp's profiler API was not found";
    }
    return "unknown mt_status";
}
