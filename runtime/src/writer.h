// writer.h — the writer thread: drains every thread's ring, turns records into dictionary
// entries and per-frame staging, and commits each ended frame as one write(2).
//
// Per open frame (seq = epoch) it keeps the EVENTS body being built (raw mode) or a map
// (class, stack) -> totals (aggregate mode). Raw staging is flushed as EVENTS chunks whenever
// all open frames together hold more than kStageBound bytes, so memory stays bounded however
// long a frame is. A frame is committed at the first drain at least kGraceNs after its end was
// seen (the grace that catches producers which read the old epoch just before mt_frame_end
// advanced it, even if they were preempted for a while in between): first any
// new THREADS/CLASSES/STACKS/MODULES, then its EVENTS or AGGREGATES and GC chunks, then FRAME.
// Records for an already committed frame go to the oldest open frame (counted as late).
#ifndef MEMTRACER_RT_WRITER_H
#define MEMTRACER_RT_WRITER_H

#include <atomic>
#include <stdint.h>

#include "frames.h"
#include "hashmap.h"
#include "lifetimes.h"
#include "modules.h"
#include "native_heaps.h"
#include "ring.h"
#include "state.h"
#include "memtracer/trace_writer.h"
#include "memtracer/noncopyable.h"

namespace mt::rt {

class StreamSink;

constexpr uint32_t kOpenFrames = 256;           // > 2 * kFrameQueue: ended-but-uncommitted + open
constexpr size_t kStageBound = 256 * 1024;       // raw events staged across open frames
constexpr size_t kDictBound = 1024 * 1024;       // dictionary bytes before they are written early
constexpr uint64_t kGraceNs = 1000000;           // a frame is committed >= 1 ms after its end was seen
// After an iteration that found nothing (no record, frame end, GC event or mark, no frame waiting
// for its commit) the writer sleeps up to this long instead of its drain interval; whatever
// publishes work wakes it (frames.cpp, ring.h). The bound is the OS name poll's period, so a
// thread's OS rename still reaches the file within two polls (issue 22, twelfth session).
constexpr uint64_t kIdleSleepUs = 100000;
// One frame's list (EVENTS, DEATHS, GC, MARKS) is written out as a chunk of its own once it holds
// this many bytes, whatever the frame's length: a frame may span any number of chunks (the reader
// joins them at its FRAME chunk), so no frame can outgrow MT_MAX_CHUNK_PAYLOAD. Before, a frame's
// DEATHS grew unbounded until its commit, and a long frame with lifetimes on (a stall, a loading
// screen: 3 million events and 5,000 collections measured on Unity's runtime) disabled the capture.
constexpr size_t kChunkSpill = 1024 * 1024;

struct WriterConfig {
    uint32_t mode = 0;
    uint64_t sample_interval = 0;
    uint32_t drain_interval_us = 2000;
    uint32_t flags = 0;
    uint64_t gen = 0;
};

// What mt_get_counters reads from the writer (relaxed atomics).
struct WriterCounters {
    std::atomic<uint64_t> events_written{0}, bytes_written{0}, frames_written{0}, stacks_known{0},
        classes_known{0}, last_flush_unix_ns{0}, last_flush_duration_ns{0}, late_events{0};
};

struct AggEntry {
    uint32_t class_id, stack_id;
    uint64_t samples, requested, gc;        // recorded allocations
    double est_count, est_requested, est_gc;  // unbiased estimates (sampled captures)
};

struct OpenFrame {
    uint64_t seq = 0;
    bool ended = false;
    uint64_t ended_iter = 0;
    uint64_t ended_ns = 0;  // monotonic time the writer saw the end
    FrameEnd end{};
    uint64_t start_tick = 0;
    uint64_t events = 0, requested = 0, gc_bytes = 0;
    bool gc_incomplete = false;  // MT_FRAME_GC_INCOMPLETE (gc_hooks.cpp)
    trace::ListEncoder staged;  // raw EVENTS body
    trace::ListEncoder gcs;
    trace::ListEncoder deaths;  // MT_FLAG_LIFETIMES: objects found dead by collections in this frame
    trace::ListEncoder marks;   // mt_mark calls made while this frame was open
    U64Map agg_index;    // (class << 32 | stack) + 1 -> index in agg
    Vec<AggEntry> agg;
    uint64_t last_agg_key = 0;  // the last aggregate() key (0: none) and its index in agg
    uint32_t last_agg_idx = 0;
};

class Writer {
public:
    Writer() = default;
    ~Writer();
    MT_NONCOPYABLE(Writer);

