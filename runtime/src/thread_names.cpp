// thread_names.cpp — mt_name_thread: naming a thread from another thread, as Unity's
// RegisterCreateThreadCallback may do. A thread that already has a slot in this capture is
// renamed in place; otherwise the name waits in a small table until the thread binds a slot.
// Cold path only: a spinlock guards the table, nothing here runs per allocation.
#include <pthread.h>
#include <string.h>

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

}  // namespace

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
