// slots.cpp — binding threads to slots (the hot path's slow path), thread exit, thread names.
#include <errno.h>
#include <initializer_list>  // range-for over a braced list
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "state.h"

#if defined(MAP_POPULATE)
#define MT_MAP_POPULATE MAP_POPULATE
#else
#define MT_MAP_POPULATE 0
#endif

namespace mt::rt {

Globals g;
__thread Tls t_tls MT_TLS_MODEL;

namespace {

pthread_key_t g_exit_key;
std::atomic<uint64_t> g_ring_bytes{0};  // mapped by all rings now (leak check in the tests)

// Runs when a bound thread exits (glibc keeps thread_local storage readable until after the key
// destructors). From here on the thread never binds again; the writer drains what it left.
void on_thread_exit(void *) {
    t_tls.exited = 1;
    // pthread_t values are reused: a name given for this thread must not stick to the next one.
    pending_name_forget(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pthread_self())));
    ThreadSlot *s = t_tls.slot;
    t_tls.slot = nullptr;
    if (!s) return;
    uint32_t owned = SLOT_OWNED;
    s->state.compare_exchange_strong(owned, SLOT_EXITING, std::memory_order_acq_rel);
    wake_writer();
}

// The walk's bounds are derived here once per thread, not on each allocation (unwind.h).
void read_stack_bounds(ThreadSlot *s) {
    uintptr_t lo = 0, hi = UINTPTR_MAX;
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t top = reinterpret_cast<uintptr_t>(pthread_get_stackaddr_np(self));
    hi = top;
    lo = top - pthread_get_stacksize_np(self);
#elif defined(__linux__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr = nullptr;
        size_t size = 0;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr) {
            lo = reinterpret_cast<uintptr_t>(addr);
            hi = lo + size;
        }
        pthread_attr_destroy(&attr);
    }
#endif
    s->walk = walk_bounds(lo, hi);
}

}  // namespace

uint64_t current_os_tid() {
#if defined(__APPLE__)
    uint64_t tid = 0;
    pthread_threadid_np(nullptr, &tid);
    return tid;
#elif defined(__linux__)
    return static_cast<uint64_t>(syscall(SYS_gettid));
#else
    return reinterpret_cast<uint64_t>(pthread_self());
#endif
}

// Only the owner writes its ring and only the current capture's writer reads it (the last
// capture's writer was joined in mt_stop), so the owner may unmap its own ring here even when
// mt_stop could not prove quiescence: the one thread that could still be in it is this one.
bool slot_ring_ensure(ThreadSlot *s, uint64_t cap) {
    if (s->ring.mem && s->ring.cap == cap) return true;
    slot_ring_release(s);
    // MAP_POPULATE: the page faults of a first pass through the ring would otherwise be taken on
    // the hot path, one per 4 KiB of records.
    void *m = mmap(nullptr, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MT_MAP_POPULATE, -1, 0);
    if (m == MAP_FAILED) return false;
    s->ring.mem = static_cast<uint8_t *>(m);
    s->ring.cap = cap;
    g_ring_bytes.fetch_add(cap, std::memory_order_relaxed);
    return true;
}

void slot_ring_release(ThreadSlot *s) {
    if (!s->ring.mem) return;
    munmap(s->ring.mem, s->ring.cap);
    g_ring_bytes.fetch_sub(s->ring.cap, std::memory_order_relaxed);
    s->ring.mem = nullptr;
    s->ring.cap = 0;
}

// After the writer was joined, without proof that producers are out of their hooks: a FREE or
// EXITING slot has no thread that could still be inside its ring (its owner exited), so its
// ring can go. The slot is held RELEASING meanwhile so a thread that binds now takes another.
void slots_release_unowned_rings() {
    for (uint32_t i = 0; i < MT_MAX_THREADS; ++i) {
        ThreadSlot &s = g.slots[i];
        if (!s.ring.mem) continue;
        for (uint32_t from : {static_cast<uint32_t>(SLOT_FREE), static_cast<uint32_t>(SLOT_EXITING)}) {
            uint32_t expect = from;
            if (!s.state.compare_exchange_strong(expect, SLOT_RELEASING, std::memory_order_acq_rel)) continue;
            slot_ring_release(&s);
            if (from == SLOT_EXITING) s.gen.store(0, std::memory_order_relaxed);
            s.state.store(SLOT_FREE, std::memory_order_release);
            break;
        }
    }
}

