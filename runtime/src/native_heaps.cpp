// native_heaps.cpp — mt_native_heap's table and the writer's native live table (native_heaps.h).
#include "native_heaps.h"

#include <atomic>
#include <stdio.h>
#include <string.h>

#include "memtracer/memtracer.h"

namespace mt::rt {

namespace {

struct Heap {
    std::atomic<uint32_t> ready{0};  // name and domain written
    char name[64];
    char domain[64];
};

// Entry 0 is "other native heaps": the answer once the table is full or for a NULL handle.
Heap g_heaps[MT_MAX_NATIVE_HEAPS + 1];
std::atomic<uint32_t> g_count{1};
std::atomic<uint32_t> g_lock{0};  // serialises appends (rare: once per heap)

void copy(char *dst, size_t cap, const char *src) { snprintf(dst, cap, "%s", src ? src : ""); }

Heap *other() {
    Heap &h = g_heaps[0];
    if (!h.ready.load(std::memory_order_acquire)) {
        copy(h.name, sizeof h.name, "other native heaps");
        h.domain[0] = 0;
        h.ready.store(1, std::memory_order_release);
    }
    return &h;
}

}  // namespace

void *native_heap_other() { return other(); }

bool native_heap_is(uint64_t klass) {
    uint64_t lo = reinterpret_cast<uint64_t>(&g_heaps[0]), hi = reinterpret_cast<uint64_t>(&g_heaps[MT_MAX_NATIVE_HEAPS + 1]);
    return klass >= lo && klass < hi;
}

bool native_heap_describe(uint64_t klass, trace::ClassRecord *rec, char *buf, size_t buf_size) {
    if (!native_heap_is(klass)) return false;
    const Heap &h = *reinterpret_cast<const Heap *>(klass);
    size_t ns_cap = buf_size / 4;
    bool ready = h.ready.load(std::memory_order_acquire);
    copy(buf, ns_cap, ready ? h.domain : "");
    copy(buf + ns_cap, buf_size - ns_cap, ready ? h.name : "native heap");
    rec->klass = klass;
    rec->name_space = buf;
    rec->name = buf + ns_cap;
    rec->flags = MT_CLASS_NATIVE;
    rec->element_size = 0;
    return true;
}

bool NativeLive::take(uint64_t address, uint64_t epoch, void (*sink)(void *, const PendingDeath *, uint32_t),
                      void *ctx) {
    uint32_t slot;
    if (!index_.find(address, &slot) || slot == kNone) return false;
    const LiveObject &o = objs_[slot];
    PendingDeath d{{o.address, o.alloc_seq, o.class_id, o.stack_id, o.gc_size}, epoch};
    sink(ctx, &d, 1);
    index_.insert(address, kNone);  // overwrites in place: never grows the table
    free_slots_.push(slot);         // out of memory: the slot is not reused, nothing is lost
    return true;
}

bool NativeLive::add(const LiveObject &o, uint64_t epoch, void (*sink)(void *, const PendingDeath *, uint32_t),
                     void *ctx) {
    if (o.address == 0) return true;
    take(o.address, epoch, sink, ctx);  // reused without a reported free
    uint32_t slot;
    if (free_slots_.size()) {
        slot = free_slots_[free_slots_.size() - 1];
        free_slots_.pop();
        objs_[slot] = o;
    } else {
        slot = objs_.size();
        if (!objs_.push(o)) return false;
    }
    return index_.insert(o.address, slot);
}

bool NativeLive::free(uint64_t address, uint64_t epoch, void (*sink)(void *, const PendingDeath *, uint32_t),
                      void *ctx) {
    if (address == 0 || take(address, epoch, sink, ctx)) return true;
    return pending_.push(Pending{address, epoch, 0});
}

void NativeLive::end_drain(void (*sink)(void *, const PendingDeath *, uint32_t), void *ctx) {
    retry_.clear();
    for (uint32_t i = 0; i < pending_.size(); ++i) {
        Pending p = pending_[i];
        if (take(p.address, p.epoch, sink, ctx)) continue;
        if (++p.tries >= kFreeRetries)
            ++unmatched_;  // a free of memory allocated before the capture, or whose allocation was dropped
        else if (!retry_.push(p))
            ++unmatched_;
    }
    pending_.clear();
    for (uint32_t i = 0; i < retry_.size(); ++i) pending_.push(retry_[i]);
}

}  // namespace mt::rt

// Heaps are few and named once: a linear scan under a spinlock held for a few hundred instructions.
extern "C" MT_API void *mt_native_heap(const char *name, const char *name_space) {
    using namespace mt::rt;
    if (!name) return other();
    while (g_lock.exchange(1, std::memory_order_acquire)) {
    }
    uint32_t n = g_count.load(std::memory_order_relaxed);
    const char *ns = name_space ? name_space : "";
    Heap *found = nullptr;
    for (uint32_t i = 1; i < n && !found; ++i)
        if (strncmp(g_heaps[i].name, name, sizeof g_heaps[i].name - 1) == 0 &&
            strncmp(g_heaps[i].domain, ns, sizeof g_heaps[i].domain - 1) == 0)
            found = &g_heaps[i];
    if (!found && n <= MT_MAX_NATIVE_HEAPS) {
        found = &g_heaps[n];
        copy(found->name, sizeof found->name, name);
        copy(found->domain, sizeof found->domain, ns);
        found->ready.store(1, std::memory_order_release);
        g_count.store(n + 1, std::memory_order_relaxed);
    }
    g_lock.store(0, std::memory_order_release);
    return found ? found : other();
}
