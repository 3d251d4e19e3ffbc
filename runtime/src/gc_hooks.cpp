// gc_hooks.cpp — Boehm GC collections and heap sizes (MT_FLAG_GC_EVENTS). Boehm is internal to
// libil2cpp: its functions come through the bridge a patched libil2cpp hands over (bridge.h);
// without it (no-patch mode), il2cpp's profiler forwards the same events.
//
// Which events mark a collection (bdwgc 7.6-8.2 alloc.c, and Unity's fork): START/END are raised
// only by GC_try_to_collect_inner (explicit and full collections). A cycle that incremental mode
// (Unity's default: GC_enable_incremental, GC_set_time_limit) finishes in
// GC_collect_a_little_inner raises only PRE_STOP_WORLD, MARK_START, (MARK_END, RECLAIM_START,
// RECLAIM_END); a time-limited GC_stopped_mark may give up after MARK_START and be retried. Every
// completed cycle goes through GC_stopped_mark (GC_gc_no++, then MARK_END) and
// GC_finish_collection (RECLAIM_START, RECLAIM_END). So a collection begins at the first
// START/PRE_STOP_WORLD/MARK_START after the previous one ended and is recorded at RECLAIM_END.
//
// Nobody may silently take the callback away: il2cpp's GarbageCollector::Initialize calls
// GC_set_on_collection_event unconditionally, replacing ours when MemTracer started first.
// gc_hooks_poll (each frame end, and mt_stop) re-chains, keeping what replaced it (il2cpp's own
// callback still runs), counts it, and records from GC_get_gc_no the collections Boehm completed
// meanwhile; their frames carry MT_FRAME_GC_INCOMPLETE.
//
// No-patch mode attached before il2cpp_init cannot see Boehm's first collection: bdwgc's GC_init
// collects once ("get black list set up and/or incremental GC started", misc.c), and il2cpp's
// Initialize calls GC_enable_incremental (which runs GC_init) before GC_set_on_collection_event
// installs the callback its profiler forwards. Boehm's count (GC_get_gc_no) is hidden in
// libil2cpp and il2cpp exports nothing that reads it (the GC.CollectionCount icall is compiled in
// but not exported, and stripped from the generated code unless a script calls it). So it is
// inferred where it is certain (il2cpp_attach.cpp: Boehm had not started at the attach, and
// incremental mode is on afterwards) and recorded without timing or number; and every frame up
// to the one in which il2cpp set up its GC carries MT_FRAME_GC_INCOMPLETE, since a collection
// that is not certain (Boehm started by something else first) is not recorded.
//
// The callback runs on the collecting thread with the allocation lock held (for some events the
// world stopped): it reads counters with the *_unsafe API meant for that context and pushes into
// a fixed queue. With MT_FLAG_LIFETIMES it also drives the death scan (lifetimes.h): the drain
// when a collection begins with the world running (START, PRE_STOP_WORLD), the scan at
// RECLAIM_START.
#include <string.h>

#include "bridge.h"
#include "clock.h"
#include "frames.h"
#include "lifetimes.h"

