// trace_fixture.h — run.mt files for the reader tests, written by the runtime's own encoder
// (runtime/src/trace_writer.h) into a memfd, plus the Run a correct reader must return, built
// from the same records rather than by reading. raw_chunk() crafts exact bytes for the cases no
// honest writer produces (bad varints, unknown ids).
#ifndef MEMTRACER_TESTS_READER_TRACE_FIXTURE_H
#define MEMTRACER_TESTS_READER_TRACE_FIXTURE_H

#include "memtracer/trace_writer.h"

#include <memtracer/reader.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace mt::test {

// A TraceWriter whose file is an anonymous memfd; each chunk() call flushes and records where
// the chunk ended, so tests know every chunk boundary without parsing.
class MemTrace {
public:
    MemTrace();
    ~MemTrace();
    MemTrace(const MemTrace &) = delete;
    MemTrace &operator=(const MemTrace &) = delete;

    trace::TraceWriter w;
    void chunk();  // flush what was appended since the last call as one unit
    std::vector<uint8_t> bytes() const;
    std::vector<uint64_t> boundaries;  // file offsets at which a flushed unit ends

private:
    int fd_;
};

struct SampleOptions {
    bool aggregate = false;  // AGGREGATES instead of EVENTS
    bool with_end = true;    // COUNTERS + END at the end
};

struct Sample {
    std::vector<uint8_t> bytes;
    std::vector<uint64_t> boundaries;  // every chunk end; the first is 64 (header)
    std::vector<uint64_t> frame_ends;  // frame_ends[seq]: offset just past that FRAME chunk
    reader::Run expected;              // result.stop/offset/counters for the whole file
};

// A small run with every chunk type: two threads (one renamed later), classes and modules added
// mid-run, negative tick and address deltas, several EVENTS chunks per frame, one frame's data
// arriving before the previous frame's commit, GCs, deaths, an empty frame.
Sample make_sample(const SampleOptions &opt = {});

// Chunk ends of an intact file, found by walking the chunk headers' size fields (independently
// of the reader): boundaries has 64 and every chunk end; frame_ends the end of each FRAME chunk.
struct ChunkMap {
    std::vector<uint64_t> boundaries, frame_ends;
};
ChunkMap map_chunks(const std::vector<uint8_t> &bytes);

// Reads the first `len` bytes of `bytes` and requires what a kill at that point must give:
// exactly the frames of `full` whose FRAME chunk ends by `len`, identical; Eof on a boundary,
// End at the full length (when full ends with END), else Truncated at the last boundary; the
// uncommitted count of the frame data chunks before it. Under len 64, a FormatError.
void check_prefix(const std::vector<uint8_t> &bytes, const ChunkMap &map, const reader::Run &full, size_t len);

// Reads `bytes` with byte `pos` (in the chunk area) xor `mask` and requires Corrupt or Truncated
// at the damaged chunk or before it, with a sentence naming that offset, and exactly the frames
// of `full` committed before that point, identical.
void check_flip(const std::vector<uint8_t> &bytes, const ChunkMap &map, const reader::Run &full, size_t pos,
                uint8_t mask);

// Writes a valid header (by the real writer) and returns its 64 bytes.
std::vector<uint8_t> header_bytes(uint32_t flags = 0);

// Varint payload builder and a chunk with a correct CRC around any payload.
struct Payload {
    std::vector<uint8_t> b;
    Payload &u(uint64_t v);
    Payload &s(int64_t v);
    Payload &str(const std::string &v);
    Payload &raw(std::initializer_list<uint8_t> bytes);
};
void raw_chunk(std::vector<uint8_t> &out, uint16_t type, const std::vector<uint8_t> &payload);

// Re-signs a header after a test changed fields in it.
void fix_header_crc(std::vector<uint8_t> &file);

std::vector<uint8_t> read_all(const std::string &path);
void write_all(const std::string &path, const std::vector<uint8_t> &bytes);

}  // namespace mt::test

#endif
