#include "frame_assembler.h"

namespace mt::reader::detail {

Frame *FrameAssembler::pending(uint64_t seq) {
    if (seq < next_seq_) return nullptr;
    return &pending_[seq];
}

Frame FrameAssembler::commit(Frame &&fields) {
    Frame f = std::move(fields);
    if (auto it = pending_.find(f.seq); it != pending_.end()) {
        f.event_list = std::move(it->second.event_list);
        f.aggregates = std::move(it->second.aggregates);
        f.gcs = std::move(it->second.gcs);
        f.deaths = std::move(it->second.deaths);
        f.marks = std::move(it->second.marks);
        pending_.erase(it);
    }
    // EVENTS carry ticks relative to the frame start (wrapping arithmetic keeps negative
    // offsets right), and only this chunk knows the start.
    for (Event &e : f.event_list) e.tick += f.start_tick;
    next_seq_ = f.seq + 1;
    return f;
}

uint64_t FrameAssembler::held_allocations(uint64_t seq) const {
    auto it = pending_.find(seq);
    if (it == pending_.end()) return 0;
    uint64_t n = it->second.event_list.size();
    for (const Aggregate &a : it->second.aggregates) n += a.samples;
    return n;
}

uint64_t FrameAssembler::uncommitted_records() const {
    uint64_t n = 0;
    for (const auto &[seq, f] : pending_) n += f.event_list.size() + f.aggregates.size();
    return n;
}

}  // namespace mt::reader::detail
