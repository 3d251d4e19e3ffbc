// gc_bridge.cpp — what a patched libil2cpp hands over (memtracer/il2cpp_bridge.h), for the tests
// that link Debian's libgc straight into the test program: Boehm's functions and nothing of
// il2cpp (these tests name classes through support.cpp's exported stand-ins).
#include <memtracer/il2cpp_bridge.h>

#define GC_THREADS 1  // as libil2cpp's gc_wrapper.h; declares GC_get_prof_stats_unsafe
#include <gc/gc.h>
#include <gc/gc_mark.h>

#include <atomic>
#include <string.h>

namespace {
std::atomic<mt_il2cpp_alloc_hook> g_hook{nullptr};
}

extern "C" __attribute__((visibility("default"))) int il2cpp_memtracer_bridge(mt_il2cpp_alloc_hook hook,
                                                                               mt_il2cpp_bridge *out) {
    if (!out || out->struct_size < sizeof(mt_il2cpp_bridge)) return 0;
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->version = MT_IL2CPP_BRIDGE_VERSION;
    out->gc_size = reinterpret_cast<size_t (*)(const void *)>(&GC_size);
    out->gc_get_heap_size = &GC_get_heap_size;
    out->gc_get_free_bytes = &GC_get_free_bytes;
    out->gc_set_on_collection_event = reinterpret_cast<void (*)(mt_gc_event_callback)>(&GC_set_on_collection_event);
    out->gc_get_on_collection_event = reinterpret_cast<mt_gc_event_callback (*)()>(&GC_get_on_collection_event);
    out->gc_get_prof_stats_unsafe = reinterpret_cast<size_t (*)(void *, size_t)>(&GC_get_prof_stats_unsafe);
    out->gc_is_marked = &GC_is_marked;
    out->gc_base = &GC_base;
    out->gc_get_gc_no = reinterpret_cast<size_t (*)()>(&GC_get_gc_no);
    g_hook.store(hook, std::memory_order_release);  // these tests call mt_on_alloc themselves
    return MT_IL2CPP_BRIDGE_VERSION;
}
