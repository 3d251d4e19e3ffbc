// frames.h — frame boundaries and the writer's wake-up, plus the Boehm GC hooks that feed GC
// chunks and heap sizes. Internal to the runtime.
//
// Frame attribution: g.epoch is the seq of the open frame. Each record carries the epoch its
// producer read (acquire, so the frame-end entry published before the epoch advanced is visible
// to the writer by the time it sees the record). mt_frame_end queues (epoch, index, tick) and
// advances the epoch; when the queue is full the frame end is folded into the next one
// (MT_FRAME_MERGED) rather than blocking the game.
#ifndef MEMTRACER_RT_FRAMES_H
#define MEMTRACER_RT_FRAMES_H

#include <stdint.h>

#include "state.h"
#include "memtracer/trace_writer.h"

namespace mt::rt {

void frames_reset(uint64_t start_tick);            // mt_start, before any producer runs
uint32_t frames_pop(FrameEnd *out, uint32_t max);  // writer
// Frame ends folded because the queue was full and not yet carried by a later entry (mt_stop).
uint32_t frames_pending_merge(uint64_t *last_index);
void writer_wait(uint64_t timeout_us);             // writer: sleeps until woken or timeout
// Writer, after an iteration that found nothing: sleeps until woken or timeout (the idle bound)
// unless work_waiting() (asked after the sleep is announced) finds a frame end, a mark or a GC
// event already queued; publishers wake it with wake_writer_if_idle (ring.h). Linux; elsewhere
// writer_wait.
void writer_wait_idle(uint64_t timeout_us, bool (*work_waiting)());
bool frames_queued();                              // any frame end queued (takes the queue's lock)

// GC (gc_hooks.cpp), through a patched libil2cpp's bridge (bridge.h): without it these report
// nothing (no-patch mode's collections come from il2cpp's profiler instead).
enum GcPendingKind : uint32_t {
    GC_PENDING_COLLECTION = 0,             // a collection the callback saw
    GC_PENDING_COLLECTION_INCOMPLETE = 1,  // a collection; its frame gets MT_FRAME_GC_INCOMPLETE
    GC_PENDING_INCOMPLETE = 2,             // no record: only flags the frame
};
struct GcPending {
    trace::GcRecord rec;
    uint64_t epoch;
    uint32_t kind;  // GcPendingKind
};
// Registers the collection-event callback (GC records queued only if `events`); false if Boehm
// is out of reach.
bool gc_hooks_install(bool events);
// Re-chains the callback if something replaced it (il2cpp's GarbageCollector::Initialize) and
// records, from GC_get_gc_no, collections Boehm completed that no callback of ours saw. Takes the
// GC lock: frame end and mt_stop, never from a collection callback.
void gc_hooks_poll();
uint32_t gc_hooks_rechains();  // mt_counters.gc_callback_rechains
void gc_hooks_remove();
uint32_t gc_events_pop(GcPending *out, uint32_t max);
bool gc_events_queued();  // writer: any GC event waiting
uint64_t gc_events_dropped();
bool gc_heap_sample(uint64_t *heap_size, uint64_t *free_bytes);  // takes the GC lock
bool gc_present();

}  // namespace mt::rt

#endif  // MEMTRACER_RT_FRAMES_H