    // Creates the file and writes header, INFO and MODULES (on the caller's thread).
    bool begin(const char *path, const WriterConfig &cfg, const trace::FileHeaderParams &hp, const trace::KeyValue *info,
               size_t n_info);
    const char *error() const { return out_.error(); }

    void run();  // thread body; returns after stop() or when the file failed
    // Tells the thread to finish: final drain, FINAL frame, COUNTERS and END with `reason`.
    void stop(uint64_t end_tick, uint32_t end_reason, const char *end_message);
    bool failed() const { return failed_.load(std::memory_order_acquire); }
    uint64_t gen() const { return cfg_.gen; }
    bool created_regular_file() const { return regular_; }
    void set_sink(StreamSink *s) { sink_ = s; }  // live capture (stream_sink.h); before run()

    WriterCounters counters;

private:
    void iterate(bool final);
    void drain_slot(ThreadSlot &s);
    template <bool kPlain>
    void on_record(uint32_t tid, const AllocRec &r);
    size_t staged_bytes() const;
    void on_life(const AllocRec &r, OpenFrame &f, uint32_t cid, uint32_t sid, uint64_t gc_size, bool native);
    void aggregate(OpenFrame &f, uint32_t cid, uint32_t sid, uint64_t size, uint64_t gc_size);
    void on_native(const AllocRec &r, uint64_t seq, uint32_t cid, uint32_t sid, uint64_t size);
    uint32_t thread_id(ThreadSlot &s);
    // The per-record lookups: the common case (a class and stack seen recently, the ring's
    // previous record's frame) inline, the rest out of line (the writer's CPU per event, issue 22).
    // A game's thread changes call site on almost every allocation and class on three of four
    // (a capture of the sample game: 94% and 75%), so a cache of the last lookup alone sent
    // nearly every record to the hash tables (about 85 of the writer's 340 instructions per
    // record; docs/benchmarks.md, issue 22 tenth session): the recent ones are direct-mapped.
    // native: klass is a native heap's handle. The hits expected (else GCC lays them out of line).
    uint32_t class_id(uint64_t klass, bool &native) {
        const ClassHit &h = class_hits_[class_hit_index(klass)];
        if (__builtin_expect(h.klass == klass, 1)) {
            native = h.native;
            return h.id;
        }
        const uint32_t id = class_id_slow(klass);
        native = last_class_native_;
        return id;
    }
    uint32_t class_id_slow(uint64_t klass);
    // The sizes (for a new stack's STACKS shape) are read from r on the slow path only: passed
    // in, they were kept across its call in spilled vector registers on every record.
    uint32_t stack_id(const AllocRec &r, uint32_t cid) {
        const StackHit &h = stack_hits_[stack_hit_index(r.hash)];
        if (__builtin_expect(h.hash == r.hash, 1)) return h.id;
        return stack_id_slow(r, cid);
    }
    // A class pointer's low bits are alignment and its high bits the same for every class:
    // Fibonacci hashing spreads the middle ones. A stack hash's top bits are its last multiply's
    // (stack_hash_key, unwind.h), well spread: they index it as they are.
    static uint32_t class_hit_index(uint64_t klass) {
        return static_cast<uint32_t>((klass * 0x9E3779B97F4A7C15ull) >> (64 - kClassHitBits));
    }
    static uint32_t stack_hit_index(uint64_t hash) { return static_cast<uint32_t>(hash >> (64 - kStackHitBits)); }
    uint32_t stack_id_slow(const AllocRec &r, uint32_t cid);
    OpenFrame &frame_of(uint32_t epoch) {
        if (epoch == cached_epoch_) return *cached_frame_;
        return frame_of_slow(epoch);
    }
    OpenFrame &frame_of_slow(uint32_t epoch);
    OpenFrame &frame_for(uint64_t epoch);
    uint64_t widen_epoch(uint32_t e) const;
    void open_frame(uint64_t seq, uint64_t start_tick);
    void pop_frame_ends();
    static bool work_waiting();
    void pop_gc_events();
    void pop_marks();
    void lifetimes_sync(uint64_t drain_req);
    void take_deaths();
    static void stage_deaths(void *ctx, const PendingDeath *d, uint32_t n);
    void commit_ready(bool final);
    void commit(OpenFrame &f, uint32_t extra_flags);
    void flush_staging();
    void spill(OpenFrame &f, trace::ListEncoder &l, uint16_t type);
    void spill_if_full(OpenFrame &f, trace::ListEncoder &l, uint16_t type) {
        if (l.bytes() >= kChunkSpill) spill(f, l, type);
    }
    void write_dicts();
    bool flush(bool frame_commit);
    void disable(const char *why);
    void finish();
    uint64_t dropped_total() const;

