// frame_writer.h — the per-frame tables of one run: frames, gc_events, allocs (raw events are
// summed per (frame, class, stack) by a FrameDigester, frame_aggs.h: here, or on the reading
// thread of run_ingest_pipe.h), deaths, and at the end run_class_stack and survivors. Times
// become nanoseconds relative to the run's first frame start.
//
// Sampled raw-mode runs: each recorded event stands for 1/p allocations, p = 1 - exp(-size /
// sample_interval) being the chance the runtime's byte-interval sampler picks an allocation of
// that requested size; counts and bytes are weighted by it (aggregate mode is weighted already).
//
// Thread split (schema version 2): allocs, run_class_stack, death_sites and survivors get a row per
// allocating thread (the events' `thread`). Aggregate-mode captures carry no thread per record and
// `split_threads = false` (memtracer-symbolize --no-threads) writes one row per (class, stack) with
// thread_id -1, the smaller file; runs.thread_split says which. Sampled runs round the weighted
// estimates per thread row, so a (class, stack)'s total may differ from the unsplit one by the
// rounding of each of its thread rows.
#ifndef MEMTRACER_SYM_FRAME_WRITER_H
#define MEMTRACER_SYM_FRAME_WRITER_H

#include <cstdint>
#include <optional>
#include <vector>

#include "frame_aggs.h"
#include "lifetimes.h"
#include "site_lifetimes.h"
#include "memtracer/reader.h"
#include "memtracer/store/batch_insert.h"
#include "memtracer/store/db.h"
#include "memtracer/symbolizer/results.h"

namespace mt::sym {

class FrameWriter {
public:
    FrameWriter(store::Db &db, int64_t run_id, const mt::reader::Header &h, bool split_threads = true);
    bool thread_split() const { return split_; }
    void add(const mt::reader::Frame &f);
    // The same for a frame whose events were summed elsewhere (FrameDigester, same header and
    // split; not for a lifetimes run, whose events the writer sees one by one).
    void add(FrameDigest &d);  // sorts d.rows (FrameDigest leaves them unsorted)
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
    using Key = AggKey;
    struct RunAgg {
        uint64_t count = 0, requested = 0, gc = 0, first_seq = 0, last_seq = 0;
        bool dirty = false;  // changed since the last flush()
    };
    void write(const mt::reader::Frame &f, uint64_t records, const AllocRows &rows);
    void write_allocs(uint64_t seq, const AllocRows &rows);
    void write_deaths(const mt::reader::Frame &f);

    int64_t run_id_;
    double ns_per_tick_;
    bool aggregate_mode_;
    bool split_;
    FrameDigester digester_;  // add(Frame)'s
    store::Stmt death_, survivor_, marker_;
    // 64 rows a statement (a statement per frame was 100k single-row steps of a session ingest);
    // run_class_stack too (a statement per row was 8,000 instructions a row: 24k rows, 9% of a
    // warm ingest's, docs/benchmarks.md, issue 22, eighth session).
    store::BatchInsert allocs_, frames_, gcs_, rcs_;
    AllocRows rows_;  // add(Frame)'s, reused per frame
    AggTable<RunAgg> run_aggs_;
    std::vector<uint32_t> dirty_;  // positions in run_aggs_ with dirty set
    std::vector<int64_t> death_threads_;  // per death of the current frame
    std::optional<Lifetimes> lifetimes_;
    std::optional<DeathSites> death_sites_;  // with lifetimes_
    uint64_t last_gc_seq_ = 0;               // last frame with deaths
    RunTotals totals_;
};

}  // namespace mt::sym

#endif
