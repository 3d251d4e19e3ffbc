// gc/GarbageCollector.cpp — libil2cpp's BoehmGC.cpp, the parts a player uses: initialisation
// (incremental mode, gcj + vector kinds, collection events into the profiler), thread
// registration, fixed roots, descriptors, heap sizes; and from libil2cpp's gc/GarbageCollector.cpp
// the finalizer thread.
//
// Initialize does what Unity's does, in its order: GC_enable_incremental and GC_set_time_limit,
// then GC_set_on_collection_event with its own callback, unconditionally. A tracer that installed
// a callback before il2cpp_init loses it here, as with Unity's runtime.
#include "gc/GarbageCollector.h"

#include "gc/gc_wrapper.h"
#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"
#include "vm/Class.h"
#include "vm/Object.h"
#include "vm/Profiler.h"

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

namespace
{
    bool s_GCInitialized = false;

    void on_gc_event(GC_EventType eventType)
    {
#if IL2CPP_ENABLE_PROFILER
        // libil2cpp casts bdwgc's event to Il2CppGCEvent: the first ten values coincide.
        if (eventType <= GC_EVENT_POST_START_WORLD)
            il2cpp::vm::Profiler::GCEvent(static_cast<Il2CppGCEvent>(eventType));
#endif
    }

    void on_heap_resize(GC_word newSize)
    {
#if IL2CPP_ENABLE_PROFILER
        il2cpp::vm::Profiler::GCHeapResize(static_cast<int64_t>(newSize));
#endif
    }

    const int VECTOR_PROC_INDEX = 6;

    // Marks the elements of an array of value types that hold references (the vector kind).
    // Unity's GC_gcj_vector_proc reads the element class's bitmap descriptor, which describes
    // the BOXED value (two header words first), and shifts it by two words to describe one
    // element; it then pushes elements in chunks. Here each reference word is pushed directly.
    GC_ms_entry *GC_gcj_vector_proc(GC_word *addr, GC_ms_entry *mark_stack_ptr, GC_ms_entry *mark_stack_limit,
                                    GC_word /*env*/)
    {
        Il2CppArraySize *a = reinterpret_cast<Il2CppArraySize *>(addr);
        Il2CppClass *array_type = a->klass;
        if (array_type == NULL || a->max_length == 0)
            return mark_stack_ptr;  // not yet initialised (see gc_vector_standin.cpp)
        Il2CppClass *element_type = array_type->element_class;
        GC_descr element_desc = reinterpret_cast<GC_descr>(element_type->gc_desc);
        const GC_word element_bits = (element_desc & ~static_cast<GC_descr>(GC_DS_TAGS)) << 2;
        const size_t words_per_element = array_type->element_size / sizeof(GC_word);
        const size_t word_bits = sizeof(GC_word) * 8;
        GC_word *p = reinterpret_cast<GC_word *>(a->vector);
        for (il2cpp_array_size_t e = 0; e < a->max_length; ++e, p += words_per_element)
        {
            for (size_t j = 0; j < words_per_element; ++j)
            {
                if (element_bits & (static_cast<GC_word>(1) << (word_bits - 1 - j)))
                    mark_stack_ptr = GC_MARK_AND_PUSH(reinterpret_cast<void *>(p[j]), mark_stack_ptr,
                                                      mark_stack_limit, reinterpret_cast<void **>(&p[j]));
            }
        }
        return mark_stack_ptr;
    }
}

namespace il2cpp
{
namespace gc
{
    void GarbageCollector::Initialize()
    {
        if (s_GCInitialized)
            return;
        // As in Unity: dynamic libraries' data segments are not roots; everything a managed
        // object is reachable from is a thread stack or a fixed (uncollectable) allocation.
        GC_set_no_dls(1);
        // Marking on the collecting thread only (the environment's GC_MARKERS still wins): stock
        // libgc would otherwise start marker threads in GC_allow_register_threads, and a game
        // that creates no thread of its own (--workers 0 --no-trace) should not need any.
        GC_set_markers_count(1);
#if IL2CPP_ENABLE_WRITE_BARRIERS
        // Unity's bdwgc takes its dirty bits from the write barriers (GC_END_STUBBORN_CHANGE);
        // Debian's libgc keeps its own (mprotect): same incremental cycles, same events.
        GC_enable_incremental();
#if IL2CPP_INCREMENTAL_TIME_SLICE
        GC_set_time_limit(IL2CPP_INCREMENTAL_TIME_SLICE);
#endif
#endif
        GC_set_on_collection_event(&on_gc_event);
        GC_set_on_heap_resize(&on_heap_resize);
        GC_INIT();
        // As Unity: finalizers run on the finalizer thread, which Boehm's notifier wakes.
        GC_set_finalize_on_demand(1);
        GC_set_finalizer_notifier(&GarbageCollector::NotifyFinalizers);
        GC_allow_register_threads();
        GC_init_gcj_malloc(0, NULL);
        GC_init_gcj_vector(VECTOR_PROC_INDEX, reinterpret_cast<void *>(&GC_gcj_vector_proc));
        s_GCInitialized = true;
    }

