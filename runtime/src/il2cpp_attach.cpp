// il2cpp_attach.cpp — mt_attach_il2cpp: the no-patch mode. Finds il2cpp's profiler API in the
// process, installs a profiler whose allocation callback tells mt_on_alloc about every Object,
// Array and String libil2cpp allocates (Object::NewAllocSpecific, Array::NewSpecific including
// the GC_gcj_vector_malloc path, String::NewSize, Object::Clone all call Profiler::Allocation).
//
// The callback only receives (object, class); the requested size is recomputed as libil2cpp
// computed it before allocating (docs/il2cpp-notes.md):
//   object  il2cpp_class_instance_size(klass)
//   array   array header + il2cpp_array_length(obj) * il2cpp_array_element_size(klass)
//           (Array::NewSpecific: byte_len = n * elem_size + kIl2CppSizeOfArray)
//   string  sizeof(Il2CppString) + (il2cpp_string_length(obj) + 1) * 2   (String::NewSize)
// Multi-dimensional arrays (rank > 1) carry bounds after the elements; for those, and wherever
// il2cpp has no il2cpp_class_get_rank, il2cpp_object_get_size (Object::GetSize) is used.
//
// Collections: Boehm is internal to libil2cpp, so without a patched libil2cpp's bridge the
// profiler's GC callback (IL2CPP_PROFILE_GC) reports them, and GC sizes are estimated from
// Boehm's size classes (bridge.h); every frame says so in its flags.
//
// il2cpp is found wherever it is loaded (il2cpp_image.h): Android dlopens libil2cpp.so
// RTLD_LOCAL, out of dlsym(RTLD_DEFAULT)'s sight.
//
// Not attached twice: il2cpp has no way to remove a profiler, so a second call reports MT_OK.
// With a patched libil2cpp connected (bridge.h) allocations already arrive through the patch:
// MT_OK, and no profiler, so nothing is counted twice.
#include <atomic>

#include "memtracer/memtracer.h"
#include "bridge.h"
#include "errors.h"
#include "il2cpp_attach.h"
#include "il2cpp_image.h"