uint64_t ring_bytes_mapped() { return g_ring_bytes.load(std::memory_order_relaxed); }

bool slots_init() {
    if (g.slots) return true;
    size_t bytes = sizeof(ThreadSlot) * MT_MAX_THREADS;
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    if (pthread_key_create(&g_exit_key, on_thread_exit) != 0) {
        munmap(p, bytes);
        return false;
    }
    ThreadSlot *slots = static_cast<ThreadSlot *>(p);  // zero pages are a valid FREE slot
    for (uint32_t i = 0; i < MT_MAX_THREADS; ++i) slots[i].index = i;
    g.slots = slots;
    return true;
}

void slots_capture_begin() {
    for (uint32_t i = 0; i < MT_MAX_THREADS; ++i) {
        ThreadSlot &s = g.slots[i];
        uint32_t exiting = SLOT_EXITING;
        if (s.state.load(std::memory_order_relaxed) == SLOT_EXITING) {
            s.gen.store(0, std::memory_order_relaxed);
            s.state.compare_exchange_strong(exiting, SLOT_FREE, std::memory_order_acq_rel);
        }
    }
}

// Three writers are possible (the owner, mt_name_thread from another thread, and the writer
// refreshing an OS name), so the odd sequence number is taken with a CAS: a writer that finds it
// odd waits for the other one.
static uint32_t name_lock(ThreadSlot &s) {
    uint32_t seq = s.name_seq.load(std::memory_order_relaxed);
    while ((seq & 1) || !s.name_seq.compare_exchange_weak(seq, seq + 1, std::memory_order_acquire,
                                                          std::memory_order_relaxed))
        seq = s.name_seq.load(std::memory_order_relaxed) & ~1u;
    std::atomic_thread_fence(std::memory_order_release);
    return seq;
}

void slot_publish_name(ThreadSlot &s, const char *name, uint32_t len, bool from_os) {
    uint32_t seq = name_lock(s);
    memcpy(s.name, name, len);
    s.name[len] = 0;
    s.name_from_os.store(from_os, std::memory_order_relaxed);
    s.name_seq.store(seq + 2, std::memory_order_release);
}

bool slot_refresh_os_name(ThreadSlot &s, const char *name, uint32_t len) {
    uint32_t seq = name_lock(s);
    // A name the game gave (mt_set_thread_name, mt_name_thread) always wins over the OS's.
    bool changed = s.name_from_os.load(std::memory_order_relaxed) && strcmp(s.name, name) != 0;  // name: NUL-terminated, len < kNameMax
    if (changed) {
        memcpy(s.name, name, len);
        s.name[len] = 0;
    }
    // Unchanged: the same even number again, so the writer sees no rename.
    s.name_seq.store(changed ? seq + 2 : seq, std::memory_order_release);
    return changed;
}

uint32_t slot_read_name(const ThreadSlot &s, char *out) {
    for (int tries = 0; tries < 100; ++tries) {
        uint32_t a = s.name_seq.load(std::memory_order_acquire);
        if (a & 1) continue;
        memcpy(out, s.name, kNameMax);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (s.name_seq.load(std::memory_order_relaxed) == a) {
            out[kNameMax - 1] = 0;
            return static_cast<uint32_t>(strlen(out));
        }
    }
    out[0] = 0;
    return 0;
}

// Slow path, no slot bound yet (or the slot was given back). Called with nothing held.
ThreadSlot *slot_bind_current(uint64_t) {
    if (t_tls.exited || !g.slots) return nullptr;
    // A thread that found no slot retries only now and then, so a full table costs little.
    if (t_tls.noslot_tries && ++t_tls.noslot_tries < 1024) return nullptr;
    t_tls.noslot_tries = 0;
    uint32_t n = g.max_threads;
    for (uint32_t i = 0; i < n; ++i) {
        ThreadSlot &s = g.slots[i];
        uint32_t free_state = SLOT_FREE;
        if (s.state.load(std::memory_order_relaxed) != SLOT_FREE ||
            !s.state.compare_exchange_strong(free_state, SLOT_OWNED, std::memory_order_acq_rel))
            continue;
        s.gen.store(0, std::memory_order_relaxed);
        read_stack_bounds(&s);
        s.rng = 0;
        pthread_setspecific(g_exit_key, reinterpret_cast<void *>(1));
        t_tls.slot = &s;
        return &s;
    }
    t_tls.noslot_tries = 1;
    return nullptr;
}

}  // namespace mt::rt