    namespace
    {
        sem_t s_FinalizerSemaphore;
        sem_t s_FinalizerStarted;
        bool s_FinalizerRunning = false;
        volatile bool s_StopFinalizer = false;
        pthread_t s_FinalizerThreadHandle;

        // libil2cpp's FinalizerThread: vm::Thread::Attach allocates the managed Thread object
        // first, and only then does the thread name itself. Until then it carries the name it
        // inherited from the process.
        void *FinalizerThread(void *)
        {
            GarbageCollector::RegisterThread();
            // Kept on this (scanned) stack for the thread's life, as il2cpp keeps its Thread.
            Il2CppObject *volatile threadObject = vm::Object::New(il2cpp_defaults.object_class);
            pthread_setname_np(pthread_self(), "GC Finalizer");
            sem_post(&s_FinalizerStarted);
            while (!s_StopFinalizer)
            {
                while (sem_wait(&s_FinalizerSemaphore) != 0)
                {
                }
                GC_invoke_finalizers();
            }
            (void)threadObject;
            return NULL;
        }
    }

    void GarbageCollector::InitializeFinalizer()
    {
        if (s_FinalizerRunning)
            return;
        GC_invoke_finalizers();
        sem_init(&s_FinalizerSemaphore, 0, 0);
        sem_init(&s_FinalizerStarted, 0, 0);
        if (pthread_create(&s_FinalizerThreadHandle, NULL, &FinalizerThread, NULL) != 0)
        {
            fprintf(stderr, "cannot start the finalizer thread, aborting.\n");
            abort();
        }
        while (sem_wait(&s_FinalizerStarted) != 0)
        {
        }
        s_FinalizerRunning = true;
    }

    // As UninitializeFinalizers (il2cpp_shutdown): stop the thread and join it.
    void GarbageCollector::UninitializeFinalizers()
    {
        if (!s_FinalizerRunning)
            return;
        s_StopFinalizer = true;
        sem_post(&s_FinalizerSemaphore);
        pthread_join(s_FinalizerThreadHandle, NULL);
        s_FinalizerRunning = false;
        s_StopFinalizer = false;
    }

    void GarbageCollector::NotifyFinalizers()
    {
        if (s_FinalizerRunning)
            sem_post(&s_FinalizerSemaphore);
    }

    void GarbageCollector::SetWriteBarrier(void **ptr)
    {
#if IL2CPP_ENABLE_WRITE_BARRIERS
        GC_END_STUBBORN_CHANGE(ptr);
#else
        (void)ptr;
#endif
    }

    void GarbageCollector::RegisterThread()
    {
        struct GC_stack_base sb;
        int res = GC_get_stack_base(&sb);
        if (res != GC_SUCCESS)
        {
            fprintf(stderr, "GC_get_stack_base () failed, aborting.\n");
            abort();
        }
        res = GC_register_my_thread(&sb);
        if (res != GC_SUCCESS && res != GC_DUPLICATE)
        {
            fprintf(stderr, "GC_register_my_thread () failed.\n");
            abort();
        }
    }

    bool GarbageCollector::UnregisterThread()
    {
        return GC_unregister_my_thread() == GC_SUCCESS;
    }

    void GarbageCollector::Collect(int)
    {
        GC_gcollect();
    }

    int64_t GarbageCollector::GetUsedHeapSize()
    {
        return static_cast<int64_t>(GC_get_heap_size() - GC_get_free_bytes());
    }

    int64_t GarbageCollector::GetAllocatedHeapSize()
    {
        return static_cast<int64_t>(GC_get_heap_size());
    }

    uint32_t GarbageCollector::GetCollectionCount()
    {
        return static_cast<uint32_t>(GC_get_gc_no());
    }

    bool GarbageCollector::IsIncremental()
    {
        return GC_is_incremental_mode() != 0;
    }

    bool GarbageCollector::IsDisabled()
    {
        return GC_is_disabled() != 0;
    }

    void *GarbageCollector::AllocateFixed(size_t size, void *descr)
    {
        IL2CPP_ASSERT(!descr);
        return GC_MALLOC_UNCOLLECTABLE(size);
    }

    void *GarbageCollector::MakeDescriptorForObject(size_t *bitmap, int numbits)
    {
        // As BoehmGC.cpp: "It seems there are issues when the bitmap doesn't fit: play it safe".
        if (numbits >= 30)
            return GC_NO_DESCRIPTOR;
        GC_descr desc = GC_make_descriptor(reinterpret_cast<GC_word *>(bitmap), static_cast<size_t>(numbits));
        IL2CPP_ASSERT((desc & GC_DS_TAGS) == GC_DS_BITMAP || (void *)desc == GC_NO_DESCRIPTOR);
        return reinterpret_cast<void *>(desc);
    }

    void *GarbageCollector::MakeDescriptorForArray()
    {
        return GC_NO_DESCRIPTOR;
    }

    void *GarbageCollector::MakeDescriptorForString()
    {
        return GC_NO_DESCRIPTOR;
    }
} /* namespace gc */
} /* namespace il2cpp */
