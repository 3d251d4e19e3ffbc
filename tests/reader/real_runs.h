// real_runs.h — the allocation pattern reader-make-real-runs feeds the real runtime, so tests can
// check every event read back against what was allocated without keeping a list: the address
// encodes frame, thread and index; size and class follow from the index.
#ifndef MEMTRACER_TESTS_READER_REAL_RUNS_H
#define MEMTRACER_TESTS_READER_REAL_RUNS_H

#include <cstdint>

namespace mt::test::real {

constexpr int kThreads = 2;        // main + "worker"
constexpr int kPerThread = 24;     // allocations per thread per frame
constexpr int kFrames = 6;         // mt_frame_end calls in a complete run
constexpr uint64_t kFirstIndex = 100;  // frame_index passed for frame 0
const char *const kClassNames[3] = {"String", "Int32[]", "Player"};

inline uint64_t address(uint64_t frame, uint64_t thread, uint64_t i) {
    return 0x7e0000000000ull + (frame << 24) + (thread << 20) + i * 64;
}
inline uint64_t frame_of(uint64_t addr) { return (addr - 0x7e0000000000ull) >> 24; }
inline uint64_t index_of(uint64_t addr) { return (addr & 0xfffff) / 64; }
inline uint64_t size_of(uint64_t i) { return 16 + i; }
inline int class_of(uint64_t i) { return static_cast<int>(i % 3); }

}  // namespace mt::test::real

#endif
