// slots.cpp — binding threads to slots (the hot path's slow path), thread exit, thread names.
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "state.h"

namespace mt::rt {

Globals g;
__thread Tls t_tls MT_TLS_MODEL;

namespace {

pthread_key_t g_exit_key;

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

void read_stack_bounds(ThreadSlot *s) {
    s->stack_lo = 0;
    s->stack_hi = UINTPTR_MAX;
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t top = reinterpret_cast<uintptr_t>(pthread_get_stackaddr_np(self));
    s->stack_hi = top;
    s->stack_lo = top - pthread_get_stacksize_np(self);
#elif defined(__linux__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void *addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr) {
        s->stack_lo = reinterpret_cast<uintptr_t>(addr);
        s->stack_hi = s->stack_lo + size;
    }
    pthread_attr_destroy(&attr);
#endif
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

// Two writers are possible (the owner, and mt_name_thread from another thread), so the odd
// sequence number is taken with a CAS: a writer that finds it odd waits for the other one.
void slot_publish_name(ThreadSlot &s, const char *name, uint32_t len) {
    uint32_t seq = s.name_seq.load(std::memory_order_relaxed);
    while ((seq & 1) || !s.name_seq.compare_exchange_weak(seq, seq + 1, std::memory_order_acquire,
                                                          std::memory_order_relaxed))
        seq = s.name_seq.load(std::memory_order_relaxed) & ~1u;
    std::atomic_thread_fence(std::memory_order_release);
    memcpy(s.name, name, len);
    s.name[len] = 0;
    s.name_seq.store(seq + 2, std::memory_order_release);
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