namespace mt::rt {

namespace {

// Mirrors the leading fields of bdwgc's struct GC_prof_stats_s (gc.h, 7.4 and later); the
// size argument tells the library how many we know, so newer versions stay compatible.
struct ProfStats {
    uintptr_t heapsize_full, free_bytes_full, unmapped_bytes, bytes_allocd_since_gc,
        allocd_bytes_before_gc, non_gc_bytes, gc_no, markers_m1, bytes_reclaimed_since_gc,
        reclaimed_bytes_before_gc;
};

// bdwgc's GC_EventType (gc.h); il2cpp's Il2CppGCEvent has the same numbers.
enum {
    kGcStart = 0,
    kGcMarkStart = 1,
    kGcMarkEnd = 2,
    kGcReclaimStart = 3,
    kGcReclaimEnd = 4,
    kGcPreStopWorld = 6,
};
constexpr uint32_t kGcQueue = 256;

GcPending g_q[kGcQueue];
std::atomic<uint64_t> g_q_head{0}, g_q_tail{0}, g_q_dropped{0};
// Two producers (the collector, and gc_hooks_poll on a game thread): pushes and the gc_no
// bookkeeping below are serialised by this spinlock. Held only for a few stores, never while
// taking another lock.
std::atomic<uint32_t> g_push_lock{0};
bool g_incomplete_pending = false;  // a push was dropped: the next one flags its frame

// Collector side (allocation lock held, one collection at a time).
bool g_in_cycle = false;
uint64_t g_start_tick = 0;

// gc_no bookkeeping (under g_push_lock): the last collection recorded, and the one whose MARK_END
// the callback saw (it records that one itself at RECLAIM_END).
uint64_t g_last_gc_no = 0;
uint64_t g_claimed_gc_no = 0;
bool g_gc_no_known = false;  // a baseline exists (the bridge hands over GC_get_gc_no)

std::atomic<mt_gc_event_callback> g_prev{nullptr};
std::atomic<bool> g_installed{false};
std::atomic<bool> g_events{false};  // MT_FLAG_GC_EVENTS: queue GC records (else the hook is for lifetimes only)
std::atomic<bool> g_from_profiler{false};  // collections arrive through il2cpp's profiler
std::atomic<uint32_t> g_rechains{0};
// Set while il2cpp's profiler cannot yet forward collections (attached before il2cpp_init). Not
// reset by mt_start: the attach outlives captures.
ProfilerBlind g_blind{};
std::atomic<bool> g_blind_on{false};

struct PushGuard {
    PushGuard() {
        while (g_push_lock.exchange(1, std::memory_order_acquire)) {
        }
    }
    ~PushGuard() { g_push_lock.store(0, std::memory_order_release); }
};

bool recording() { return g_events.load(std::memory_order_relaxed) && g.live.load(std::memory_order_relaxed); }

// Caller holds g_push_lock.
void push_locked(const trace::GcRecord &r, uint32_t kind) {
    uint64_t h = g_q_head.load(std::memory_order_relaxed);
    if (h - g_q_tail.load(std::memory_order_acquire) >= kGcQueue) {
        g_q_dropped.fetch_add(1, std::memory_order_relaxed);
        g_incomplete_pending = true;
        return;
    }
    if (g_incomplete_pending && kind == GC_PENDING_COLLECTION) kind = GC_PENDING_COLLECTION_INCOMPLETE;
    if (kind != GC_PENDING_COLLECTION) g_incomplete_pending = false;
    g_q[h % kGcQueue] = GcPending{r, g.epoch.load(std::memory_order_acquire), kind};
    g_q_head.store(h + 1, std::memory_order_release);
    wake_writer_if_idle();  // the queue holds 256: an idle writer must not leave it to fill
}

// Collections Boehm completed that no callback of ours saw: one record each, numbered, with no
// timing (start = end = now) and no reclaimed figure; their frame says so. Caller holds the lock.
void infer_locked(uint64_t upto, uint64_t heap, uint64_t free_bytes) {
    if (!g_gc_no_known || upto <= g_last_gc_no) return;
    // Far more than a queue holds means the baseline is wrong (a GC_deinit/re-init): resync.
    if (upto - g_last_gc_no > kGcQueue) {
        g_last_gc_no = upto;
        push_locked(trace::GcRecord{}, GC_PENDING_INCOMPLETE);
        return;
    }
    const uint64_t now = now_ticks();
    for (uint64_t n = g_last_gc_no + 1; n <= upto; ++n)
        push_locked(trace::GcRecord{now, now, heap, free_bytes, 0, n}, GC_PENDING_COLLECTION_INCOMPLETE);
    g_last_gc_no = upto;
}

void begin_cycle(bool world_running) {
    if (g_in_cycle) return;
    g_in_cycle = true;
    g_start_tick = now_ticks();
    // The drain waits for the writer: only while the world runs (MARK_START comes with it stopped).
    if (world_running) lifetimes_on_gc_start();
}

void on_mark_end() {
    if (!bridge().gc_get_gc_no) return;
    const uint64_t n = bridge().gc_get_gc_no();  // just incremented by GC_stopped_mark
    PushGuard guard;
    if (n > g_claimed_gc_no) g_claimed_gc_no = n;
}

void on_reclaim_end() {
    g_in_cycle = false;
    if (!recording()) return;
    trace::GcRecord r{g_start_tick, now_ticks(), 0, 0, 0, 0};
    if (auto stats = bridge().gc_get_prof_stats_unsafe) {
        ProfStats st;
        memset(&st, 0, sizeof st);
        stats(&st, sizeof st);
        r.heap_size = st.heapsize_full - st.unmapped_bytes;
        r.free_bytes = st.free_bytes_full - st.unmapped_bytes;
        r.reclaimed_bytes = st.bytes_reclaimed_since_gc;
        r.gc_no = st.gc_no;
    } else if (bridge().gc_get_gc_no) {
        r.gc_no = bridge().gc_get_gc_no();
    }
    PushGuard guard;
    if (g_gc_no_known && r.gc_no) {
        if (r.gc_no <= g_last_gc_no) return;  // gc_hooks_poll already recorded it from gc_no
        infer_locked(r.gc_no - 1, r.heap_size, r.free_bytes);
        g_last_gc_no = r.gc_no;
    }
    push_locked(r, GC_PENDING_COLLECTION);
}

void record_event(int ev) {
    switch (ev) {
    case kGcStart:
    case kGcPreStopWorld: begin_cycle(true); break;
    case kGcMarkStart: begin_cycle(false); break;  // a single-threaded bdwgc has no PRE_STOP_WORLD
    case kGcMarkEnd: on_mark_end(); break;
    case kGcReclaimStart:
        // Marking is complete and sweeping (and finalization) has not begun: mark bits are exact.
        lifetimes_on_reclaim_start(g.epoch.load(std::memory_order_acquire));
        break;
    case kGcReclaimEnd: on_reclaim_end(); break;
    default: break;
    }
}

void on_gc_event(int ev) {
    record_event(ev);
    // Chained: il2cpp's own callback (its profiler events, ephemerons) keeps running.
    if (mt_gc_event_callback prev = g_prev.load(std::memory_order_acquire)) prev(ev);
}

// Frame end while il2cpp's profiler may have missed collections: flag the frame, until the one
// in which il2cpp's GC callback exists (its collections since are forwarded); that one also gets
// the collections Boehm certainly ran before it.
void poll_profiler_blind() {
    if (!g_blind_on.load(std::memory_order_acquire)) return;
    uint32_t unseen = 0;
    if (g_blind.gc_set_up()) {
        // One frame end records it, whichever thread ends a frame first.
        bool on = true;
        if (!g_blind_on.compare_exchange_strong(on, false, std::memory_order_acq_rel)) return;
        unseen = g_blind.unseen_collections();
    }
    if (!recording()) return;
    const uint64_t now = now_ticks();
    PushGuard guard;
    push_locked(trace::GcRecord{}, GC_PENDING_INCOMPLETE);
    for (uint32_t i = 0; i < unseen; ++i) push_locked(trace::GcRecord{now, now, 0, 0, 0, 0}, GC_PENDING_COLLECTION_INCOMPLETE);
}

// mt_start after il2cpp set up its GC: this capture missed nothing of it.
void drop_blind_if_set_up() {
    if (g_blind_on.load(std::memory_order_acquire) && g_blind.gc_set_up())
        g_blind_on.store(false, std::memory_order_release);
}

}  // namespace

void gc_hooks_profiler_blind(const ProfilerBlind &blind) {
    g_blind = blind;
    g_blind_on.store(true, std::memory_order_release);
}

bool gc_present() { return bridge_connect() && bridge().gc_size != nullptr; }

bool gc_hooks_install(bool events) {
    // Recorded even without Boehm: il2cpp's profiler may report collections later (no-patch).
    g_events.store(events, std::memory_order_relaxed);
    g_q_tail.store(g_q_head.load(std::memory_order_relaxed), std::memory_order_relaxed);
    g_q_dropped.store(0, std::memory_order_relaxed);
    g_rechains.store(0, std::memory_order_relaxed);
    drop_blind_if_set_up();
    bridge_connect();
    const mt_il2cpp_bridge &b = bridge();
    {
        // Collections before this capture are not its business: the baseline is Boehm's count now.
        PushGuard guard;
        g_incomplete_pending = false;
        g_gc_no_known = b.gc_get_gc_no != nullptr;
        g_last_gc_no = g_claimed_gc_no = g_gc_no_known ? b.gc_get_gc_no() : 0;
    }
    if (!b.gc_set_on_collection_event || !b.gc_get_on_collection_event) return false;
    if (!g_installed.load(std::memory_order_relaxed)) {
        g_prev.store(b.gc_get_on_collection_event(), std::memory_order_release);
        b.gc_set_on_collection_event(on_gc_event);
        g_installed.store(true, std::memory_order_release);
    }
    return true;
}

void gc_hooks_poll() {
    poll_profiler_blind();
    if (!g_installed.load(std::memory_order_acquire)) return;
    const mt_il2cpp_bridge &b = bridge();
    mt_gc_event_callback current = b.gc_get_on_collection_event();  // takes the GC lock
    const bool replaced = current != on_gc_event;
    if (replaced) {
        // Keep what replaced us (il2cpp's callback, from Initialize): we call it from ours. Not
        // atomic with the set; a collection in between runs the new one directly, and gc_no
        // below catches it.
        g_prev.store(current, std::memory_order_release);
        b.gc_set_on_collection_event(on_gc_event);
        g_rechains.fetch_add(1, std::memory_order_relaxed);
    }
    if (!recording()) return;
    if (!b.gc_get_gc_no) {
        // No gc_no to check against (an older patch): the frame may miss collections.
        if (replaced) {
            PushGuard guard;
            push_locked(trace::GcRecord{}, GC_PENDING_INCOMPLETE);
        }
        return;
    }
    uint64_t n = b.gc_get_gc_no();
    {
        PushGuard guard;
        if (n <= g_last_gc_no) return;
    }
    uint64_t heap = 0, free_bytes = 0;
    gc_heap_sample(&heap, &free_bytes);  // takes the GC lock: not under ours
    PushGuard guard;
    // A collection whose MARK_END the callback saw is recorded by it at its RECLAIM_END.
    if (g_claimed_gc_no > g_last_gc_no && g_claimed_gc_no <= n) n = g_claimed_gc_no - 1;
    infer_locked(n, heap, free_bytes);
}

void gc_hooks_remove() {
    // Only put the previous callback back if nobody replaced ours meanwhile.
    const mt_il2cpp_bridge &b = bridge();
    if (g_installed.load(std::memory_order_relaxed) && b.gc_get_on_collection_event() == on_gc_event) {
        b.gc_set_on_collection_event(g_prev.load(std::memory_order_acquire));
        g_installed.store(false, std::memory_order_release);
    }
}

uint32_t gc_hooks_rechains() { return g_rechains.load(std::memory_order_relaxed); }

void gc_hooks_profiler_event(int ev) {
    g_from_profiler.store(true, std::memory_order_relaxed);
    // With Boehm's own callback installed (a patch and a profiler both), that one reports it.
    if (!g_installed.load(std::memory_order_acquire)) record_event(ev);
}

uint32_t gc_hooks_frame_flags() {
    bool profiler = g_from_profiler.load(std::memory_order_relaxed) && !g_installed.load(std::memory_order_relaxed);
    return profiler ? static_cast<uint32_t>(MT_FRAME_GC_FROM_PROFILER) : 0u;
}

uint32_t gc_events_pop(GcPending *out, uint32_t max) {
    uint64_t t = g_q_tail.load(std::memory_order_relaxed);
    uint64_t h = g_q_head.load(std::memory_order_acquire);
    uint32_t n = 0;
    while (t < h && n < max) out[n++] = g_q[t++ % kGcQueue];
    g_q_tail.store(t, std::memory_order_release);
    return n;
}

bool gc_events_queued() {
    return g_q_tail.load(std::memory_order_relaxed) != g_q_head.load(std::memory_order_acquire);
}

uint64_t gc_events_dropped() { return g_q_dropped.load(std::memory_order_relaxed); }

bool gc_heap_sample(uint64_t *heap_size, uint64_t *free_bytes) {
    const mt_il2cpp_bridge &b = bridge();
    if (!b.gc_get_heap_size || !b.gc_get_free_bytes) return false;
    *heap_size = b.gc_get_heap_size();
    *free_bytes = b.gc_get_free_bytes();
    return true;
}

}  // namespace mt::rt
