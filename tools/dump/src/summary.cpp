#include "summary.h"

#include <algorithm>

namespace mt::dump {
namespace {

// The FRAME chunk's fields without the lists, so rows of a large capture stay small.
reader::Frame fields_of(const reader::Frame &f) {
    reader::Frame h;
    h.seq = f.seq, h.index = f.index, h.start_tick = f.start_tick, h.end_tick = f.end_tick;
    h.events = f.events, h.requested_bytes = f.requested_bytes, h.gc_bytes = f.gc_bytes, h.dropped = f.dropped;
    h.heap_size = f.heap_size, h.free_bytes = f.free_bytes, h.flags = f.flags;
    return h;
}

}  // namespace

void SummaryCollector::on_thread(const reader::Thread &t) {
    if (t.id < s_.threads.size())
        s_.threads[t.id] = t;  // a rename
    else
        s_.threads.push_back(t);
}

void SummaryCollector::on_stack(const reader::Stack &st) {
    ++s_.stacks;
    s_.stack_frames += st.frames.size();
    s_.max_stack_depth = std::max<uint64_t>(s_.max_stack_depth, st.frames.size());
}

void SummaryCollector::on_frame(const reader::Frame &f) {
    uint64_t records = f.event_list.size() + f.aggregates.size();
    Totals &t = s_.totals;
    t.ticks += f.end_tick - f.start_tick;
    t.events += f.events;
    t.records += records;
    t.requested_bytes += f.requested_bytes;
    t.gc_bytes += f.gc_bytes;
    t.dropped += f.dropped;
    t.gcs += f.gcs.size();
    t.deaths += f.deaths.size();
    t.max_heap = std::max(t.max_heap, f.heap_size);
    for (const reader::Mark &m : f.marks) s_.marks.push_back({f.seq, f.index, m.tick, f.start_tick, m.label});
    ++s_.committed;
    if (s_.rows.size() >= opts_.frames) return;
    s_.rows.push_back({opts_.events ? f : fields_of(f), records, f.gcs.size(), f.deaths.size()});
}

}  // namespace mt::dump
