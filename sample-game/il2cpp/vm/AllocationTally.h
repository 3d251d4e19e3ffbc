// vm/AllocationTally.h — the sample game's own ground truth: what libil2cpp allocated, per class,
// since the last Take(). Counted where Unity counts il2cpp_runtime_stats.new_object_count (every
// Object::Allocate*) plus the GC_gcj_vector_malloc path, independently of MemTracer's hook and of
// the profiler callback. Not part of Unity's libil2cpp.
#pragma once

#include "il2cpp-class-internals.h"

#include <stddef.h>
#include <stdint.h>

namespace il2cpp
{
namespace vm
{
    struct ClassTally
    {
        Il2CppClass *klass;
        uint64_t count;
        uint64_t bytes;  // requested sizes
    };

    class AllocationTally
    {
    public:
        static void Record(const Il2CppClass *klass, size_t size);
        // Moves the counts since the previous Take into out (classes with count 0 skipped).
        static uint32_t Take(ClassTally *out, uint32_t max);
    };
} /* namespace vm */
} /* namespace il2cpp */
