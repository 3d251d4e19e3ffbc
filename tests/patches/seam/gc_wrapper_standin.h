// gc_wrapper_standin.h — libil2cpp's gc_wrapper.h and object header reduced to what the patched
// Object.cpp block and the bridge use (bdwgc 8.2 declarations), for the seam link test
// (il2cpp_standin.cpp) and tests/unity-package's compile of an export's patched block. No system
// header but stddef/stdint.
#ifndef MT_GC_WRAPPER_STANDIN_H
#define MT_GC_WRAPPER_STANDIN_H
#include <stddef.h>
#include <stdint.h>

// gc.h, as far as Object.cpp and the bridge use it (bdwgc 8.2 signatures).
#define GC_THREADS 1  // as libil2cpp's gc_wrapper.h on iOS and Android (declares the _unsafe reader)
#define GC_VERSION_MAJOR 8
#define GC_VERSION_MINOR 2
extern "C" {
void *GC_malloc(size_t);
void *GC_malloc_atomic(size_t);
size_t GC_size(const void *);
size_t GC_get_heap_size(void);
size_t GC_get_free_bytes(void);
uintptr_t GC_get_gc_no(void);  // GC_word: collections completed so far
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

#endif
