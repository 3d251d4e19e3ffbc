// writer_commit.cpp — how the writer thread puts frames into the file (see writer.h): dictionary
// chunks first, then the frame's data, then FRAME, all in one batch and one write(2).
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "clock.h"
#include "errors.h"
#include "stream_sink.h"
#include "writer.h"

namespace mt::rt {

namespace {

uint64_t round_u64(double v) { return v <= 0 ? 0 : static_cast<uint64_t>(v + 0.5); }

// The COUNTERS chunk is trace's record (format.h's MT_COUNTERS_FIELDS); the game reads the same
// counters as mt_counters. A counter added to mt_counters but not to the table would silently not
// be written, so the table must cover every field (and naming one mt_counters lacks fails to build).
#define MT_COUNTER_SIZE(kind, m, label) +sizeof(mt_counters::m)
static_assert(0 MT_COUNTERS_FIELDS(MT_COUNTER_SIZE) == sizeof(mt_counters),
              "MT_COUNTERS_FIELDS (format.h) must list every mt_counters field");
#undef MT_COUNTER_SIZE

trace::CountersRecord counters_record(const mt_counters &c) {
    trace::CountersRecord r;
#define MT_COUNTER_COPY(kind, m, label) r.m = c.m;
    MT_COUNTERS_FIELDS(MT_COUNTER_COPY)
#undef MT_COUNTER_COPY
    return r;
}

}  // namespace

uint64_t Writer::dropped_total() const {
    uint64_t n = g.noslot_dropped.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < g.max_threads; ++i) {
        const ThreadSlot &s = g.slots[i];
        if (s.counters_gen.load(std::memory_order_acquire) == cfg_.gen)
            n += s.counters.dropped.load(std::memory_order_relaxed);
    }
    return n;
}

void counters_snapshot(const Writer *w, mt_counters *out) {
    memset(out, 0, sizeof *out);
    uint64_t gen = w->gen();
    out->allocations_seen = g.noslot_seen.load(std::memory_order_relaxed);
    out->events_dropped = g.noslot_dropped.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < MT_MAX_THREADS; ++i) {
        const ThreadSlot &s = g.slots[i];
        if (s.counters_gen.load(std::memory_order_acquire) != gen) continue;
        out->allocations_seen += s.counters.seen();
        out->events_recorded += s.counters.recorded.load(std::memory_order_relaxed);
        out->events_dropped += s.counters.dropped.load(std::memory_order_relaxed);
        out->events_sampled_out += s.counters.sampled_out.load(std::memory_order_relaxed);
        out->reentrant_skipped += s.counters.reentrant.load(std::memory_order_relaxed);
    }
    const WriterCounters &wc = w->counters;
    out->events_written = wc.events_written.load(std::memory_order_relaxed);
    out->bytes_written = wc.bytes_written.load(std::memory_order_relaxed);
    out->frames_written = wc.frames_written.load(std::memory_order_relaxed);
    out->stacks_known = wc.stacks_known.load(std::memory_order_relaxed);
    out->classes_known = wc.classes_known.load(std::memory_order_relaxed);
    out->threads_known = g.next_thread_id.load(std::memory_order_relaxed);
    out->last_flush_unix_ns = wc.last_flush_unix_ns.load(std::memory_order_relaxed);
    out->last_flush_duration_ns = wc.last_flush_duration_ns.load(std::memory_order_relaxed);
    out->running = g.live.load(std::memory_order_relaxed);
    out->paused = g.paused.load(std::memory_order_relaxed);
    out->disabled = g.disabled.load(std::memory_order_acquire);
    out->gc_callback_rechains = gc_hooks_rechains();
}

void Writer::write_dicts() {
    if (modules_.changed()) modules_.scan(d_modules_);
    trace::ListEncoder *dicts[] = {&d_modules_, &d_threads_, &d_classes_, &d_stacks_};
    const uint16_t types[] = {MT_CHUNK_MODULES, MT_CHUNK_THREADS, MT_CHUNK_CLASSES, MT_CHUNK_STACKS};
    for (int i = 0; i < 4; ++i) {
        if (dicts[i]->count() == 0) continue;
        out_.dict_list(types[i], *dicts[i]);
        dicts[i]->begin();
    }
}

