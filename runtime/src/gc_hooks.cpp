// gc_hooks.cpp — Boehm GC collections and heap sizes (MT_FLAG_GC_EVENTS). Boehm is internal to
// libil2cpp: its functions come through the bridge a patched libil2cpp hands over (bridge.h);
// without it (no-patch mode), il2cpp's profiler reports collections (timing only).
//
// The collection-event callback runs on the collecting thread with the allocation lock held
// (and, for some events, the world stopped): it only reads counters with the *_unsafe API meant
// for that context and pushes into a fixed single-producer queue (one collection at a time).
// With MT_FLAG_LIFETIMES it also drives the death scan (lifetimes.h) at START and RECLAIM_START.
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

enum { kGcStart = 0, kGcReclaimStart = 3, kGcEnd = 5 };  // GC_EVENT_START, _RECLAIM_START, _END
constexpr uint32_t kGcQueue = 256;

GcPending g_q[kGcQueue];
std::atomic<uint64_t> g_q_head{0}, g_q_tail{0}, g_q_dropped{0};
uint64_t g_start_tick = 0;
mt_gc_event_callback g_prev = nullptr;
std::atomic<bool> g_installed{false};
std::atomic<bool> g_events{false};  // MT_FLAG_GC_EVENTS: queue GC records (else the hook is for lifetimes only)
std::atomic<bool> g_from_profiler{false};  // collections arrive through il2cpp's profiler

void record_event(int ev) {
    if (ev == kGcStart) {
        g_start_tick = now_ticks();
        lifetimes_on_gc_start();
    } else if (ev == kGcReclaimStart) {
        // Marking is complete and sweeping (and finalization) has not begun: mark bits are exact.
        lifetimes_on_reclaim_start(g.epoch.load(std::memory_order_acquire));
    } else if (ev == kGcEnd && g_events.load(std::memory_order_relaxed) && g.live.load(std::memory_order_relaxed)) {
        GcRecord r{g_start_tick, now_ticks(), 0, 0, 0, 0};
        if (auto stats = bridge().gc_get_prof_stats_unsafe) {
            ProfStats st;
            memset(&st, 0, sizeof st);
            stats(&st, sizeof st);
            r.heap_size = st.heapsize_full - st.unmapped_bytes;
            r.free_bytes = st.free_bytes_full - st.unmapped_bytes;
            r.reclaimed_bytes = st.bytes_reclaimed_since_gc;
            r.gc_no = st.gc_no;
        }
        uint64_t h = g_q_head.load(std::memory_order_relaxed);
        if (h - g_q_tail.load(std::memory_order_acquire) < kGcQueue) {
            g_q[h % kGcQueue] = GcPending{r, g.epoch.load(std::memory_order_acquire)};
            g_q_head.store(h + 1, std::memory_order_release);
        } else {
            g_q_dropped.fetch_add(1, std::memory_order_relaxed);
        }
    }
}

void on_gc_event(int ev) {
    record_event(ev);
    if (g_prev) g_prev(ev);  // chained: il2cpp's own callback (its profiler events) keeps running
}

}  // namespace

bool gc_present() { return bridge_connect() && bridge().gc_size != nullptr; }

bool gc_hooks_install(bool events) {
    // Recorded even without Boehm: il2cpp's profiler may report collections later (no-patch).
    g_events.store(events, std::memory_order_relaxed);
    g_q_tail.store(g_q_head.load(std::memory_order_relaxed), std::memory_order_relaxed);
    g_q_dropped.store(0, std::memory_order_relaxed);
    bridge_connect();
    const mt_il2cpp_bridge &b = bridge();
    if (!b.gc_set_on_collection_event || !b.gc_get_on_collection_event) return false;
    if (!g_installed.load(std::memory_order_relaxed)) {
        g_prev = b.gc_get_on_collection_event();
        b.gc_set_on_collection_event(on_gc_event);
        g_installed.store(true, std::memory_order_release);
    }
    return true;
}

void gc_hooks_remove() {
    // Only put the previous callback back if nobody replaced ours meanwhile.
    const mt_il2cpp_bridge &b = bridge();
    if (g_installed.load(std::memory_order_relaxed) && b.gc_get_on_collection_event() == on_gc_event) {
        b.gc_set_on_collection_event(g_prev);
        g_installed.store(false, std::memory_order_release);
    }
}

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

uint64_t gc_events_dropped() { return g_q_dropped.load(std::memory_order_relaxed); }

bool gc_heap_sample(uint64_t *heap_size, uint64_t *free_bytes) {
    const mt_il2cpp_bridge &b = bridge();
    if (!b.gc_get_heap_size || !b.gc_get_free_bytes) return false;
    *heap_size = b.gc_get_heap_size();
    *free_bytes = b.gc_get_free_bytes();
    return true;
}

}  // namespace mt::rt
