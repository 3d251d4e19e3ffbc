#include "frame_aggs.h"

#include <cmath>

#include "lifetimes.h"
#include "memtracer/format.h"

namespace mt::sym {

namespace {

uint64_t rounded(double v) { return v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v)); }

}  // namespace

void sort_rows(AllocRows &rows) {
    std::sort(rows.begin(), rows.end(), [](const AllocRow &a, const AllocRow &b) { return a.key < b.key; });
}

void FrameAggs::drain(AllocRows &out, bool sorted) {
    auto &sums = table_.entries();
    auto &exact = exact_.entries();
    out.clear();
    out.reserve(sums.size() + exact.size());
    for (const auto &[key, g] : sums) out.push_back({key, rounded(g.count), rounded(g.requested), rounded(g.gc)});
    for (const auto &[key, g] : exact) out.push_back({key, g.count, g.requested, g.gc});
    table_.clear();
    exact_.clear();
    if (sorted) sort_rows(out);  // a frame's keys are all in one of the two tables
}

FrameDigester::FrameDigester(const mt::reader::Header &h, bool split_threads)
    : sample_interval_(static_cast<double>(h.sample_interval_bytes)),
      aggregate_mode_((h.flags & MT_FILE_FLAG_AGGREGATE) != 0),
      split_(split_threads && !aggregate_mode_) {}

void FrameDigester::sum(const mt::reader::Frame &f, AllocRows &rows, Lifetimes *lifetimes, bool sorted) {
    if (aggregate_mode_) {
        for (const auto &a : f.aggregates) {
            Agg &g = aggs_[AggKey{a.class_id, a.stack_id, -1}];
            g.count += static_cast<double>(a.count);
            g.requested += static_cast<double>(a.requested_bytes);
            g.gc += static_cast<double>(a.gc_bytes);
        }
    } else if (sample_interval_ <= 0) {
        for (const auto &e : f.event_list) {
            const int64_t thread = split_ ? static_cast<int64_t>(e.thread) : -1;
            if (split_ && lifetimes) lifetimes->on_event(e.address, f.seq, e.thread, e.class_id, e.stack_id);
            ExactAgg &g = aggs_.exact(AggKey{e.class_id, e.stack_id, thread});
            g.count += 1;
            g.requested += e.size;
            g.gc += e.gc_size;
        }
    } else {
        for (const auto &e : f.event_list) {
            double w = 1;
            if (sample_interval_ > 0) {
                double p = -std::expm1(-static_cast<double>(e.size) / sample_interval_);
                w = p > 0 ? 1 / p : 1;
            }
            const int64_t thread = split_ ? static_cast<int64_t>(e.thread) : -1;
            if (split_ && lifetimes) lifetimes->on_event(e.address, f.seq, e.thread, e.class_id, e.stack_id);
            Agg &g = aggs_[AggKey{e.class_id, e.stack_id, thread}];
            g.count += w;
            g.requested += w * static_cast<double>(e.size);
            g.gc += w * static_cast<double>(e.gc_size);
        }
    }
    aggs_.drain(rows, sorted);
}

// Every field of a Frame but its event records (a field added to Frame is copied here too).
static_assert(sizeof(mt::reader::Frame) == 10 * 8 + 8 + 5 * sizeof(std::vector<int>), "copy the new Frame field below");

void FrameDigester::digest(const mt::reader::Frame &f, FrameDigest &out) {
    mt::reader::Frame &d = out.frame;
    d.seq = f.seq;
    d.index = f.index;
    d.start_tick = f.start_tick;
    d.end_tick = f.end_tick;
    d.events = f.events;
    d.requested_bytes = f.requested_bytes;
    d.gc_bytes = f.gc_bytes;
    d.dropped = f.dropped;
    d.heap_size = f.heap_size;
    d.free_bytes = f.free_bytes;
    d.flags = f.flags;
    d.gcs = f.gcs;
    d.deaths = f.deaths;
    d.marks = f.marks;
    out.records = aggregate_mode_ ? f.aggregates.size() : f.event_list.size();
    sum(f, out.rows, nullptr, false);
}

}  // namespace mt::sym
