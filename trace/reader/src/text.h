// text.h — the few formatting helpers the reader's messages need (GCC 12 has no std::format).
#ifndef MEMTRACER_READER_TEXT_H
#define MEMTRACER_READER_TEXT_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace mt::reader::detail {

std::string hex32(uint32_t v);                          // "0x1234abcd"
std::string quoted_bytes(const uint8_t *p, size_t n);   // 'MEMT\x00' : printable kept, rest \xNN
std::string chunk_type_name(uint32_t type);             // "EVENTS", or "unknown type 13"

}  // namespace mt::reader::detail

#endif
