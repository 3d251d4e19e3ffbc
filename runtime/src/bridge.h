// bridge.h — the runtime's side of memtracer/il2cpp_bridge.h: what a patched libil2cpp hands
// over (Boehm's and il2cpp's functions), and where the GC sizes of the events come from.
// Internal to the runtime.
#ifndef MEMTRACER_RT_BRIDGE_H
#define MEMTRACER_RT_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include <atomic>

#include "memtracer/il2cpp_bridge.h"

namespace mt::rt {

// Finds il2cpp_memtracer_bridge in the loaded images, installs mt_on_alloc as libil2cpp's
// allocation hook and keeps the functions it hands over. Once connected it stays so; until then
// every call looks again (libil2cpp may be loaded after mt_start). Not for the hot path.
bool bridge_connect();
bool bridge_connected();
// The handed-over table (all NULL before a connection). Never changes once connected.
const mt_il2cpp_bridge &bridge();
// Whether the runtime records (mt_start, mt_resume: true; mt_pause, mt_stop, the runtime
// disabling itself: false). With a patch that hands over set_alloc_hook, libil2cpp's hook slot
// holds mt_on_alloc only while recording and NULL otherwise, so a paused or stopped capture costs
// the game one load and a branch per allocation and no call. Order against g.enabled: true
// before enabling (no allocation of the recording period is missed), false after disabling
// (mt_on_alloc still checks g.enabled for a thread that loaded the slot just before). Applied
// again when the patch connects later. An older patch (no set_alloc_hook): the hook stays.
void bridge_set_recording(bool on);
// libil2cpp's hook slot can be cleared (the patch handed over set_alloc_hook).
bool bridge_can_clear_hook();
// One of il2cpp's exports by name, from the bridge if it handed it over, else NULL.
void *bridge_il2cpp_function(const char *name);

// Where an event's GC size comes from. Read per frame for its flags (format.h mt_frame_flags).
enum GcSizeSource : int {
    GC_SIZE_REQUESTED = 0,  // no collector reachable: the requested size
    GC_SIZE_EXACT = 1,      // GC_size of the object, through the bridge
    GC_SIZE_ESTIMATED = 2,  // Boehm's size-class rounding of the requested size (no-patch mode)
};
extern std::atomic<size_t (*)(const void *)> g_gc_size;  // GC_size, once connected
extern std::atomic<int> g_gc_size_source;
void gc_size_estimate_enable();  // no-patch mode with Boehm out of reach
uint32_t gc_source_frame_flags();

// What GC_size would say for an object of `requested` bytes in a 64-bit (32-bit) bdwgc with
// interior pointers on: +1 byte, whole 16-byte (8-byte) granules, and for sizes past the tiny
// free lists an even number of granules that divides a 4 KiB block evenly (GC_extend_size_map).
// A lower bound: bdwgc may group a size into a larger class depending on what was allocated first.
uint64_t boehm_size_estimate(uint64_t requested);

// Collections reported by il2cpp's profiler (no-patch mode): bdwgc's event numbering.
void gc_hooks_profiler_event(int ev);
uint32_t gc_hooks_frame_flags();  // MT_FRAME_GC_FROM_PROFILER when that is where they come from
// Attached before il2cpp set up its GC: Boehm collects before il2cpp's profiler can forward it
// (gc_hooks.cpp). Frames are flagged MT_FRAME_GC_INCOMPLETE up to the frame end at which
// gc_set_up() first holds, and that frame records unseen_collections() (asked then) more.
struct ProfilerBlind {
    bool (*gc_set_up)();                // il2cpp has installed the callback its profiler forwards
    uint32_t (*unseen_collections)();   // collections Boehm certainly completed before that
};
void gc_hooks_profiler_blind(const ProfilerBlind &blind);  // once, by mt_attach_il2cpp

}  // namespace mt::rt

#endif  // MEMTRACER_RT_BRIDGE_H
