#include "text.h"

#include <memtracer/format.h>

#include <cstdio>

namespace mt::reader::detail {

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

std::string quoted_bytes(const uint8_t *p, size_t n) {
    std::string out = "'";
    for (size_t i = 0; i < n; ++i) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\'' && p[i] != '\\') {
            out += static_cast<char>(p[i]);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", p[i]);
            out += buf;
        }
    }
    return out + "'";
}

std::string chunk_type_name(uint32_t type) {
    static const char *const names[] = {nullptr,  "INFO",   "MODULES", "THREADS",    "CLASSES",
                                        "STACKS", "EVENTS", "AGGREGATES", "GC",      "DEATHS",
                                        "FRAME",  "COUNTERS", "END", "MARKS"};
    if (type >= MT_CHUNK_INFO && type <= MT_CHUNK_MARKS) return names[type];
    return "unknown type " + std::to_string(type);
}

}  // namespace mt::reader::detail
