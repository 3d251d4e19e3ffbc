// gc_hooks.cpp — Boehm GC collections and heap sizes (MT_FLAG_GC_EVENTS), through weak symbols
// so the runtime links and runs without libgc.
//
// The collection-event callback runs on the collecting thread with the allocation lock held
// (and, for some events, the world stopped): it only reads counters with the *_unsafe API meant
// for that context and pushes into a fixed single-producer queue (one collection at a time).
// With MT_FLAG_LIFETIMES it also drives the death scan (lifetimes.h) at START and RECLAIM_START.
#include <string.h>

#include "clock.h"
#include "frames.h"
#include "lifetimes.h"

extern "C" {
struct GC_prof_stats_s;
typedef void (*mt_gc_event_proc)(int);
void GC_set_on_collection_event(mt_gc_event_proc) __attribute__((weak));
mt_gc_event_proc GC_get_on_collection_event(void) __attribute__((weak));
size_t GC_get_prof_stats_unsafe(GC_prof_stats_s *, size_t) __attribute__((weak));
size_t GC_get_heap_size(void) __attribute__((weak));
size_t GC_get_free_bytes(void) __attribute__((weak));
size_t GC_size(const void *) __attribute__((weak));
}

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
mt_gc_event_proc g_prev = nullptr;
bool g_installed = false;
bool g_events = false;  // MT_FLAG_GC_EVENTS: queue GC records (else the hook is for lifetimes only)

void on_gc_event(int ev) {
    if (ev == kGcStart) {
        g_start_tick = now_ticks();
        lifetimes_on_gc_start();
    } else if (ev == kGcReclaimStart) {
        // Marking is complete and sweeping (and finalization) has not begun: mark bits are exact.
        lifetimes_on_reclaim_start(g.epoch.load(std::memory_order_acquire));
    } else if (ev == kGcEnd && g_events && g.live.load(std::memory_order_relaxed)) {
        GcRecord r{g_start_tick, now_ticks(), 0, 0, 0, 0};
        if (GC_get_prof_stats_unsafe) {
            ProfStats st;
            memset(&st, 0, sizeof st);
            GC_get_prof_stats_unsafe(reinterpret_cast<GC_prof_stats_s *>(&st), sizeof st);
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
    if (g_prev) g_prev(ev);
}

}  // namespace

bool gc_present() { return GC_size != nullptr; }

bool gc_hooks_install(bool events) {
    if (!GC_set_on_collection_event || !GC_get_on_collection_event) return false;
    g_events = events;
    g_q_tail.store(g_q_head.load(std::memory_order_relaxed), std::memory_order_relaxed);
    g_q_dropped.store(0, std::memory_order_relaxed);
    if (!g_installed) {
        g_prev = GC_get_on_collection_event();
        GC_set_on_collection_event(on_gc_event);
        g_installed = true;
    }
    return true;
}

void gc_hooks_remove() {
    // Only put the previous callback back if nobody replaced ours meanwhile.
    if (g_installed && GC_get_on_collection_event() == on_gc_event) {
        GC_set_on_collection_event(g_prev);
        g_installed = false;
    }
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
    if (!GC_get_heap_size || !GC_get_free_bytes) return false;
    *heap_size = GC_get_heap_size();
    *free_bytes = GC_get_free_bytes();
    return true;
}

}  // namespace mt::rt
