// hot_path.cpp — mt_on_alloc: what every managed allocation of a traced game pays for.
//
// Order of work: one relaxed load of `enabled` (all a paused or stopped capture costs), the
// thread's slot from TLS (slow path binds it), reentrancy guard, sampling, stack capture into a
// fixed array, stack hash, GC_size, tick, one record into the thread's SPSC ring. No lock, no
// allocation, no syscall after the thread's first traced allocation in a capture.
#include <string.h>

#include "bridge.h"
#include "clock.h"
#include "native_heaps.h"
#include "rt_math.h"
#include "state.h"
#include "unwind.h"

namespace mt::rt {

namespace {

enum Setup { SETUP_OK, SETUP_SKIP, SETUP_REBIND };

// Per-capture set-up of the caller's own slot; runs with in_hook held.
__attribute__((noinline, cold)) Setup slot_setup(ThreadSlot *s) {
    if (!g.enabled.load(std::memory_order_relaxed)) return SETUP_SKIP;
    uint64_t gen = g.gen.load(std::memory_order_acquire);
    if (s->gen.load(std::memory_order_relaxed) == gen) return SETUP_OK;
    if (s->index >= g.max_threads) return SETUP_REBIND;  // bound under a larger max_threads
    if (s->counters_gen != gen) {
        s->counters.recorded.store(0, std::memory_order_relaxed);
        s->counters.dropped.store(0, std::memory_order_relaxed);
        s->counters.sampled_out.store(0, std::memory_order_relaxed);
        s->counters.reentrant.store(0, std::memory_order_relaxed);
        s->counters_gen.store(gen, std::memory_order_release);
    }
    if (!slot_ring_ensure(s, g.ring_cap)) {  // slots.cpp: keeps, resizes or maps the ring
        bump(s->counters.dropped);  // and so seen (SlotCounters)
        return SETUP_SKIP;
    }
    s->ring.reset(s->ring.mem, g.ring_cap);
    memset(s->dedup, 0, sizeof s->dedup);
    s->thread_id = g.next_thread_id.fetch_add(1, std::memory_order_relaxed);
    s->os_tid = current_os_tid();
    s->written_name_seq = 0;
    s->thread_written = 0;
    const uint64_t self = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pthread_self()));
    s->pthread_id.store(self, std::memory_order_release);
    // Name priority: the thread's own mt_set_thread_name, then a name another thread gave it with
    // mt_name_thread (Unity's thread callback), then the OS thread name.
    char nm[kNameMax] = {0};
    uint32_t nm_len = 0;
    if (t_tls.name_len == 0 && pending_name_take(self, nm, &nm_len)) {
        slot_publish_name(*s, nm, nm_len);
    } else if (t_tls.name_len == 0) {
        pthread_getname_np(pthread_self(), nm, sizeof nm);
        slot_publish_name(*s, nm, static_cast<uint32_t>(strnlen(nm, kNameMax - 1)), /*from_os=*/true);
    } else {
        slot_publish_name(*s, t_tls.name, t_tls.name_len);
    }
    s->rng = splitmix64(g.seed ^ splitmix64(s->thread_id + 1)) | 1;
    s->until_sample = g.sample_interval ? exp_draw(&s->rng, static_cast<double>(g.sample_interval)) : 0;
    s->gen.store(gen, std::memory_order_release);
    return SETUP_OK;
}

__attribute__((noinline, cold)) ThreadSlot *bind_slow() {
    ThreadSlot *s = slot_bind_current(0);
    if (!s) {
        g.noslot_seen.fetch_add(1, std::memory_order_relaxed);
        g.noslot_dropped.fetch_add(1, std::memory_order_relaxed);
    }
    return s;
}

__attribute__((noinline, cold)) void rebind_slow(ThreadSlot *s) {
    // Give the out-of-range slot back; the next allocation binds a slot in range.
    t_tls.slot = nullptr;
    s->gen.store(0, std::memory_order_relaxed);
    s->state.store(SLOT_FREE, std::memory_order_release);
    g.noslot_seen.fetch_add(1, std::memory_order_relaxed);
    g.noslot_dropped.fetch_add(1, std::memory_order_relaxed);
}

// Next sample point of the Poisson process over the thread's allocated bytes. The process is
// memoryless, so however many points fell inside this allocation it is sampled once, with
// probability 1 - exp(-size / interval).
__attribute__((noinline)) void redraw_sample_point(ThreadSlot *s) {
    do s->until_sample += exp_draw(&s->rng, static_cast<double>(g.sample_interval));
    while (s->until_sample <= 0);
}

// Waits for room when the capture asked for MT_ON_FULL_BLOCK; gives up if the capture ends.
__attribute__((noinline)) uint8_t *reserve_blocking(ThreadSlot *s, uint32_t len, uint64_t *next) {
    for (uint32_t spins = 0;; ++spins) {
        uint8_t *w = s->ring.reserve(len, next);
        if (w || !g.enabled.load(std::memory_order_relaxed)) return w;
        if (spins % 64 == 63) {
            wake_writer();
            sched_yield();
        }
    }
}