    trace::TraceWriter out_;
    WriterConfig cfg_;
    ModuleTable modules_;
    U64Map stacks_, classes_;
    uint32_t n_stacks_ = 0, n_classes_ = 0, n_threads_ = 0, unknown_stack_ = UINT32_MAX;
    // The classes and stacks looked up recently, direct-mapped by class_hit_index() and
    // stack_hit_index(); an entry holds what the tables answered (never a miss). The initial
    // keys match no record, so a hit is one compare: a stack hash is never 0 (stack_hash_mix
    // sets bit 0; the stack table's keys cannot be 0), and no record's class is ~0 (not an
    // address; the class table already keys klass 0 as ~0). 8 KiB each: they stay in L1.
    static constexpr uint32_t kClassHitBits = 9, kStackHitBits = 9;
    struct ClassHit {
        uint64_t klass = UINT64_MAX;
        uint32_t id = UINT32_MAX;
        bool native = false;  // a native heap's handle (native_heap_is)
    };
    struct StackHit {
        uint64_t hash = 0;
        uint32_t id = UINT32_MAX;
    };
    ClassHit class_hits_[1u << kClassHitBits];
    StackHit stack_hits_[1u << kStackHitBits];
    bool last_class_native_ = false;  // the class class_id_slow() returned is a native heap's
    // The frame the last record's epoch (as the ring carries it) went to, when it was that
    // epoch's own open frame (not a late or early one: those are counted per record). Reset
    // (cached_epoch_ = kNoEpoch) whenever a frame opens or is committed, and at each ring's drain.
    // kNoEpoch (above any 32-bit epoch): none, so that the hit is one compare.
    static constexpr uint64_t kNoEpoch = UINT64_MAX;
    uint64_t cached_epoch_ = kNoEpoch;
    OpenFrame *cached_frame_ = nullptr;
    trace::ListEncoder d_threads_, d_classes_, d_stacks_, d_modules_;
    // Each stack's shape as its STACKS entry says (its first allocation's class and sizes), by
    // id: events at that stack leave out what it predicts (format.h EVENTS, SAME_CLASS/SAME_SIZE).
    Vec<codec::EventShape> stack_shapes_;
    // kOpenFrames frame objects: a pool. The frame of seq is *slot_[seq % kOpenFrames], given when
    // it opens and returned when it is committed; the pool hands out the frame committed last
    // (LIFO), so a new frame writes into a staging list that has grown and been touched already
    // rather than into a slot that has not been used yet (issue 22, ninth session: 200 frames
    // through fresh slots cost the writer about twice the CPU per event of reused ones).
    OpenFrame *frames_ = nullptr;
    OpenFrame *slot_[kOpenFrames] = {};
    OpenFrame *free_[kOpenFrames] = {};
    uint32_t n_free_ = 0;
    OpenFrame &frame_at(uint64_t seq) { return *slot_[seq % kOpenFrames]; }
    const OpenFrame &frame_at(uint64_t seq) const { return *slot_[seq % kOpenFrames]; }
    void release_frame(OpenFrame &f) { free_[n_free_++] = &f; }  // committed: the next to be reused
    uint64_t next_commit_ = 0;     // oldest uncommitted seq
    uint64_t known_ends_ = 0;      // frames 0 .. known_ends_-1 have ended
    uint64_t last_index_ = 0;
    bool any_index_ = false;
    uint64_t iter_ = 0;
    uint64_t found_ = 0;    // what this iteration found: records, frame ends, GC events, marks
    bool spilled_ = false;  // spill() put chunks in the batch: write them at the iteration's end
    uint64_t dropped_at_commit_ = 0;
    bool lifetimes_ = false;
    bool native_lifetimes_ = false;  // MT_FLAG_LIFETIMES: native frees become deaths
    NativeLive native_live_;
    Vec<LiveObject> drained_live_;  // this iteration's traced objects, added to the table in one go
    std::atomic<bool> stop_{false};
    std::atomic<bool> failed_{false};
    uint64_t end_tick_ = 0;
    uint32_t end_reason_ = 0;
    char end_message_[256] = {0};
    bool regular_ = false;
    StreamSink *sink_ = nullptr;
};

// The counters of the capture w writes (writer_commit.cpp): the threads' and the writer's. No lock;
// mt_get_counters, mt_stop and the COUNTERS chunk call it.
void counters_snapshot(const Writer *w, mt_counters *out);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_WRITER_H
