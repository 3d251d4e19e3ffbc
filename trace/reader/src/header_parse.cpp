#include "header_parse.h"

#include "memtracer/codec.h"
#include "text.h"

#include <memtracer/format.h>

#include <algorithm>
#include <cstring>

namespace mt::reader::detail {
namespace {

constexpr size_t kMagicLen = 8;
constexpr size_t kCrcOffset = offsetof(mt_file_header, header_crc);

uint64_t le64(const uint8_t *p) {
    return codec::get_le32(p) | static_cast<uint64_t>(codec::get_le32(p + 4)) << 32;
}

// A file shorter than the magic is foreign only if what it has disagrees with the magic;
// a true prefix of "MEMTRACE" is a header cut short (killed inside mt_start).
void check_magic(const uint8_t *data, size_t size) {
    if (size == 0) throw FormatError("not a run.mt: the file is empty (0 bytes)");
    size_t n = std::min(size, kMagicLen);
    if (std::memcmp(data, MT_FORMAT_MAGIC, n) != 0)
        throw FormatError("not a run.mt: magic is " + quoted_bytes(data, n) +
                          " at offset 0, expected 'MEMTRACE'");
}

void check_length(size_t size, size_t needed) {
    if (size < needed)
        throw FormatError("damaged header: the file has " + std::to_string(size) +
                          " bytes, a run.mt header needs " + std::to_string(sizeof(mt_file_header)));
}

void check_crc(const uint8_t *data) {
    uint32_t stored = codec::get_le32(data + kCrcOffset);
    uint32_t computed = codec::crc32c_update(0, data, kCrcOffset);
    if (stored != computed)
        throw FormatError("damaged header: header_crc at offset " + std::to_string(kCrcOffset) + " is " +
                          hex32(stored) + ", the 60 bytes before it hash to " + hex32(computed));
}

}  // namespace

Header parse_file_header(const uint8_t *data, size_t size) {
    check_magic(data, size);
    check_length(size, offsetof(mt_file_header, header_size));
    Header h;
    h.version = codec::get_le32(data + offsetof(mt_file_header, version));
    // The version is checked before the rest: a newer writer may lay out the rest differently.
    if (h.version < MT_FORMAT_VERSION_MIN || h.version > MT_FORMAT_VERSION)
        throw FormatError("format version " + std::to_string(h.version) + ", this reader knows " +
                          std::to_string(MT_FORMAT_VERSION_MIN) + " to " + std::to_string(MT_FORMAT_VERSION));
    check_length(size, sizeof(mt_file_header));
    check_crc(data);
    uint32_t header_size = codec::get_le32(data + offsetof(mt_file_header, header_size));
    if (header_size != sizeof(mt_file_header))
        throw FormatError("damaged header: header_size at offset 12 is " + std::to_string(header_size) +
                          ", version 1 headers are 64 bytes");
    h.start_unix_ns = le64(data + offsetof(mt_file_header, start_unix_ns));
    h.sample_interval_bytes = le64(data + offsetof(mt_file_header, sample_interval_bytes));
    h.flags = codec::get_le32(data + offsetof(mt_file_header, flags));
    h.pid = codec::get_le32(data + offsetof(mt_file_header, pid));
    h.pointer_size = codec::get_le16(data + offsetof(mt_file_header, pointer_size));
    h.max_stack_depth = codec::get_le16(data + offsetof(mt_file_header, max_stack_depth));
    h.arch = codec::get_le32(data + offsetof(mt_file_header, arch));
    return h;
}

}  // namespace mt::reader::detail
