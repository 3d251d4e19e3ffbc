// patched_il2cpp.cpp — the patched parts of an export's libil2cpp, compiled by compile_export.sh:
// the ALLOC_* block of vm/Object.cpp (alloc_block.inc, as the patch left it, including
// "memtracer/memtracer_il2cpp_hooks.h" from the export's libil2cpp/memtracer/) and the hook line
// of vm/Array.cpp, over a reduced prelude: libil2cpp's gc_wrapper.h (bdwgc 8.2 declarations with
// GC_THREADS, as on iOS and Android) and the object header. No system header but stddef/stdint.
#include <stddef.h>
#include <stdint.h>

#define IL2CPP_GC_BOEHM 1
#define GC_THREADS 1
#define GC_VERSION_MAJOR 8
#define GC_VERSION_MINOR 2
extern "C" {
void *GC_malloc(size_t);
void *GC_malloc_atomic(size_t);
void *GC_gcj_malloc(size_t, void *);
size_t GC_size(const void *);
size_t GC_get_heap_size(void);
size_t GC_get_free_bytes(void);
void *GC_base(void *);
typedef void (*GC_on_collection_event_proc)(int);
void GC_set_on_collection_event(GC_on_collection_event_proc);
GC_on_collection_event_proc GC_get_on_collection_event(void);
struct GC_prof_stats_s;
size_t GC_get_prof_stats_unsafe(struct GC_prof_stats_s *, size_t);
}
#define GC_MALLOC(n) GC_malloc(n)
#define GC_MALLOC_ATOMIC(n) GC_malloc_atomic(n)

struct Il2CppClass;
struct Il2CppObject {
    Il2CppClass *klass;
    void *monitor;
};

#include "alloc_block.inc"

Il2CppObject *patched_object_new(Il2CppClass *klass, size_t size) {
    Il2CppObject *o;
    ALLOC_OBJECT(o, klass, size);
    return o;
}

Il2CppObject *patched_array_new(Il2CppClass *klass, size_t byte_len) {
    Il2CppObject *o = (Il2CppObject *)GC_malloc(byte_len);
#include "array_hook.inc"
    return o;
}