// kNative: a native heap's allocation (mt_on_native_alloc): its GC size is its size, whatever GC
// the process has.
template <bool kNative>
__attribute__((always_inline)) inline void record(ThreadSlot *s, void *obj, void *klass, size_t size, uintptr_t ra,
                                                  uintptr_t fp) {
    // Seen: counted as the one of recorded, dropped or sampled out it ends as (SlotCounters).
    if (g.sample_interval) {
        s->until_sample -= static_cast<double>(size);
        if (s->until_sample > 0) {
            bump(s->counters.sampled_out);
            return;
        }
        redraw_sample_point(s);
    }
    uint64_t frames[MT_MAX_STACK_DEPTH];
    uint64_t key;
    uint32_t depth;
    if (g.unwinder == MT_UNWIND_FRAME_POINTER) {
        depth = fp_walk(ra, fp, s->walk, frames, g.max_depth, &key);
    } else {
        depth = libunwind_capture(ra, frames, g.max_depth);
        key = hash_frames_key(frames, depth);
    }
    // The dedup entry holds the record's hash of the stack (the key with bit 0 set, unwind.h),
    // indexed by the key's top bits; an empty entry is 0, which no hash is, so no test of the
    // key against 0 (issue 22 twelfth session). Two keys that differ only in bit 0 share an entry
    // as they share the hash, which is all the writer tells stacks apart by.
    const uint64_t hash = stack_hash_mix(key);
    uint64_t &cached = s->dedup[key >> (64 - kDedupBits)];
    const bool known = cached == hash;
    uint64_t gc_size = size;
    if (!kNative) {
        if (auto gc_size_fn = g_gc_size.load(std::memory_order_relaxed); gc_size_fn && obj)
            gc_size = gc_size_fn(obj);  // GC_size, handed over by a patched libil2cpp
        else if (g_gc_size_source.load(std::memory_order_relaxed) == GC_SIZE_ESTIMATED)
            gc_size = boehm_size_estimate(size);
    }
    // The record's length and kind for the common case, then the rare large one on its own
    // branch (fewer instructions than folding `large` into both; issue 22 twelfth session).
    uint32_t len = known ? static_cast<uint32_t>(sizeof(AllocRec)) : static_cast<uint32_t>(sizeof(AllocRec)) + depth * 8u;
    uint8_t kind = known ? REC_ALLOC_SHORT : REC_ALLOC_FULL;
    const bool large = (size | (gc_size - size)) > UINT32_MAX;  // also catches gc_size < size
    if (__builtin_expect(large, 0)) {
        len += sizeof(AllocLarge);
        kind |= REC_LARGE;
    }
    // The tick after the walk, not before it: rdtsc is microcoded (it holds up the dispatch of
    // what follows it), and at the hook's start nothing else is in flight to hide that behind;
    // here the walk's load chain and the hash's multiplies still are. Same event, same
    // information: the tick is read inside the hook either way (docs/benchmarks.md, issue 22).
    // The frame epoch with it, after the walk too: an allocation's epoch and tick are read
    // together, and the epoch's register is not held (spilled) across the walk.
    uint64_t epoch = g.epoch.load(std::memory_order_acquire);
    uint64_t tick = now_ticks();
    uint64_t next;
    uint8_t *w;
    if (__builtin_expect(!s->ring.reserve_fast(len, &w, &next), 0) && !(w = s->ring.reserve(len, &next))) {
        if (g.on_full == MT_ON_FULL_BLOCK) w = reserve_blocking(s, len, &next);
        if (!w) {
            bump(s->counters.dropped);
            return;
        }
        // The wait may have crossed frame ends: the event lands in the frame it is pushed in.
        epoch = g.epoch.load(std::memory_order_acquire);
        tick = now_ticks();
    }
    AllocRec *r = reinterpret_cast<AllocRec *>(w);
    r->len = static_cast<uint16_t>(len);
    r->kind = kind;
    r->depth = static_cast<uint8_t>(depth);
    r->epoch = static_cast<uint32_t>(epoch);
    r->obj = reinterpret_cast<uint64_t>(obj);
    r->klass = reinterpret_cast<uint64_t>(klass);
    r->size = static_cast<uint32_t>(size);
    r->gc_extra = static_cast<uint32_t>(gc_size - size);
    r->hash = hash;
    uint8_t *tail = w + sizeof(AllocRec);
    if (large) {
        AllocLarge big{size, gc_size};
        memcpy(tail, &big, sizeof big);
        tail += sizeof big;
    }
    if (!known) memcpy(tail, frames, depth * 8u);
    r->tick = tick;
    s->ring.publish(next);
    // Only after the full frames are in the ring: a later short record can never reach the
    // writer ahead of (or without) the frames it refers to.
    if (!known) cached = hash;
    bump(s->counters.recorded);
}

