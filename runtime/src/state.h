// state.h — the runtime's shared state: thread slots, the globals the hot path reads, and the
// frame queue. Internal to the runtime.
//
// Slot lifetime. The slot table is mapped once (MT_MAX_THREADS entries, pages touched only as
// slots are used) and never unmapped, so a thread may always touch the slot it is bound to. A
// thread binds to a slot on its first traced allocation and keeps it across captures until it
// exits; its pthread-key destructor then marks the slot EXITING and the writer (or the next
// mt_start) frees it. Per capture the owner re-initialises its slot (ring, counters, thread id)
// when it sees a new generation. Ring memory: mt_stop unmaps it only after every slot is quiescent
// (see quiesce() in lifecycle.cpp); otherwise the ring stays with its slot for the next capture.
#ifndef MEMTRACER_RT_STATE_H
#define MEMTRACER_RT_STATE_H

#include <atomic>
#include <pthread.h>
#include <stdint.h>

#include "memtracer/memtracer.h"
#include "ring.h"
#include "unwind.h"

namespace mt::rt {

constexpr uint32_t kDedupBits = 8;
constexpr uint32_t kDedupEntries = 1u << kDedupBits;  // per-thread "stack already sent" cache (2 KiB)
constexpr uint32_t kNameMax = 64;

// RELEASING: mt_stop is unmapping the ring of a slot no thread owns (nobody may bind it meanwhile).
enum SlotState : uint32_t { SLOT_FREE = 0, SLOT_OWNED = 1, SLOT_EXITING = 2, SLOT_RELEASING = 3 };

// Owner-written counters: plain load + store on relaxed atomics (no RMW), summed by readers.
// Every allocation the slot sees ends as exactly one of recorded, dropped or sampled out, so the
// readers sum those three for "seen" (writer_commit.cpp) instead of the hot path bumping a fourth
// counter (a load, an add and a store per allocation; issue 22 twelfth session).
struct SlotCounters {
    std::atomic<uint64_t> recorded{0}, dropped{0}, sampled_out{0}, reentrant{0};
    uint64_t seen() const {
        return recorded.load(std::memory_order_relaxed) + dropped.load(std::memory_order_relaxed) +
               sampled_out.load(std::memory_order_relaxed);
    }
};

inline void bump(std::atomic<uint64_t> &c, uint64_t n = 1) {
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

struct alignas(64) ThreadSlot {
    Ring ring;
    // ---- owner thread, hot ----
    alignas(64) std::atomic<uint32_t> in_hook{0};  // reentrancy guard + quiescence flag
    uint32_t index = 0;
    std::atomic<uint64_t> gen{0};    // capture generation this slot was set up for (0: none)
    std::atomic<uint64_t> counters_gen{0};  // capture the counters belong to
    SlotCounters counters;
    double until_sample = 0;         // bytes until the next sample point
    uint64_t rng = 0;
    WalkBounds walk;                 // the thread's stack bounds as fp_walk uses them (slots.cpp)
    uint64_t dedup[kDedupEntries];
    // ---- control ----
    alignas(64) std::atomic<uint32_t> state{SLOT_FREE};
    uint32_t thread_id = 0;          // binding number, unique per capture (not the file id)
    uint64_t os_tid = 0;
    std::atomic<uint64_t> pthread_id{0};  // pthread_self() of the owner, for mt_name_thread
    std::atomic<uint32_t> name_seq{0};  // seqlock: odd while a writer (owner or mt_name_thread) writes name
    char name[kNameMax];
    // name is the OS thread name (refreshed by the writer). Written under name_seq; atomic so the
    // writer's name poll may read it without the seqlock to skip threads the game named itself.
    std::atomic<bool> name_from_os{false};
    // ---- writer thread ----
    alignas(64) uint32_t written_name_seq = 0;
    uint32_t thread_written = 0;     // THREADS entry emitted for thread_id
    uint32_t written_tid = UINT32_MAX;  // binding (thread_id) the file id below belongs to
    uint32_t file_tid = 0;              // dense id in the file, assigned in order of definition
};

// A frame end, as mt_frame_end saw it.
struct FrameEnd {
    uint64_t epoch, index, end_tick, heap_size, free_bytes;
    uint32_t merged;  // frame ends folded into this one because the queue was full
};

constexpr uint32_t kFrameQueue = 64;

struct Globals {
    // Hot line: read by every traced allocation.
    alignas(64) std::atomic<uint32_t> enabled{0};  // live && !paused && !disabled
    std::atomic<uint32_t> live{0};                 // a capture runs (paused included)
    std::atomic<uint64_t> gen{0};                  // current capture generation, 0 = none
    std::atomic<uint64_t> epoch{0};                // frame epoch = seq of the open frame
    uint32_t max_depth = 0;
    uint32_t max_threads = 0;
    uint32_t unwinder = 0;
    uint32_t on_full = 0;
    uint64_t ring_cap = 0;
    uint64_t sample_interval = 0;
    uint64_t seed = 0;
    bool gc_frame_stats = false;                   // sample GC heap size at each frame end

    // Cold.
    alignas(64) ThreadSlot *slots = nullptr;       // MT_MAX_THREADS entries, never unmapped
    std::atomic<uint32_t> next_thread_id{0};
    std::atomic<uint64_t> noslot_dropped{0};       // allocations with no slot to go to
    std::atomic<uint64_t> noslot_seen{0};
    std::atomic<uint32_t> paused{0};
    std::atomic<uint32_t> disabled{0};

    // Frame queue: mt_frame_end pushes under a spinlock held for a few instructions.
    alignas(64) std::atomic<uint32_t> fq_lock{0};
    FrameEnd fq[kFrameQueue];
    uint32_t fq_head = 0, fq_count = 0, fq_merge = 0;
    uint64_t fq_merge_index = 0;                   // last index folded while the queue was full
    uint64_t start_tick = 0;

    // Writer wake-up (frames.cpp). Linux: a futex word, kWakeIdle / kWakePending / kWakeSleeping:
    // a wake is one exchange, plus a FUTEX_WAKE only while the writer sleeps. Elsewhere a
    // condition variable and wake_flag.
    alignas(64) std::atomic<uint32_t> wake_word{0};
    pthread_mutex_t wake_mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t wake_cv = PTHREAD_COND_INITIALIZER;
    uint32_t wake_flag = 0;
};

extern Globals g __attribute__((visibility("hidden")));

// Per-thread binding. The TLS model is left to the compiler unless MEMTRACER_TLS_INITIAL_EXEC:
// linked into an executable the linker relaxes it to local-exec (a single fs-relative load);
// in a dlopen'ed plug-in it stays dynamic, which every loader supports.
struct Tls {
    ThreadSlot *slot;
    uint32_t exited;       // the thread is past its slot's destructor: never bind again
    uint32_t noslot_tries; // drops since the last attempt to find a free slot
    uint32_t name_len;
    char name[kNameMax];   // mt_set_thread_name, kept even with no capture running
};

#if defined(MEMTRACER_TLS_INITIAL_EXEC)
#define MT_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define MT_TLS_MODEL
#endif
extern __thread Tls t_tls MT_TLS_MODEL __attribute__((visibility("hidden")));  // __thread: never a dynamic initialiser, so no TLS wrapper call

// slots.cpp
bool slots_init();                        // maps the table once; false on failure
ThreadSlot *slot_bind_current(uint64_t gen);  // slow path: bind and set up for `gen`
void slots_capture_begin();               // mt_start: free slots of threads that exited
uint32_t slot_read_name(const ThreadSlot &s, char *out);  // writer: consistent copy, returns len
void slot_publish_name(ThreadSlot &s, const char *name, uint32_t len, bool from_os = false);
// The writer: the OS thread name `name` replaces a slot name that also came from the OS; true if
// it changed (a rename the writer then emits).
bool slot_refresh_os_name(ThreadSlot &s, const char *name, uint32_t len);
// thread_names.cpp, writer thread: re-reads the OS names of the threads traced in capture `gen`
// at most every kOsNamePollNs (always when `force`), so a name a thread gives itself after its
// first allocation (il2cpp's "GC Finalizer") reaches the file.
void thread_names_refresh_os(uint64_t gen, bool force);
uint64_t current_os_tid();
// Ring memory (slots.cpp). ensure: the owner, in its per-capture set-up, keeps a ring of that
// size, unmaps one of another size, or maps one. release: unmaps; only once no producer can be
// inside the ring (mt_stop after quiescence). slots_release_unowned_rings: mt_stop without
// quiescence, for slots whose thread is gone. ring_bytes_mapped: what all rings hold now.
bool slot_ring_ensure(ThreadSlot *s, uint64_t cap);
void slot_ring_release(ThreadSlot *s);
void slots_release_unowned_rings();
uint64_t ring_bytes_mapped();

// thread_names.cpp: names given with mt_name_thread before the named thread bound a slot.
bool pending_name_take(uint64_t pthread_id, char *out, uint32_t *len);  // copies, keeps the entry
void pending_name_forget(uint64_t pthread_id);                          // the thread exited

// Writer wake-up (frames.cpp).
void wake_writer();

}  // namespace mt::rt

#endif  // MEMTRACER_RT_STATE_H
