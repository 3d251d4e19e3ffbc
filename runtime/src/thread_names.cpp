// thread_names.cpp — mt_name_thread: naming a thread from another thread, as Unity's
// RegisterCreateThreadCallback may do. A thread that already has a slot in this capture is
// renamed in place; otherwise the name waits in a small table until the thread binds a slot.
// And the OS name of a thread the game never named through MemTracer is re-read by the writer:
// a thread may name itself after its first allocation (il2cpp's finalizer thread attaches, which
// allocates its Thread object, and only then calls SetName "GC Finalizer").
// Cold path only: a spinlock guards the table, nothing here runs per allocation.
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "errors.h"
#include "state.h"

namespace mt::rt {
namespace {

constexpr uint32_t kPending = 64;  // threads named ahead of their first allocation

struct PendingName {
    uint64_t pthread_id;  // 0: free
    uint32_t len;
    char name[kNameMax];
};

PendingName g_pending[kPending];
std::atomic<uint32_t> g_pending_lock{0};

struct SpinGuard {
    SpinGuard() {
        while (g_pending_lock.exchange(1, std::memory_order_acquire)) {
        }
    }
    ~SpinGuard() { g_pending_lock.store(0, std::memory_order_release); }
};

// Returns false when the table is full (the name then only reaches threads already bound).
bool pending_put(uint64_t id, const char *name, uint32_t len) {
    SpinGuard guard;
    PendingName *free_entry = nullptr;
    for (PendingName &p : g_pending) {
        if (p.pthread_id == id) free_entry = &p;
        if (!free_entry && p.pthread_id == 0) free_entry = &p;
    }
    if (!free_entry) return false;
    free_entry->pthread_id = id;
    free_entry->len = len;
    memcpy(free_entry->name, name, len);
    free_entry->name[len] = 0;
    return true;
}

bool rename_bound_slot(uint64_t id, const char *name, uint32_t len) {
    if (!g.slots || !g.live.load(std::memory_order_acquire)) return false;
    const uint64_t gen = g.gen.load(std::memory_order_acquire);
    bool renamed = false;
    for (uint32_t i = 0; i < g.max_threads; ++i) {
        ThreadSlot &s = g.slots[i];
        if (s.state.load(std::memory_order_acquire) != SLOT_OWNED) continue;
        if (s.gen.load(std::memory_order_acquire) != gen || s.pthread_id.load(std::memory_order_acquire) != id)
            continue;
        slot_publish_name(s, name, len);
        renamed = true;
    }
    return renamed;
}

constexpr uint64_t kOsNamePollNs = 100000000;  // 0.1 s: a rename shows within a few frames
uint64_t g_last_os_poll_ns = 0;                 // writer thread only

// The kernel's name of thread `tid` of this process (Linux, Android: /proc/self/task/<tid>/comm,
// what pthread_setname_np writes); false if it cannot be read (the thread is gone).
bool read_os_name(uint64_t tid, char *out, uint32_t *len) {
#if defined(__linux__)
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%llu/comm", static_cast<unsigned long long>(tid));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    ssize_t n = read(fd, out, kNameMax - 1);
    close(fd);
    if (n <= 0) return false;
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == 0)) --n;
    out[n] = 0;
    *len = static_cast<uint32_t>(n);
    return true;
#else
    (void)tid, (void)out, (void)len;
    return false;  // Apple: a thread's name is read at its binding only
#endif
}

}  // namespace

void thread_names_refresh_os(uint64_t gen, bool force) {
    if (!g.slots) return;
    const uint64_t now = mono_ns();
    if (!force && now - g_last_os_poll_ns < kOsNamePollNs) return;
    g_last_os_poll_ns = now;
    for (uint32_t i = 0; i < g.max_threads; ++i) {
        ThreadSlot &s = g.slots[i];
        if (s.state.load(std::memory_order_acquire) != SLOT_OWNED || s.gen.load(std::memory_order_acquire) != gen)
            continue;
        // A name the game gave (mt_set_thread_name, mt_name_thread) is never replaced by the OS's
        // (slot_refresh_os_name), so its /proc read (open, read, close: 12% of the writer's samples
        // at 60 frames a second, issue 22 eleventh session) is skipped. Within a capture the flag
        // only goes from true to false (a game name replaces the OS one; only the slot's set-up
        // for a capture sets it), so a thread skipped here would have kept its name anyway;
        // slot_refresh_os_name still decides under the name's lock for the threads read.
        if (!s.name_from_os.load(std::memory_order_relaxed)) continue;
        char name[kNameMax];
        uint32_t len = 0;
        if (read_os_name(s.os_tid, name, &len)) slot_refresh_os_name(s, name, len);
    }
}

bool pending_name_take(uint64_t id, char *out, uint32_t *len) {
    SpinGuard guard;
    for (const PendingName &p : g_pending) {
        if (p.pthread_id != id) continue;
        memcpy(out, p.name, p.len + 1);
        *len = p.len;
        return true;
    }
    return false;
}

void pending_name_forget(uint64_t id) {
    SpinGuard guard;
    for (PendingName &p : g_pending)
        if (p.pthread_id == id) p.pthread_id = 0;
}

}  // namespace mt::rt

using namespace mt::rt;

extern "C" MT_API mt_status mt_name_thread(uint64_t native_thread_id, const char *name) {
    if (!name || native_thread_id == 0) {
        set_last_error("MT_ERR_ARGUMENT: mt_name_thread needs a thread id and a name");
        return MT_ERR_ARGUMENT;
    }
    if (native_thread_id == static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pthread_self())))
        return mt_set_thread_name(name);
    const uint32_t len = static_cast<uint32_t>(strnlen(name, kNameMax - 1));
    // Kept even when the slot is renamed now: the thread may allocate again in a later capture.
    const bool kept = pending_put(native_thread_id, name, len);
    const bool renamed = rename_bound_slot(native_thread_id, name, len);
    if (renamed) wake_writer();
    if (!kept && !renamed) {
        set_last_error("mt_name_thread: more than 64 threads named ahead of their first allocation");
        return MT_ERR_ARGUMENT;
    }
    return MT_OK;
}