// A native free: one header-only record, which the writer turns into a death (native_heaps.h).
// A full ring loses it uncounted: `dropped` counts allocations (recorded + dropped + sampled out
// = seen); the object then stays alive in the lifetimes, a leak candidate.
void record_free(ThreadSlot *s, void *obj) {
    uint64_t next;
    uint8_t *w = s->ring.reserve(sizeof(AllocRec), &next);
    if (!w) return;
    AllocRec *r = reinterpret_cast<AllocRec *>(w);
    memset(r, 0, sizeof *r);
    r->len = sizeof(AllocRec);
    r->kind = REC_FREE;
    r->epoch = static_cast<uint32_t>(g.epoch.load(std::memory_order_acquire));
    r->tick = now_ticks();
    r->obj = reinterpret_cast<uint64_t>(obj);
    s->ring.publish(next);
}

enum Op { OP_ALLOC, OP_NATIVE_ALLOC, OP_NATIVE_FREE };

// Everything after the enabled check; kept out of mt_on_alloc so a paused or stopped capture
// costs a load and a branch, not this function's prologue.
template <Op kOp>
__attribute__((noinline)) void on_alloc_enabled(void *obj, void *klass, size_t requested_size, uintptr_t ra,
                                                uintptr_t fp) {
    ThreadSlot *s = t_tls.slot;
    if (__builtin_expect(!s, 0)) {
        s = bind_slow();
        if (!s) return;
    }
    if (s->in_hook.load(std::memory_order_relaxed)) {
        bump(s->counters.reentrant);
        return;
    }
    s->in_hook.store(1, std::memory_order_relaxed);
    // Pairs with the heavy barrier in quiesce(): either mt_stop sees in_hook, or we see the
    // capture ended in the loads below.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (__builtin_expect(!g.enabled.load(std::memory_order_relaxed) ||
                             s->gen.load(std::memory_order_relaxed) != g.gen.load(std::memory_order_relaxed),
                         0)) {
        Setup st = slot_setup(s);
        if (st != SETUP_OK) {
            s->in_hook.store(0, std::memory_order_release);
            if (st == SETUP_REBIND) rebind_slow(s);
            return;
        }
    }
    if (kOp == OP_NATIVE_FREE)
        record_free(s, obj);
    else
        record<kOp == OP_NATIVE_ALLOC>(s, obj, klass, requested_size, ra, fp);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    // gcc kept &s->in_hook from the guard's store in a stack slot for this clear (a lea, a spill
    // and a reload) while s itself stays in a register: an empty asm makes it address the clear
    // from s again. s is unchanged.
    __asm__("" : "+r"(s));
    s->in_hook.store(0, std::memory_order_release);
}

}  // namespace

}  // namespace mt::rt

using namespace mt::rt;

// The entry point the GC hook calls. noinline with a frame of its own, so its return address and
// saved frame pointer are exactly the caller's: the first recorded frame is the call site.
//
// Laid out for the paused case (a load, a branch not taken, ret): a running capture's taken branch
// costs nothing next to its walk, a paused one's would be a third of what it pays.
extern "C" MT_API __attribute__((noinline)) void mt_on_alloc(void *obj, void *klass, size_t requested_size) {
    if (__builtin_expect(g.enabled.load(std::memory_order_relaxed) != 0, 0))
        on_alloc_enabled<OP_ALLOC>(obj, klass, requested_size, reinterpret_cast<uintptr_t>(__builtin_return_address(0)),
                                   *static_cast<uintptr_t *>(__builtin_frame_address(0)));
}

// The same for a native heap (native_heaps.cpp hands out the handles). skip_frames: frames of the
// caller's own (an ITT collector's entry point) left out, walked over by their frame records.
extern "C" MT_API __attribute__((noinline)) void mt_on_native_alloc(void *ptr, void *heap, size_t size,
                                                                   uint32_t skip_frames) {
    if (__builtin_expect(!g.enabled.load(std::memory_order_relaxed), 0)) return;
    uintptr_t ra = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    uintptr_t fp = *static_cast<uintptr_t *>(__builtin_frame_address(0));
    for (uint32_t i = 0; i < skip_frames && fp != 0 && (fp & 7) == 0; ++i) {
        const uintptr_t *rec = reinterpret_cast<const uintptr_t *>(fp);
        if (rec[1] == 0 || rec[0] <= fp) break;
        ra = rec[1];
        fp = rec[0];
    }
    on_alloc_enabled<OP_NATIVE_ALLOC>(ptr, heap ? heap : native_heap_other(), size, ra, fp);
}

extern "C" MT_API void mt_on_native_free(void *ptr) {
    if (__builtin_expect(!g.enabled.load(std::memory_order_relaxed), 0) || !ptr) return;
    on_alloc_enabled<OP_NATIVE_FREE>(ptr, nullptr, 0, 0, 0);
}
