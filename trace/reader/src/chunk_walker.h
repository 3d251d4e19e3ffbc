// chunk_walker.h — framing of the chunk area: finds each chunk, checks its magic, size bound,
// presence and CRC, and classifies the first bad spot as Eof / Truncated / Corrupt. It knows
// nothing of payloads.
#ifndef MEMTRACER_READER_CHUNK_WALKER_H
#define MEMTRACER_READER_CHUNK_WALKER_H

#include <memtracer/reader.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace mt::reader::detail {

struct Chunk {
    uint64_t offset = 0;  // of the chunk header in the file
    uint16_t type = 0;
    const uint8_t *payload = nullptr;
    uint32_t size = 0;
    uint64_t end() const { return offset + 16 + size; }
};

struct StopAt {
    Stop stop = Stop::Eof;
    uint64_t offset = 0;
    std::string reason;
};

class ChunkWalker {
public:
    // `data` holds the file's bytes [base, base + size); positions are file offsets, start >= base.
    ChunkWalker(const uint8_t *data, size_t size, size_t start, uint64_t base = 0)
        : data_(data), size_(size), pos_(start), base_(base) {}

    // Fills `chunk` with the next intact chunk and returns true, or fills `stop` and returns
    // false. An intact chunk may still have an unknown type; decoding decides about that.
    bool next(Chunk &chunk, StopAt &stop);
    size_t pos() const { return pos_; }  // first byte not walked yet (FollowReader resumes here)

private:
    bool fail(StopAt &stop, Stop kind, std::string reason) const;
    bool check_header(const uint8_t *h, size_t avail, StopAt &stop) const;

    const uint8_t *data_;
    size_t size_;
    size_t pos_;
    uint64_t base_;
};

}  // namespace mt::reader::detail

#endif
