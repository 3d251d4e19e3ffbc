// damaged_samples.h — whole run.mt files, every chunk correctly signed, that a writer bug or a
// forged file could produce and the reader must refuse: a frame data chunk written twice, chunks
// of the other mode than the header says, GC/DEATHS chunks the header's flags rule out. Built
// from make_sample() so each is deterministic: reader-make-samples writes them into the fuzz
// seed corpus (tests/reader/corpus), and a test checks the committed copies are these bytes.
#ifndef MEMTRACER_TESTS_READER_DAMAGED_SAMPLES_H
#define MEMTRACER_TESTS_READER_DAMAGED_SAMPLES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mt::test {

struct Damaged {
    std::string name;             // file name, e.g. "dup-events.mt"
    std::vector<uint8_t> bytes;
    bool aggregate = false;       // made from the aggregate-mode sample
    uint64_t stop_offset = 0;     // the chunk the reader must stop at (Corrupt)
    std::string stop_chunk;       // its type, as the reason names it ("FRAME")
    size_t frames_kept = 0;       // frames committed before it, identical to the good sample's
    std::string reason;           // what the stop reason must contain after "<chunk> at offset N: "
};

std::vector<Damaged> damaged_samples();

// Offset of the n-th (from 0) chunk of `type` at or after `from` in an intact chunk sequence.
uint64_t find_chunk(const std::vector<uint8_t> &bytes, uint16_t type, uint64_t from = 64, size_t n = 0);

}  // namespace mt::test

#endif
