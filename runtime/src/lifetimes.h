// lifetimes.h — MT_FLAG_LIFETIMES: which traced objects died in each collection.
//
// The writer keeps a live table address -> (class, stack, alloc frame, gc size) of the objects it
// drained. The collector's callback (gc_hooks.cpp) does two things per collection:
//  - GC_EVENT_START (allocation lock held, world running): asks the writer to drain every ring
//    up to now and waits for it, at most kDrainWaitNs. The writer never needs the allocation
//    lock, so this cannot deadlock; a timeout is counted and the collection goes on.
//  - GC_EVENT_RECLAIM_START (lock held, marking done, world running again, before finalization
//    and sweeping): under the table mutex, every entry whose object is not marked is a death:
//    it leaves the table and goes to a deaths buffer, with the frame open at that moment.
// No allocation happens in the callback: a death only flags its entry in place and appends its
// slot index to a buffer the writer keeps as large as the number of live entries.
#ifndef MEMTRACER_RT_LIFETIMES_H
#define MEMTRACER_RT_LIFETIMES_H

#include <stdint.h>

#include "memtracer/trace_writer.h"

namespace mt::rt {

constexpr uint64_t kDrainWaitNs = 20000000;  // longest the collector waits for the writer

struct LiveObject {
    uint64_t address, alloc_seq;
    uint32_t class_id, stack_id;
    uint64_t gc_size;
};

struct PendingDeath {
    trace::DeathRecord rec;
    uint64_t epoch;  // frame open when the collection found it dead
};

bool lifetimes_supported();  // libgc with GC_is_marked, GC_base and collection events

// Writer side.
bool lifetimes_begin();  // allocates the first table; false if libgc (GC_is_marked) is absent
void lifetimes_end();    // stops the GC side and frees everything
using DeathSink = void (*)(void *ctx, const PendingDeath *d, uint32_t n);
// Adds drained objects (objects not in the GC heap are skipped); first hands pending deaths to
// `sink` (as lifetimes_take), and an object whose address is reused before a collection saw it
// die as well. False on out of memory.
bool lifetimes_add(const LiveObject *o, uint32_t n, DeathSink sink, void *ctx);
// The drain that began with lifetimes_drain_request() is complete.
uint64_t lifetimes_drain_request();
void lifetimes_drain_done(uint64_t req);
// Moves the deaths found so far to `sink(const PendingDeath *, n)`; returns how many.
uint32_t lifetimes_take(DeathSink sink, void *ctx);

struct LifetimesStats {
    uint64_t live, deaths, collections, drain_timeouts, not_gc_heap, last_scan_ns, total_scan_ns;
};
LifetimesStats lifetimes_stats();

// GC side (gc_hooks.cpp), allocation lock held.
void lifetimes_on_gc_start();
void lifetimes_on_reclaim_start(uint64_t epoch);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_LIFETIMES_H