void Writer::commit_ready(bool final) {
    while (!failed() && next_commit_ < known_ends_) {
        OpenFrame &f = frame_at(next_commit_);
        // Grace: a drain after the end was seen, and time for a preempted producer to push.
        if (!final && (f.ended_iter >= iter_ || mono_ns() - f.ended_ns < kGraceNs)) return;
        commit(f, 0);
    }
}

void Writer::commit(OpenFrame &f, uint32_t extra_flags) {
    uint64_t t0 = mono_ns();
    write_dicts();
    if (cfg_.mode == MT_MODE_EVENTS) {
        if (f.staged.count()) {
            out_.frame_list(MT_CHUNK_EVENTS, f.seq, f.staged);
            counters.events_written.fetch_add(f.staged.count(), std::memory_order_relaxed);
        }
    } else if (f.agg.size()) {
        trace::ListEncoder enc;
        enc.begin();
        for (uint32_t i = 0; i < f.agg.size(); ++i) {
            const AggEntry &a = f.agg[i];
            if (cfg_.sample_interval)
                enc.add(trace::AggregateRecord{a.class_id, a.stack_id, round_u64(a.est_count), round_u64(a.est_requested),
                                        round_u64(a.est_gc), a.samples});
            else
                enc.add(trace::AggregateRecord{a.class_id, a.stack_id, a.samples, a.requested, a.gc, a.samples});
        }
        out_.frame_list(MT_CHUNK_AGGREGATES, f.seq, enc);
        counters.events_written.fetch_add(f.events, std::memory_order_relaxed);
    }
    if (f.gcs.count()) out_.frame_list(MT_CHUNK_GC, f.seq, f.gcs);
    if (f.deaths.count()) out_.frame_list(MT_CHUNK_DEATHS, f.seq, f.deaths);
    if (f.marks.count()) out_.frame_list(MT_CHUNK_MARKS, f.seq, f.marks);
    uint64_t dropped = dropped_total();
    trace::FrameRecord fr;
    fr.seq = f.seq;
    fr.index = f.end.index;
    fr.start_tick = f.start_tick;
    fr.end_tick = f.end.end_tick;
    fr.events = f.events;
    fr.requested_bytes = f.requested;
    fr.gc_bytes = f.gc_bytes;
    fr.dropped = dropped - dropped_at_commit_;
    fr.heap_size = f.end.heap_size;
    fr.free_bytes = f.end.free_bytes;
    fr.flags = (f.end.merged ? static_cast<uint32_t>(MT_FRAME_MERGED) : 0u) | extra_flags | gc_source_frame_flags() |
               gc_hooks_frame_flags() | (f.gc_incomplete ? static_cast<uint32_t>(MT_FRAME_GC_INCOMPLETE) : 0u);
    out_.frame(fr);
    if (!flush(true)) return;
    dropped_at_commit_ = dropped;
    last_index_ = f.end.index;
    any_index_ = true;
    ++next_commit_;
    release_frame(f);  // its staging memory is the next frame's (writer.h, the frame pool)
    cached_epoch_ = kNoEpoch;  // records still carrying its epoch are late now
    counters.frames_written.fetch_add(1, std::memory_order_relaxed);
    counters.last_flush_unix_ns.store(wall_ns(), std::memory_order_relaxed);
    counters.last_flush_duration_ns.store(mono_ns() - t0, std::memory_order_relaxed);
}

void Writer::flush_staging() {
    write_dicts();
    for (uint64_t seq = next_commit_; seq <= known_ends_; ++seq) {
        OpenFrame &f = frame_at(seq);
        if (!f.staged.count()) continue;
        out_.frame_list(MT_CHUNK_EVENTS, seq, f.staged);
        counters.events_written.fetch_add(f.staged.count(), std::memory_order_relaxed);
        f.staged.begin(f.start_tick);
    }
    flush(false);
}

