// header_parse.h — validation of the 64-byte file header, the only part of a run.mt whose damage
// makes the whole file unreadable (and so the only place the reader throws).
#ifndef MEMTRACER_READER_HEADER_PARSE_H
#define MEMTRACER_READER_HEADER_PARSE_H

#include <memtracer/reader.h>

#include <cstddef>
#include <cstdint>

namespace mt::reader::detail {

// Returns the decoded header (info and tick_hz left at their defaults; INFO is a chunk) or
// throws FormatError saying what is wrong and where.
Header parse_file_header(const uint8_t *data, size_t size);

}  // namespace mt::reader::detail

#endif
