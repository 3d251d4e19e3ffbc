// gc/GarbageCollector.h — the part of libil2cpp's GC facade the sample game uses (Boehm only).
#pragma once

#include "il2cpp-config.h"

#include <stdint.h>

namespace il2cpp
{
namespace gc
{
    class GarbageCollector
    {
    public:
        static void Initialize();
        // The "GC Finalizer" thread (gc/GarbageCollector.cpp in libil2cpp): started by il2cpp_init.
        static void InitializeFinalizer();
        static void UninitializeFinalizers();  // il2cpp_shutdown: stops and joins it
        static void NotifyFinalizers();   // Boehm's finalizer notifier: wakes that thread
        static void SetWriteBarrier(void **ptr);
        static void RegisterThread();     // GC_register_my_thread for an attached thread
        static bool UnregisterThread();
        static void Collect(int maxGeneration);
        static int64_t GetUsedHeapSize();
        static int64_t GetAllocatedHeapSize();
        static uint32_t GetCollectionCount();
        static bool IsIncremental();
        static bool IsDisabled();
        static void *AllocateFixed(size_t size, void *descr);  // uncollectable, scanned: a root
        static void *MakeDescriptorForObject(size_t *bitmap, int numbits);
        static void *MakeDescriptorForArray();
        static void *MakeDescriptorForString();
    };
} /* namespace gc */
} /* namespace il2cpp */
