// vm/Profiler.h — libil2cpp's profiler hub: installed profilers and their callbacks.
#pragma once

#include "il2cpp-api-types.h"

#include <atomic>

namespace il2cpp
{
namespace vm
{
    class Profiler
    {
    public:
        static void Install(Il2CppProfiler *prof, Il2CppProfileFunc shutdownCallback);
        static void SetEvents(Il2CppProfileFlags events);
        static void InstallAllocation(Il2CppProfileAllocFunc callback);
        static void InstallGC(Il2CppProfileGCFunc callback, Il2CppProfileGCResizeFunc heap_resize_callback);
        static void Allocation(Il2CppObject *obj, Il2CppClass *klass);
        static void GCEvent(Il2CppGCEvent eventType);
        static void GCHeapResize(int64_t newSize);
        static void Shutdown();

        static inline bool ProfileAllocations()
        {
            return (s_profilerEvents.load(std::memory_order_relaxed) & IL2CPP_PROFILE_ALLOCATIONS) != 0;
        }

    private:
        static std::atomic<int> s_profilerEvents;
    };
} /* namespace vm */
} /* namespace il2cpp */
