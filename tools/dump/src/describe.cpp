#include "describe.h"

#include "utf8.h"

#include <memtracer/format.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <ctime>

namespace mt::dump {
namespace {

std::vector<std::string> names_of(uint32_t flags, std::initializer_list<std::pair<uint32_t, const char *>> known) {
    std::vector<std::string> out;
    for (auto [bit, name] : known)
        if (flags & bit) {
            out.push_back(name);
            flags &= ~bit;
        }
    if (flags) out.push_back(hex(flags));  // bits this build does not know, kept visible
    return out;
}

std::string unknown(uint32_t v) { return "unknown(" + std::to_string(v) + ")"; }

}  // namespace

std::string arch_name(uint32_t arch) {
    switch (arch) {
    case MT_ARCH_X86_64: return "x86_64";
    case MT_ARCH_ARM64: return "arm64";
    case MT_ARCH_UNKNOWN: return "unknown";
    default: return unknown(arch);
    }
}

std::string module_kind_name(uint32_t kind) {
    return kind == MT_MODULE_ELF ? "elf" : kind == MT_MODULE_MACHO ? "macho" : unknown(kind);
}

std::string end_reason_name(uint32_t reason) {
    switch (reason) {
    case MT_END_STOPPED: return "stopped";
    case MT_END_DISABLED: return "disabled";
    case MT_END_THREAD_EXIT: return "process-exit";
    default: return unknown(reason);
    }
}

std::vector<std::string> file_flag_names(uint32_t flags) {
    return names_of(flags, {{MT_FILE_FLAG_AGGREGATE, "aggregate"},
                            {MT_FILE_FLAG_SAMPLED, "sampled"},
                            {MT_FILE_FLAG_LIBUNWIND, "libunwind"},
                            {MT_FILE_FLAG_LIFETIMES, "lifetimes"},
                            {MT_FILE_FLAG_GC_EVENTS, "gc-events"}});
}

std::vector<std::string> class_flag_names(uint32_t flags) {
    return names_of(flags, {{MT_CLASS_ARRAY, "array"},
                            {MT_CLASS_STRING, "string"},
                            {MT_CLASS_VALUE_TYPE, "value-type"},
                            {MT_CLASS_UNRESOLVED, "unresolved"}});
}

std::vector<std::string> frame_flag_names(uint32_t flags) {
    return names_of(flags, {{MT_FRAME_FINAL, "final"},
                            {MT_FRAME_MERGED, "merged"},
                            {MT_FRAME_GC_SIZE_EXACT, "gc-size-exact"},
                            {MT_FRAME_GC_SIZE_ESTIMATED, "gc-size-estimated"},
                            {MT_FRAME_GC_FROM_PROFILER, "gc-from-profiler"},
                            {MT_FRAME_GC_INCOMPLETE, "gc-incomplete"}});
}

std::string join(const std::vector<std::string> &v, const char *sep) {
    std::string out;
    for (const std::string &s : v) out += (out.empty() ? "" : sep) + s;
    return out;
}

std::string utc_time(uint64_t unix_ns) {
    time_t secs = static_cast<time_t>(unix_ns / 1000000000u);
    struct tm tm {};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%09uZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<unsigned>(unix_ns % 1000000000u));
    return buf;
}

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string hex_bytes(const std::vector<uint8_t> &b) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (uint8_t x : b) {
        out += digits[x >> 4];
        out += digits[x & 15];
    }
    return out;
}

std::string printable(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        auto u = static_cast<uint8_t>(s[i]);
        size_t n = utf8_len(s, i);
        if (n > 1 || (n == 1 && u >= 0x20 && u != 0x7f)) {
            out.append(s.substr(i, n));  // valid UTF-8 passes through for the terminal to show
            i += n;
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
            ++i;
        }
    }
    return out;
}

std::string strf(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return std::string(buf, n < 0 ? 0 : std::min<size_t>(static_cast<size_t>(n), sizeof buf - 1));
}

}  // namespace mt::dump
