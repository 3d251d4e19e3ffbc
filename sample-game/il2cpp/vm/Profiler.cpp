// vm/Profiler.cpp — same semantics as libil2cpp's: Install appends a profiler; SetEvents and the
// Install* calls apply to the last one installed; events go to every profiler that asked for them.
// A fixed table instead of a growable vector: profilers are installed while other threads may
// already allocate, and a reader must never see a reallocating array.
#include "vm/Profiler.h"

#include <stddef.h>

namespace il2cpp
{
namespace vm
{
    namespace
    {
        struct ProfilerDesc
        {
            Il2CppProfiler *profiler;
            std::atomic<int> events;
            Il2CppProfileFunc shutdownCallback;
            Il2CppProfileAllocFunc allocationCallback;
            Il2CppProfileGCFunc gcEventCallback;
            Il2CppProfileGCResizeFunc gcHeapResizeCallback;
        };

        const int kMaxProfilers = 8;
        ProfilerDesc s_profilers[kMaxProfilers];
        std::atomic<int> s_profilerCount{0};

        ProfilerDesc *Last()
        {
            int n = s_profilerCount.load(std::memory_order_acquire);
            return n ? &s_profilers[n - 1] : NULL;
        }
    }

    std::atomic<int> Profiler::s_profilerEvents{0};

    void Profiler::Install(Il2CppProfiler *prof, Il2CppProfileFunc shutdownCallback)
    {
        int n = s_profilerCount.load(std::memory_order_relaxed);
        if (n == kMaxProfilers)
            return;
        s_profilers[n].profiler = prof;
        s_profilers[n].shutdownCallback = shutdownCallback;
        s_profilerCount.store(n + 1, std::memory_order_release);
    }

    void Profiler::SetEvents(Il2CppProfileFlags events)
    {
        if (ProfilerDesc *d = Last())
            d->events.store(events, std::memory_order_release);
        int value = IL2CPP_PROFILE_NONE;
        for (int i = 0, n = s_profilerCount.load(std::memory_order_acquire); i < n; ++i)
            value |= s_profilers[i].events.load(std::memory_order_relaxed);
        s_profilerEvents.store(value, std::memory_order_release);
    }

    void Profiler::InstallAllocation(Il2CppProfileAllocFunc callback)
    {
        if (ProfilerDesc *d = Last())
            d->allocationCallback = callback;
    }

    void Profiler::InstallGC(Il2CppProfileGCFunc callback, Il2CppProfileGCResizeFunc heap_resize_callback)
    {
        if (ProfilerDesc *d = Last())
        {
            d->gcEventCallback = callback;
            d->gcHeapResizeCallback = heap_resize_callback;
        }
    }

    void Profiler::Allocation(Il2CppObject *obj, Il2CppClass *klass)
    {
        for (int i = 0, n = s_profilerCount.load(std::memory_order_acquire); i < n; ++i)
        {
            ProfilerDesc &d = s_profilers[i];
            if ((d.events.load(std::memory_order_acquire) & IL2CPP_PROFILE_ALLOCATIONS) && d.allocationCallback)
                d.allocationCallback(d.profiler, obj, klass);
        }
    }

    void Profiler::GCEvent(Il2CppGCEvent eventType)
    {
        for (int i = 0, n = s_profilerCount.load(std::memory_order_acquire); i < n; ++i)
        {
            ProfilerDesc &d = s_profilers[i];
            if ((d.events.load(std::memory_order_acquire) & IL2CPP_PROFILE_GC) && d.gcEventCallback)
                d.gcEventCallback(d.profiler, eventType, 0);
        }
    }

    void Profiler::GCHeapResize(int64_t newSize)
    {
        for (int i = 0, n = s_profilerCount.load(std::memory_order_acquire); i < n; ++i)
        {
            ProfilerDesc &d = s_profilers[i];
            // Unity 6000.x tests gcEventCallback and calls gcHeapResizeCallback; kept as is, so a
            // profiler that installs a GC callback without a resize callback crashes here too.
            if ((d.events.load(std::memory_order_acquire) & IL2CPP_PROFILE_GC) && d.gcEventCallback)
                d.gcHeapResizeCallback(d.profiler, newSize);
        }
    }

    void Profiler::Shutdown()
    {
        for (int i = 0, n = s_profilerCount.load(std::memory_order_acquire); i < n; ++i)
            if (s_profilers[i].shutdownCallback)
                s_profilers[i].shutdownCallback(s_profilers[i].profiler);
    }
} /* namespace vm */
} /* namespace il2cpp */
