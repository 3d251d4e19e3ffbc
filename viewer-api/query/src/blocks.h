// blocks.h — per-block (class, stack) totals of a run, kept in memory, so a frame range is the
// sum of the blocks inside it plus a scan of its two partial ends, never a scan of the whole
// range: a filtered TopN over half of a 50,000-frame run went from ~0.7 s to tens of ms.
// Built on first use with one scan of the run's allocs rows; shared by every connection of the
// process. A run's committed frames never change; a run still growing (--live) gets its new full
// blocks added to its entry, never a stale total (test_query_growing.cpp).
#ifndef MEMTRACER_VIEWER_BLOCKS_H
#define MEMTRACER_VIEWER_BLOCKS_H

#include <cstdint>
#include <memory>
#include <vector>

#include "model.h"

namespace mt::viewer {

struct RunBlocks {
    int64_t block = 0;                        // frames per block
    std::vector<std::vector<ClassStack>> sums;  // sums[k]: frames [k*block, (k+1)*block)
};

// Frames per block for a run of `frames`: about 50 blocks, 32..1024 frames each.
int64_t block_frames(int64_t frames);
// The run's block size: a growing run keeps a fixed one, so its entry only ever grows.
int64_t block_frames(const RunRow &run);
// The run's blocks, built (one scan) on first use; block_frames(run) frames each. Only full
// blocks are held: at least run.frames / block of them. With `threads` (a thread filter's ids),
// the blocks of those threads' rows only: a thread-filtered long range is as cheap as another.
std::shared_ptr<const RunBlocks> run_blocks(Database &db, const RunRow &run, const std::vector<int64_t> &threads = {});

}  // namespace mt::viewer

#endif
