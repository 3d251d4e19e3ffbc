// lifecycle.h — capture start/stop plumbing shared by the API files. Internal to the runtime.
#ifndef MEMTRACER_RT_LIFECYCLE_H
#define MEMTRACER_RT_LIFECYCLE_H

#include <stddef.h>
#include <stdint.h>

#include "memtracer/memtracer.h"
#include "trace_writer.h"

namespace mt::rt {

class Writer;

// errors.cpp
void set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void clear_last_error();
mt_status validate_config(const mt_config *c);  // names the field and the why on failure

// info.cpp: the INFO chunk's key/value pairs (strings live in *this).
struct InfoList {
    KeyValue kv[16];
    size_t n = 0;
    char store[4096];
    size_t used = 0;
    void add(const char *key, const char *value);
    void add_u(const char *key, uint64_t value);
};
void build_info(const mt_config &c, double tick_hz, InfoList *out);
void fill_header(const mt_config &c, uint64_t start_unix_ns, FileHeaderParams *hp);

// lifecycle.cpp: the counters of the running capture (no lock; the writer calls it at the end).
void counters_snapshot(const Writer *w, mt_counters *out);
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