namespace mt::rt::il2cpp {

namespace {

Api g_api;
std::atomic<void *> g_string_class{nullptr};
size_t g_object_header = 2 * sizeof(void *);  // klass, monitor
size_t g_array_header = 4 * sizeof(void *);   // + bounds, max_length (kIl2CppSizeOfArray)
std::atomic<bool> g_attached{false};
char g_profiler_cookie;  // the Il2CppProfiler* il2cpp hands back to the callbacks

void *string_class() {
    void *k = g_string_class.load(std::memory_order_acquire);
    if (!k) {
        // Before il2cpp_init there are no classes yet: resolve on the first allocation instead.
        const void *corlib = g_api.get_corlib();
        if (corlib) k = g_api.class_from_name(corlib, "System", "String");
        if (k) g_string_class.store(k, std::memory_order_release);
    }
    return k;
}

void on_allocation(void * /*profiler*/, void *obj, void *klass) {
    if (!obj || !klass) return;
    mt_on_alloc(obj, klass, requested_size(g_api, string_class(), g_object_header, g_array_header, obj, klass));
}

void on_shutdown(void * /*profiler*/) {}

// Il2CppGCEvent numbers bdwgc's GC_EventType for the events both have (START .. END).
void on_gc(void * /*profiler*/, int event, int /*generation*/) { gc_hooks_profiler_event(event); }

// il2cpp_defaults.corlib is set in Runtime::Init after GarbageCollector::Initialize installed the
// collection callback il2cpp's profiler forwards.
bool gc_forwarding() { return g_api.get_corlib() != nullptr; }

// Boehm had not started when the profiler was attached (GC_get_heap_size is 0 until GC_init).
bool g_boehm_unstarted = false;

// The collection il2cpp's profiler cannot forward, once il2cpp set up its GC: bdwgc's GC_init
// collects when incremental mode is on, and il2cpp turns it on (GC_enable_incremental, which runs
// GC_init) before it installs its callback. Certain only when Boehm started after the attach and
// incremental mode is on with collections enabled; otherwise nothing is claimed, and the frame
// flag (gc_hooks.cpp) is all there is.
uint32_t gc_unseen_collections() {
    if (!g_boehm_unstarted || !g_api.gc_is_incremental || !g_api.gc_is_disabled) return 0;
    return g_api.gc_is_incremental() && !g_api.gc_is_disabled() ? 1u : 0u;
}

// Installed with the GC callback: 6000.x calls it whenever a GC callback is installed.
void on_heap_resize(void * /*profiler*/, int64_t /*new_size*/) {}

template <class F>
bool find(F &fn, const char *name, bool required, const char **missing) {
    fn = reinterpret_cast<F>(il2cpp_export(name));
    if (!fn && required && !*missing) *missing = name;
    return fn != nullptr;
}

}  // namespace

size_t requested_size(const Api &api, void *string_class, size_t object_header, size_t array_header, void *obj,
                      void *klass) {
    if (klass == string_class) {
        // sizeof(Il2CppString): header + int32 length, padded to pointer alignment.
        size_t header = (object_header + sizeof(int32_t) + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
        return header + (static_cast<size_t>(api.string_length(obj)) + 1) * 2;
    }
    int rank = api.class_get_rank ? api.class_get_rank(klass) : -1;
    if (rank == 1)
        return array_header + static_cast<size_t>(api.array_length(obj)) *
                                  static_cast<size_t>(api.array_element_size(klass));
    if (rank < 0 || rank > 1) {
        if (api.object_get_size) return api.object_get_size(obj);
    }
    int32_t size = api.class_instance_size(klass);
    return size > 0 ? static_cast<size_t>(size) : 0;
}

}  // namespace mt::rt::il2cpp

extern "C" MT_API mt_status mt_attach_il2cpp(void) {
    using namespace mt::rt::il2cpp;
    if (g_attached.load(std::memory_order_acquire)) return MT_OK;
    if (mt::rt::bridge_connect()) return MT_OK;  // patched: the ALLOC_* hooks already report
    Api api{};
    const char *missing = nullptr;
    find(api.profiler_install, "il2cpp_profiler_install", true, &missing);
    find(api.profiler_set_events, "il2cpp_profiler_set_events", true, &missing);
    find(api.profiler_install_allocation, "il2cpp_profiler_install_allocation", true, &missing);
    find(api.class_instance_size, "il2cpp_class_instance_size", true, &missing);
    find(api.array_length, "il2cpp_array_length", true, &missing);
    find(api.array_element_size, "il2cpp_array_element_size", true, &missing);
    find(api.string_length, "il2cpp_string_length", true, &missing);
    find(api.get_corlib, "il2cpp_get_corlib", true, &missing);
    find(api.class_from_name, "il2cpp_class_from_name", true, &missing);
    find(api.class_get_rank, "il2cpp_class_get_rank", false, &missing);
    find(api.object_get_size, "il2cpp_object_get_size", false, &missing);
    find(api.object_header_size, "il2cpp_object_header_size", false, &missing);
    find(api.array_object_header_size, "il2cpp_array_object_header_size", false, &missing);
    find(api.profiler_install_gc, "il2cpp_profiler_install_gc", false, &missing);
    find(api.gc_get_heap_size, "il2cpp_gc_get_heap_size", false, &missing);
    find(api.gc_is_incremental, "il2cpp_gc_is_incremental", false, &missing);
    find(api.gc_is_disabled, "il2cpp_gc_is_disabled", false, &missing);
    if (!missing && !api.class_get_rank && !api.object_get_size)
        missing = "il2cpp_class_get_rank (or il2cpp_object_get_size)";
    if (missing) {
        mt::rt::set_last_error("MT_ERR_IL2CPP_NOT_FOUND: %s is not exported by any loaded image (global scope and"
                               " each image by its handle); is libil2cpp loaded, with the profiler API compiled in?",
                               missing);
        return MT_ERR_IL2CPP_NOT_FOUND;
    }
    bool expected = false;
    if (!g_attached.compare_exchange_strong(expected, true)) return MT_OK;  // another thread won
    g_api = api;
    if (api.object_header_size) g_object_header = api.object_header_size();
    if (api.array_object_header_size) g_array_header = api.array_object_header_size();
    // Install applies to a new profiler; the Install* and SetEvents calls that follow configure
    // the last one installed (vm/Profiler.cpp), i.e. ours.
    api.profiler_install(&g_profiler_cookie, on_shutdown);
    api.profiler_install_allocation(on_allocation);
    int events = kProfileAllocations;
    if (api.profiler_install_gc) {
        api.profiler_install_gc(on_gc, on_heap_resize);
        events |= kProfileGC;
        // Before il2cpp_init: Boehm's first collection runs inside il2cpp's GC set-up, before
        // the callback that would forward it exists (gc_hooks.cpp).
        if (!gc_forwarding()) {
            g_boehm_unstarted = api.gc_get_heap_size && api.gc_get_heap_size() == 0;
            mt::rt::gc_hooks_profiler_blind(mt::rt::ProfilerBlind{&gc_forwarding, &gc_unseen_collections});
        }
    }
    // Boehm lives inside libil2cpp, out of reach without the patch: estimate its size classes.
    mt::rt::gc_size_estimate_enable();
    api.profiler_set_events(events);
    return MT_OK;
}
