// describe.h — words and numbers shared by the text and JSON printers: enum names, flag lists,
// UTC times, hex, and a text-safe rendering of raw strings from the file.
#ifndef MEMTRACER_DUMP_DESCRIBE_H
#define MEMTRACER_DUMP_DESCRIBE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mt::dump {

std::string arch_name(uint32_t arch);         // "x86_64", "arm64", "unknown(7)"
std::string module_kind_name(uint32_t kind);  // "elf", "macho"
std::string end_reason_name(uint32_t reason);
std::vector<std::string> file_flag_names(uint32_t flags);
std::vector<std::string> class_flag_names(uint32_t flags);
std::vector<std::string> frame_flag_names(uint32_t flags);
std::string join(const std::vector<std::string> &v, const char *sep);
std::string utc_time(uint64_t unix_ns);  // "2023-11-14T22:13:20.123456789Z"
std::string hex(uint64_t v);             // "0x7f12..."
std::string hex_bytes(const std::vector<uint8_t> &b);  // "deadbeef..."
std::string printable(std::string_view s);  // control bytes as \xNN, so one string is one line
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace mt::dump

#endif
