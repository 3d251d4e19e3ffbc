// il2cpp-runtime-stats.h — il2cpp_runtime_stats.new_object_count, incremented by every
// Object::Allocate* as in Unity (atomic here: the sample game allocates from several threads).
#pragma once

#include <atomic>
#include <stdint.h>

struct Il2CppRuntimeStats
{
    std::atomic<uint64_t> new_object_count{0};
    std::atomic<uint64_t> initialized_class_count{0};
};

extern Il2CppRuntimeStats il2cpp_runtime_stats;
