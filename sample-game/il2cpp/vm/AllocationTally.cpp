// vm/AllocationTally.cpp — per-class relaxed counters indexed by Il2CppClass::class_index.
#include "vm/AllocationTally.h"

#include "vm/Class.h"

#include <atomic>

namespace il2cpp
{
namespace vm
{
    namespace
    {
        struct Counter
        {
            std::atomic<uint64_t> count{0};
            std::atomic<uint64_t> bytes{0};
        };
        Counter s_counters[Class::kMaxClasses];
    }

    void AllocationTally::Record(const Il2CppClass *klass, size_t size)
    {
        Counter &c = s_counters[klass->class_index];
        c.count.fetch_add(1, std::memory_order_relaxed);
        c.bytes.fetch_add(size, std::memory_order_relaxed);
    }

    uint32_t AllocationTally::Take(ClassTally *out, uint32_t max)
    {
        static Il2CppClass *classes[Class::kMaxClasses];
        uint32_t n = Class::GetAll(classes, Class::kMaxClasses), written = 0;
        for (uint32_t i = 0; i < n && written < max; ++i)
        {
            Counter &c = s_counters[classes[i]->class_index];
            uint64_t count = c.count.exchange(0, std::memory_order_relaxed);
            uint64_t bytes = c.bytes.exchange(0, std::memory_order_relaxed);
            if (count)
                out[written++] = ClassTally{classes[i], count, bytes};
        }
        return written;
    }
} /* namespace vm */
} /* namespace il2cpp */
