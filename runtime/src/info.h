// info.h — info.cpp: the file header and the INFO chunk of a capture. Internal to the runtime.
#ifndef MEMTRACER_RT_INFO_H
#define MEMTRACER_RT_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "memtracer/memtracer.h"
#include "memtracer/trace_writer.h"

namespace mt::rt {

// The INFO chunk's key/value pairs (strings live in *this).
struct InfoList {
    trace::KeyValue kv[16];
    size_t n = 0;
    char store[4096];
    size_t used = 0;
    void add(const char *key, const char *value);
    void add_u(const char *key, uint64_t value);
};
void build_info(const mt_config &c, double tick_hz, InfoList *out);
void fill_header(const mt_config &c, uint64_t start_unix_ns, trace::FileHeaderParams *hp);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_INFO_H
