// frame_assembler.h — holds frame data (events, aggregates, GCs, deaths) per frame_seq until that
// frame's FRAME chunk commits it. What is still held at the end of the file was never committed
// and is only counted, never delivered.
#ifndef MEMTRACER_READER_FRAME_ASSEMBLER_H
#define MEMTRACER_READER_FRAME_ASSEMBLER_H

#include <memtracer/reader.h>

#include <cstdint>
#include <map>

namespace mt::reader::detail {

class FrameAssembler {
public:
    // The frame that data for `seq` accumulates in, or nullptr if `seq` is already committed.
    Frame *pending(uint64_t seq);

    // Moves the data held for fields.seq into `fields`, resolves event ticks against the frame's
    // start tick, and returns the complete frame. The caller checked fields.seq == next_seq().
    Frame commit(Frame &&fields);

    // Allocations the data held for `seq` records: its events, or in aggregate mode the sum of
    // its rows' samples (what the writer counts in FRAME.events; count is an estimate when
    // sampled). A file holds one kind only (Session::check_mode), so the sum covers both.
    uint64_t held_allocations(uint64_t seq) const;

    uint64_t next_seq() const { return next_seq_; }
    uint64_t uncommitted_records() const;  // events + aggregate records never committed

private:
    std::map<uint64_t, Frame> pending_;  // a few entries at most: the writer commits in order
    uint64_t next_seq_ = 0;
};

}  // namespace mt::reader::detail

#endif