// A frame list that reached kChunkSpill becomes a chunk now, in the batch (dictionaries first:
// its ids may be new); the next flush writes it. No write here: this runs inside the drain and
// inside the lifetimes table's callbacks.
void Writer::spill(OpenFrame &f, trace::ListEncoder &l, uint16_t type) {
    write_dicts();
    out_.frame_list(type, f.seq, l);
    if (type == MT_CHUNK_EVENTS) counters.events_written.fetch_add(l.count(), std::memory_order_relaxed);
    l.begin(type == MT_CHUNK_EVENTS ? f.start_tick : 0);
    spilled_ = true;
}

bool Writer::flush(bool frame_commit) {
    if (!out_.flush()) {
        disable(out_.error());
        return false;
    }
    counters.bytes_written.store(out_.bytes_written(), std::memory_order_relaxed);
    if (sink_) sink_->committed(out_.bytes_written());
    if (frame_commit && (cfg_.flags & MT_FLAG_FSYNC)) fsync(out_.fd());
    return true;
}

// The file cannot take more (or memory ran out): stop recording, keep what is on disk, and try
// to say why in an END chunk. The TraceWriter already cut the file back to a chunk boundary.
void Writer::disable(const char *why) {
    if (failed()) return;
    failed_.store(true, std::memory_order_release);
    g.enabled.store(0, std::memory_order_relaxed);
    if (lifetimes_) lifetimes_end();  // no collection may wait for a writer that has stopped
    set_last_error("memtracer disabled itself: %s", why);
    g.disabled.store(1, std::memory_order_release);  // whoever sees disabled sees the why
    bridge_set_recording(false);  // the game's allocations stop calling mt_on_alloc
    // A full disk may have room for a short END but not a long one: try the sentence, then
    // the bare errno text.
    int err = out_.last_errno();
    out_.end(MT_END_DISABLED, why);
    bool ended = out_.flush();
    if (!ended && err) {
        out_.end(MT_END_DISABLED, strerror(err));
        ended = out_.flush();
    }
    if (ended) counters.bytes_written.store(out_.bytes_written(), std::memory_order_relaxed);
    if (ended && sink_) sink_->committed(out_.bytes_written());
}

void Writer::finish() {
    // Everything after the last frame end becomes one FINAL frame.
    OpenFrame &f = frame_at(known_ends_);
    f.end.epoch = known_ends_;
    // Frame ends the queue could not take are folded into this last frame.
    uint64_t merged_index = 0;
    f.end.merged = frames_pending_merge(&merged_index);
    f.end.index = f.end.merged ? merged_index : any_index_ ? last_index_ + 1 : 0;
    f.end.end_tick = end_tick_;
    if (g.gc_frame_stats) gc_heap_sample(&f.end.heap_size, &f.end.free_bytes);
    if (lifetimes_) take_deaths();  // collections since the last drain
    commit(f, MT_FRAME_FINAL);
    if (failed()) return;
    uint64_t timeouts = lifetimes_ ? lifetimes_stats().drain_timeouts : 0;
    mt_counters c;
    counters_snapshot(this, &c);
    out_.counters(counters_record(c));
    uint64_t late = counters.late_events.load(std::memory_order_relaxed);
    char msg[sizeof end_message_ + 96];
    int n = snprintf(msg, sizeof msg, "%s", end_message_);
    if (late && n >= 0 && static_cast<size_t>(n) < sizeof msg)
        n += snprintf(msg + n, sizeof msg - n, "; %llu late events moved to a later frame",
                      static_cast<unsigned long long>(late));
    // A collection that could not wait for the writer scanned without the newest objects: they
    // were seen dead one collection late (or, if their address was reused, at that reuse).
    if (timeouts && n >= 0 && static_cast<size_t>(n) < sizeof msg)
        snprintf(msg + n, sizeof msg - n, "; %llu lifetime drains timed out", static_cast<unsigned long long>(timeouts));
    out_.end(end_reason_, msg);
    flush(false);
}

}  // namespace mt::rt
