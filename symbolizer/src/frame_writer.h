// frame_writer.h — the per-frame tables of one run: frames, gc_events, allocs (raw events are
// aggregated per (frame, class, stack) here), deaths, and at the end run_class_stack and
// survivors. Times become nanoseconds relative to the run's first frame start.
//
// Sampled raw-mode runs: each recorded event stands for 1/p allocations, p = 1 - exp(-size /
// sample_interval) being the chance the runtime's byte-interval sampler picks an allocation of
// that requested size; counts and bytes are weighted by it (aggregate mode is weighted already).
#ifndef MEMTRACER_SYM_FRAME_WRITER_H
#define MEMTRACER_SYM_FRAME_WRITER_H

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "lifetimes.h"
#include "site_lifetimes.h"
#include "memtracer/reader.h"
#include "store_use.h"

namespace mt::sym {

struct RunTotals {
    uint64_t frames = 0, events = 0, alloc_count = 0, requested_bytes = 0, gc_bytes = 0, dropped = 0, gc_count = 0;
    uint64_t first_tick = 0, last_tick = 0;
    bool any_frame = false;
};

class FrameWriter {
public:
    FrameWriter(Db &db, int64_t run_id, const mt::reader::Header &h);
    void add(const mt::reader::Frame &f);
    // Writes the pending allocs rows and the run_class_stack rows of the (class, stack) pairs
    // allocated since the last flush, with their run totals so far: after each batch of a
    // followed run, the tables are what a whole-file ingest of the same frames writes.
    void flush();
    // flush(), then survivors; call once after the last frame.
    void finish();
    const RunTotals &totals() const { return totals_; }
    int64_t ns(uint64_t tick) const;  // relative to the first frame's start
    bool has_lifetimes() const { return lifetimes_.has_value(); }

private:
    struct Agg {
        double count = 0, requested = 0, gc = 0;
    };
    struct RunAgg {
        uint64_t count = 0, requested = 0, gc = 0, first_seq = 0, last_seq = 0;
        bool dirty = false;  // changed since the last flush()
    };
    void aggregate_events(const mt::reader::Frame &f);
    void write_allocs(uint64_t seq);
    void write_deaths(const mt::reader::Frame &f);

    int64_t run_id_;
    double ns_per_tick_;
    double sample_interval_;
    bool aggregate_mode_;
    Stmt frame_, gc_, death_, rcs_, survivor_, marker_;
    BatchInsert allocs_;
    std::unordered_map<uint64_t, Agg> frame_aggs_;     // (class << 32 | stack), reused per frame
    std::vector<std::pair<uint64_t, Agg>> sorted_;
    std::unordered_map<uint64_t, RunAgg> run_aggs_;
    std::vector<uint64_t> dirty_;  // keys of run_aggs_ with dirty set
    std::optional<Lifetimes> lifetimes_;
    std::optional<DeathSites> death_sites_;  // with lifetimes_
    uint64_t last_gc_seq_ = 0;               // last frame with deaths
    RunTotals totals_;
};

}  // namespace mt::sym

#endif
