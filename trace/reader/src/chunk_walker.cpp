#include "chunk_walker.h"

#include <cstddef>

#include "crc_fast.h"
#include "memtracer/codec.h"
#include "text.h"

#include <memtracer/format.h>

#include <algorithm>

namespace mt::reader::detail {
namespace {

constexpr size_t kHead = sizeof(mt_chunk_header);

std::string at(uint64_t offset) { return " at offset " + std::to_string(offset); }

}  // namespace

bool ChunkWalker::fail(StopAt &stop, Stop kind, std::string reason) const {
    stop.stop = kind;
    stop.offset = pos_;
    stop.reason = std::move(reason);
    return false;
}

// A kill mid-write leaves a prefix of a real header, so a partial header that still matches the
// magic is a truncation; one that does not is damage.
bool ChunkWalker::check_header(const uint8_t *h, size_t avail, StopAt &stop) const {
    uint8_t magic[4];
    codec::put_le32(magic, MT_CHUNK_MAGIC);
    size_t n = std::min<size_t>(avail, 4);
    if (!std::equal(h, h + n, magic))
        return fail(stop, Stop::Corrupt,
                    "bad chunk magic" + at(pos_) + ": expected 'MTCK', found " + quoted_bytes(h, n));
    if (avail < kHead)
        return fail(stop, Stop::Truncated,
                    "the file ends inside a chunk header" + at(pos_) + ": " + std::to_string(avail) +
                        " of 16 bytes present");
    return true;
}

bool ChunkWalker::next(Chunk &chunk, StopAt &stop) {
    size_t avail = static_cast<size_t>(base_ + size_ - pos_);
    if (avail == 0)
        return fail(stop, Stop::Eof,
                    "the file ends on a chunk boundary" + at(pos_) +
                        " without an END chunk: the capture was not stopped (process killed, or still running)");
    const uint8_t *h = data_ + (pos_ - base_);
    if (!check_header(h, avail, stop)) return false;
    uint16_t type = codec::get_le16(h + offsetof(mt_chunk_header, type));
    uint16_t flags = codec::get_le16(h + offsetof(mt_chunk_header, flags));
    uint32_t size = codec::get_le32(h + offsetof(mt_chunk_header, size));
    uint32_t crc = codec::get_le32(h + offsetof(mt_chunk_header, crc));
    std::string what = chunk_type_name(type) + " chunk" + at(pos_);
    if (size > MT_MAX_CHUNK_PAYLOAD)
        return fail(stop, Stop::Corrupt,
                    what + " declares a " + std::to_string(size) + "-byte payload, above the " +
                        std::to_string(MT_MAX_CHUNK_PAYLOAD) + "-byte limit");
    if (avail - kHead < size)
        return fail(stop, Stop::Truncated,
                    "the file ends inside the payload of the " + what + ": its header says " +
                        std::to_string(size) + " bytes, " + std::to_string(avail - kHead) + " are present");
    uint32_t computed = trace::chunk_crc_fast(type, flags, size, h + kHead);  // the table walk was a sixth of an ingest
    if (computed != crc) {
        std::string crcs = "expected CRC " + hex32(crc) + " (from the chunk header), computed " + hex32(computed);
        // A kill cannot tear the middle of a file, only its end: a bad last chunk is a torn write.
        if (avail - kHead == size)
            return fail(stop, Stop::Truncated,
                        "the last chunk, " + what + " (" + std::to_string(size) +
                            " bytes), ends at the end of the file and fails its CRC: torn final write; " + crcs);
        return fail(stop, Stop::Corrupt, "CRC mismatch in the " + what + " (" + std::to_string(size) +
                                             " bytes): " + crcs);
    }
    if (flags != 0)
        return fail(stop, Stop::Corrupt, what + " has flags " + std::to_string(flags) + ", version 1 writes 0");
    chunk = Chunk{pos_, type, h + kHead, size};
    pos_ += kHead + size;
    return true;
}

}  // namespace mt::reader::detail
