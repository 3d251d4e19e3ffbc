// native_heaps.h — the table of native heaps (mt_native_heap) and the writer's native live table.
//
// A heap's handle is the address of its entry in a fixed process-wide table, so the writer tells a
// native "class" from an Il2CppClass* by address range, with no lookup and nothing in the ring
// record. Entries are appended, never removed (a heap is named once, like a domain in ITT) and
// outlive captures. Internal to the runtime.
#ifndef MEMTRACER_RT_NATIVE_HEAPS_H
#define MEMTRACER_RT_NATIVE_HEAPS_H

#include <stddef.h>
#include <stdint.h>

#include "hashmap.h"
#include "lifetimes.h"
#include "memtracer/trace_writer.h"
#include "memtracer/noncopyable.h"

namespace mt::rt {

void *native_heap_other();                 // the entry for "other native heaps" (NULL handle, table full)
bool native_heap_is(uint64_t klass);      // klass is a native heap's handle
// Fills rec for a native heap (flags MT_CLASS_NATIVE); false if klass is not one.
bool native_heap_describe(uint64_t klass, trace::ClassRecord *rec, char *buf, size_t buf_size);

// Writer side: live native allocations, address -> (alloc frame, class, stack, size), so that a
// free becomes a death (MT_FLAG_LIFETIMES). A free whose allocation has not been drained yet (it
// was pushed on another thread's ring drained later) waits kFreeRetries drains, then counts as
// unmatched.
class NativeLive {
public:
    NativeLive() = default;
    MT_NONCOPYABLE(NativeLive);

    // An allocation; a live one at the same address (its free was never reported) dies first.
    // False on out of memory.
    bool add(const LiveObject &o, uint64_t epoch, void (*sink)(void *, const PendingDeath *, uint32_t), void *ctx);
    // A free seen in frame epoch; false on out of memory.
    bool free(uint64_t address, uint64_t epoch, void (*sink)(void *, const PendingDeath *, uint32_t), void *ctx);
    // End of a drain over every ring: retries the frees still waiting for their allocation.
    void end_drain(void (*sink)(void *, const PendingDeath *, uint32_t), void *ctx);
    uint64_t unmatched() const { return unmatched_; }

private:
    static constexpr uint32_t kFreeRetries = 2;
    static constexpr uint32_t kNone = UINT32_MAX;
    struct Pending {
        uint64_t address, epoch;
        uint32_t tries;
    };
    bool take(uint64_t address, uint64_t epoch, void (*sink)(void *, const PendingDeath *, uint32_t), void *ctx);

    U64Map index_;          // address -> slot in objs_ (kNone: freed)
    Vec<LiveObject> objs_;  // slots; freed ones are listed in free_slots_
    Vec<uint32_t> free_slots_;
    Vec<Pending> pending_, retry_;
    uint64_t unmatched_ = 0;
};

}  // namespace mt::rt

#endif  // MEMTRACER_RT_NATIVE_HEAPS_H
