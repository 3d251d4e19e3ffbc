// real_gc_h.cpp — the patched Object.cpp block over the system's real bdwgc headers (gc.h,
// gc_mark.h), compiled with and without GC_THREADS. libil2cpp's gc_wrapper.h defines GC_THREADS
// only where the player has threads: a WebGL player without threads has none, and gc.h then
// declares no GC_get_prof_stats_unsafe. A Unity install patched for one project builds every
// project's players, so the bridge must compile both ways (issue 20).
#include <gc/gc.h>
#include <gc/gc_mark.h>

struct Il2CppClass;
struct Il2CppObject {
    Il2CppClass *klass;
    void *monitor;
};
#define MEMTRACER_ORIG_ALLOC_PTRFREE(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC_ATOMIC ((size)); (obj)->klass = (vt); (obj)->monitor = NULL;} while (0)
#define MEMTRACER_ORIG_ALLOC_OBJECT(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC ((size)); (obj)->klass = (vt);} while (0)
#define MEMTRACER_ORIG_ALLOC_TYPED(dest, size, type) do { (dest) = GC_MALLOC ((size)); *(void**)dest = (type);} while (0)
#include "memtracer_il2cpp_hooks.h"

Il2CppObject *real_gc_h_alloc(Il2CppClass *klass) {
    Il2CppObject *o;
    ALLOC_OBJECT(o, klass, 16);
    return o;
}
