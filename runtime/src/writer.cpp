// writer.cpp — the writer thread's loop and record handling (see writer.h). Committing frames
// and writing is in writer_commit.cpp.
#include "writer.h"

#include <new>
#include <stdlib.h>
#include <sys/stat.h>

#include "classes.h"
#include "clock.h"
#include "marks.h"
#include "rt_math.h"
#include "stream_sink.h"

namespace mt::rt {

Writer::~Writer() {
    if (lifetimes_) lifetimes_end();
    if (frames_) {
        for (uint32_t i = 0; i < kOpenFrames; ++i) frames_[i].~OpenFrame();
        free(frames_);
    }
}

bool Writer::begin(const char *path, const WriterConfig &cfg, const trace::FileHeaderParams &hp, const trace::KeyValue *info,
                   size_t n_info) {
    cfg_ = cfg;
    frames_ = static_cast<OpenFrame *>(malloc(sizeof(OpenFrame) * kOpenFrames));
    if (!frames_) return false;
    for (uint32_t i = 0; i < kOpenFrames; ++i) new (&frames_[i]) OpenFrame();
    // Every slot points at a live object from the start (a failed begin() leaves no null slot),
    // and all are free: frames_[0] is handed out first.
    for (uint32_t i = 0; i < kOpenFrames; ++i) slot_[i] = &frames_[i];
    for (uint32_t i = kOpenFrames; i-- > 0;) release_frame(frames_[i]);
    if (!out_.open(path)) return false;
    struct stat st;
    regular_ = fstat(out_.fd(), &st) == 0 && S_ISREG(st.st_mode);
    out_.header(hp);
    out_.info(info, n_info);
    d_modules_.begin();
    modules_.scan(d_modules_);
    out_.dict_list(MT_CHUNK_MODULES, d_modules_);
    d_modules_.begin();
    d_threads_.begin();
    d_classes_.begin();
    d_stacks_.begin();
    // Without libgc (GC_is_marked) the flag stays a no-op and the header does not claim it.
    lifetimes_ = (cfg.flags & MT_FLAG_LIFETIMES) && lifetimes_begin();
    native_lifetimes_ = (cfg.flags & MT_FLAG_LIFETIMES) != 0;
    if (!out_.flush()) return false;
    counters.bytes_written.store(out_.bytes_written(), std::memory_order_relaxed);
    open_frame(0, g.start_tick);
    return true;
}

void Writer::stop(uint64_t end_tick, uint32_t end_reason, const char *end_message) {
    end_tick_ = end_tick;
    end_reason_ = end_reason;
    size_t n = 0;
    while (end_message && end_message[n] && n + 1 < sizeof end_message_) {
        end_message_[n] = end_message[n];
        ++n;
    }
    end_message_[n] = 0;
    stop_.store(true, std::memory_order_release);
    wake_writer();
}

void Writer::run() {
    for (;;) {
        bool final = stop_.load(std::memory_order_acquire);
        iterate(final);
        if (failed() || final) {
            if (!failed()) finish();
            if (sink_) sink_->finish();  // live: the rest, END included, within a short bound
            return;
        }
        if (sink_) sink_->service();
        // A frame waiting for its grace poll is committed soon; otherwise poll at the set pace.
        uint64_t wait = cfg_.drain_interval_us;
        if (next_commit_ < known_ends_ && wait > kGraceNs / 1000) wait = kGraceNs / 1000;
        // Nothing found and nothing to commit: sleep until something is published (idle). A live
        // capture's sink is serviced every iteration (its client, its buffers), so it keeps the pace.
        if (found_ == 0 && next_commit_ == known_ends_ && !sink_)
            writer_wait_idle(wait > kIdleSleepUs ? wait : kIdleSleepUs, work_waiting);
        else
            writer_wait(wait);
    }
}

// Asked by writer_wait_idle after the writer announced its idle sleep: work published before the
// publisher could see that announcement (so it did not wake the writer). The rings are not asked:
// a producer wakes an idle writer once its ring holds cap / kRingWakeAt bytes (ring.h).
bool Writer::work_waiting() { return frames_queued() || marks_queued() || gc_events_queued(); }

void Writer::iterate(bool final) {
    ++iter_;
    found_ = 0;
    // Read before draining: everything pushed before a collection asked is in the rings by now.
    uint64_t drain_req = lifetimes_ ? lifetimes_drain_request() : 0;
    found_ += drain_req != 0;
    pop_frame_ends();
    thread_names_refresh_os(cfg_.gen, final);  // before the drain: it emits the renames
    for (uint32_t i = 0; i < g.max_threads && !failed(); ++i) drain_slot(g.slots[i]);
    if (native_lifetimes_) native_live_.end_drain(stage_deaths, this);
    if (lifetimes_) lifetimes_sync(drain_req);
    pop_gc_events();
    pop_marks();
    commit_ready(final);
    if (!failed() && (staged_bytes() > kStageBound || d_stacks_.bytes() + d_classes_.bytes() > kDictBound))
        flush_staging();
    // Spilled chunks wait in the batch at most one iteration (a long frame commits much later).
    if (!failed() && spilled_) flush(false);
    spilled_ = false;
}

// The EVENTS bytes the open frames hold, summed once per iteration (at most kOpenFrames lists)
// rather than tracked per record (issue 22, fifth session: 5 instructions a record).
size_t Writer::staged_bytes() const {
    size_t n = 0;
    for (uint64_t seq = next_commit_; seq <= known_ends_; ++seq) n += frame_at(seq).staged.bytes();
    return n;
}

uint32_t Writer::thread_id(ThreadSlot &s) {
    uint32_t seq = s.name_seq.load(std::memory_order_acquire);
    bool known = s.thread_written && s.written_tid == s.thread_id;
    if (known && seq == s.written_name_seq) return s.file_tid;
    if (!known) s.file_tid = n_threads_++;  // file ids are dense, in order of definition
    char name[kNameMax];
    slot_read_name(s, name);
    d_threads_.add(trace::ThreadRecord{s.file_tid, s.os_tid, name});
    s.thread_written = 1;
    s.written_tid = s.thread_id;
    s.written_name_seq = seq;
    return s.file_tid;
}

// A class not in class_hits_: the table's answer (or a new id), which then takes its entry.
uint32_t Writer::class_id_slow(uint64_t klass) {
    uint64_t key = klass ? klass : UINT64_MAX;
    uint32_t id;
    last_class_native_ = native_heap_is(klass);
    ClassHit &hit = class_hits_[class_hit_index(klass)];
    if (classes_.find(key, &id)) {
        hit = ClassHit{klass, id, last_class_native_};
        return id;
    }
    id = n_classes_++;
    if (!classes_.insert(key, id)) disable("out of memory for the class table");
    hit = ClassHit{klass, id, last_class_native_};
    trace::ClassRecord rec;
    char buf[512];
    class_describe(klass, &rec, buf, sizeof buf);
    rec.id = id;
    d_classes_.add(rec);
    counters.classes_known.store(n_classes_, std::memory_order_relaxed);
    return id;
}

uint32_t Writer::stack_id_slow(const AllocRec &r, uint32_t cid) {
    uint32_t id;
    uint64_t size, gc_size;
    rec_sizes(r, &size, &gc_size);
    if (stacks_.find(r.hash, &id)) {
        stack_hits_[stack_hit_index(r.hash)] = StackHit{r.hash, id};
        return id;
    }
    if (rec_kind(r) == REC_ALLOC_FULL) {
        id = n_stacks_++;
        if (!stacks_.insert(r.hash, id) || !stack_shapes_.push(codec::EventShape{cid, size, gc_size}))
            disable("out of memory for the stack table");
        const uint64_t *frames = rec_frames(r);
        d_stacks_.add(trace::StackRecord{id, frames, r.depth, cid, size, gc_size});
        counters.stacks_known.store(n_stacks_, std::memory_order_relaxed);
        return id;
    }
    // A short record always follows its full one on the same ring, so this cannot happen; if it
    // ever did, the event is kept under an empty stack rather than lost.
    if (unknown_stack_ == UINT32_MAX) {
        unknown_stack_ = n_stacks_++;
        if (!stack_shapes_.push(codec::EventShape{cid, size, gc_size})) disable("out of memory for the stack table");
        d_stacks_.add(trace::StackRecord{unknown_stack_, nullptr, 0, cid, size, gc_size});
    }
    return unknown_stack_;
}

// A native heap's allocation or free (mt_on_native_alloc / _free): its life, with lifetimes on.
void Writer::on_native(const AllocRec &r, uint64_t seq, uint32_t cid, uint32_t sid, uint64_t size) {
    uint64_t epoch = widen_epoch(r.epoch);
    bool ok = rec_kind(r) == REC_FREE ? native_live_.free(r.obj, epoch, stage_deaths, this)
                                      : native_live_.add(LiveObject{r.obj, seq, cid, sid, size}, epoch, stage_deaths, this);
    if (!ok) disable("out of memory for the native lifetimes table");
}

// Once per traced allocation: inlined into drain_slot's loop (no call and no register saves per
// record); what most records skip (native frees, lifetimes, aggregate mode) is out of line.
// kPlain: events mode without lifetimes (the common capture), known for the whole drain, so the
// per-record tests of the mode and the lifetimes flag are compiled out of that loop.
template <bool kPlain>
__attribute__((always_inline)) inline void Writer::on_record(uint32_t tid, const AllocRec &r) {
    if (rec_kind(r) == REC_FREE) {
        if (native_lifetimes_) on_native(r, 0, 0, 0, 0);
        return;
    }
    bool native;
    uint32_t cid = class_id(r.klass, native);
    uint32_t sid = stack_id(r, cid);
    uint64_t size, gc_size;
    rec_sizes(r, &size, &gc_size);
    OpenFrame &f = frame_of(r.epoch);
    f.requested += size;
    f.gc_bytes += gc_size;
    if (native || (!kPlain && lifetimes_)) on_life(r, f, cid, sid, gc_size, native);
    // Apart from the two sums (another basic block): GCC's SLP pass otherwise packs the three
    // into one SSE add whose operands go through the stack, 5 instructions more a record.
    ++f.events;
    if (!kPlain && cfg_.mode != MT_MODE_EVENTS) {
        aggregate(f, cid, sid, size, gc_size);
        return;
    }
    // The stack's STACKS shape (stack_id() keeps one per id unless it ran out of memory), looked
    // up only for a stack's first event in the list's slot.
    trace::EventRecord ev{tid, r.tick, cid, sid, size, gc_size, r.obj};
    f.staged.add(ev, [this, sid] { return sid < stack_shapes_.size() ? &stack_shapes_[sid] : nullptr; });
    spill_if_full(f, f.staged, MT_CHUNK_EVENTS);
}

// A native heap's allocation (its life, with lifetimes on) or a traced object for the lifetimes table.
void Writer::on_life(const AllocRec &r, OpenFrame &f, uint32_t cid, uint32_t sid, uint64_t gc_size, bool native) {
    if (native) {
        if (native_lifetimes_) on_native(r, f.seq, cid, sid, rec_size(r));
    } else if (lifetimes_ && !drained_live_.push(LiveObject{r.obj, f.seq, cid, sid, gc_size})) {
        disable("out of memory for the lifetimes table");
    }
}

void Writer::aggregate(OpenFrame &f, uint32_t cid, uint32_t sid, uint64_t size, uint64_t gc_size) {
    uint64_t key = (static_cast<uint64_t>(cid) << 32 | sid) + 1;
    uint32_t idx;
    // A thread allocates runs of one call site: the frame's last entry answers those without a
    // hash probe (issue 22, fifth session). key is never 0, the reset value.
    if (key == f.last_agg_key) {
        idx = f.last_agg_idx;
    } else if (!f.agg_index.find(key, &idx)) {
        idx = f.agg.size();
        if (!f.agg.push(AggEntry{cid, sid, 0, 0, 0, 0, 0, 0}) || !f.agg_index.insert(key, idx)) {
            disable("out of memory for a frame's aggregates");
            return;
        }
    }
    f.last_agg_key = key;
    f.last_agg_idx = idx;
    AggEntry &a = f.agg[idx];
    ++a.samples;
    a.requested += size;
    a.gc += gc_size;
    if (cfg_.sample_interval) {
        double w = 1.0 / sample_probability(size, cfg_.sample_interval);
        a.est_count += w;
        a.est_requested += w * static_cast<double>(size);
        a.est_gc += w * static_cast<double>(gc_size);
    }
}

void Writer::drain_slot(ThreadSlot &s) {
    uint32_t st = s.state.load(std::memory_order_acquire);
    if (st == SLOT_FREE) return;
    bool mine = s.gen.load(std::memory_order_acquire) == cfg_.gen && s.ring.mem;
    if (mine) {
        if (s.thread_written && s.name_seq.load(std::memory_order_acquire) != s.written_name_seq)
            thread_id(s);  // renamed: a THREADS entry with the same id
        // The thread's file id is looked up once per drain, at its first record (a THREADS entry
        // is written only for a thread that has events; a native free is none), not once per record.
        uint32_t tid = UINT32_MAX;
        cached_epoch_ = kNoEpoch;
        if (cfg_.mode == MT_MODE_EVENTS && !lifetimes_) {
            found_ += s.ring.drain([&](const AllocRec &r) {
                if (tid == UINT32_MAX && rec_kind(r) != REC_FREE) tid = thread_id(s);
                on_record<true>(tid, r);
            });
        } else {
            found_ += s.ring.drain([&](const AllocRec &r) {
                if (tid == UINT32_MAX && rec_kind(r) != REC_FREE) tid = thread_id(s);
                on_record<false>(tid, r);
            });
        }
    }
    if (st == SLOT_EXITING) {
        // The owner is gone (its destructor ran before we read EXITING), so the drain above got
        // everything it pushed. The ring memory stays with the slot for the next thread.
        s.gen.store(0, std::memory_order_relaxed);
        s.state.store(SLOT_FREE, std::memory_order_release);
        ++found_;
    }
}

void Writer::open_frame(uint64_t seq, uint64_t start_tick) {
    cached_epoch_ = kNoEpoch;
    // At most kOpenFrames - 1 frames are open or ended and uncommitted (pop_frame_ends), so the
    // pool always has one.
    OpenFrame &f = *free_[--n_free_];
    slot_[seq % kOpenFrames] = &f;
    f.seq = seq;
    f.ended = false;
    f.ended_iter = 0;
    f.end = FrameEnd{};
    f.start_tick = start_tick;
    f.events = f.requested = f.gc_bytes = 0;
    f.gc_incomplete = false;
    f.staged.begin(start_tick);
    f.gcs.begin();
    f.deaths.begin();
    f.marks.begin();
    f.agg_index.clear();
    f.agg.clear();
    f.last_agg_key = 0;
}

// Records carry the epoch mod 2^32; the full value is the one nearest the frames known now.
uint64_t Writer::widen_epoch(uint32_t e) const {
    uint64_t base = known_ends_;
    uint64_t full = (base & ~0xFFFFFFFFull) | e;
    if (full > base + 0x80000000ull && full >= 0x100000000ull) full -= 0x100000000ull;
    else if (full + 0x80000000ull < base) full += 0x100000000ull;
    return full;
}

OpenFrame &Writer::frame_of_slow(uint32_t epoch) {
    uint64_t full = widen_epoch(epoch);
    OpenFrame &f = frame_for(full);
    if (f.seq == full) {  // its own frame: the next records of this epoch go straight there
        cached_epoch_ = epoch;
        cached_frame_ = &f;
    }
    return f;
}

OpenFrame &Writer::frame_for(uint64_t epoch) {
    if (epoch > known_ends_) {
        pop_frame_ends();  // the frame end published before this epoch began is visible now
        if (epoch > known_ends_) epoch = known_ends_;
    }
    if (epoch < next_commit_) {
        counters.late_events.fetch_add(1, std::memory_order_relaxed);
        epoch = next_commit_;
    }
    return frame_at(epoch);
}

void Writer::pop_frame_ends() {
    // Leave entries queued rather than run over frames not yet committed.
    uint64_t open = known_ends_ - next_commit_ + 1;
    if (open + 2 >= kOpenFrames) return;
    uint64_t room = kOpenFrames - 2 - open;
    FrameEnd ends[kFrameQueue];
    uint32_t n = frames_pop(ends, room < kFrameQueue ? static_cast<uint32_t>(room) : kFrameQueue);
    found_ += n;
    for (uint32_t i = 0; i < n; ++i) {
        OpenFrame &f = frame_at(known_ends_);
        f.ended = true;
        f.end = ends[i];
        f.ended_iter = iter_;
        f.ended_ns = mono_ns();
        ++known_ends_;
        open_frame(known_ends_, ends[i].end_tick);
    }
}

void Writer::pop_gc_events() {
    GcPending ev[64];
    for (;;) {
        uint32_t n = gc_events_pop(ev, 64);
        found_ += n;
        for (uint32_t i = 0; i < n; ++i) {
            OpenFrame &f = frame_for(ev[i].epoch);
            if (ev[i].kind != GC_PENDING_COLLECTION) f.gc_incomplete = true;
            if (ev[i].kind != GC_PENDING_INCOMPLETE) {
                f.gcs.add(ev[i].rec);
                spill_if_full(f, f.gcs, MT_CHUNK_GC);
            }
        }
        if (n < 64) return;
    }
}

// A mark belongs to the frame open at its call (late ones: the oldest open frame, as events).
void Writer::pop_marks() {
    PendingMark m[16];
    for (;;) {
        uint32_t n = marks_pop(m, 16);
        found_ += n;
        for (uint32_t i = 0; i < n; ++i)
            if (m[i].gen == cfg_.gen) {
                OpenFrame &f = frame_for(m[i].epoch);
                f.marks.add(trace::MarkRecord{m[i].tick, m[i].label});
                spill_if_full(f, f.marks, MT_CHUNK_MARKS);
            }
        if (n < 16) return;
    }
}

// A death belongs to the frame open when its collection ran; if that frame is already
// committed (the collection raced the commit) it goes to the oldest open one. It never goes
// before its allocation's frame: the collector reads the game's epoch while other threads run,
// and an allocation filed in frame N can be found dead by a collection that read epoch N-1
// (seen under load), so the later of the two is the frame it died in.
void Writer::stage_deaths(void *ctx, const PendingDeath *d, uint32_t n) {
    auto *w = static_cast<Writer *>(ctx);
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t e = d[i].epoch > d[i].rec.alloc_frame_seq ? d[i].epoch : d[i].rec.alloc_frame_seq;
        if (e < w->next_commit_) e = w->next_commit_;
        OpenFrame &f = w->frame_for(e);
        f.deaths.add(d[i].rec);
        w->spill_if_full(f, f.deaths, MT_CHUNK_DEATHS);
    }
}

void Writer::lifetimes_sync(uint64_t drain_req) {
    if (!failed() && !lifetimes_add(drained_live_.data(), drained_live_.size(), stage_deaths, this))
        disable("out of memory for the lifetimes table");
    drained_live_.clear();
    lifetimes_drain_done(drain_req);
}

void Writer::take_deaths() { lifetimes_take(stage_deaths, this); }

}  // namespace mt::rt
