/*
 * il2cpp_bridge.h — what a patched libil2cpp hands to the MemTracer runtime.
 *
 * Unity links Boehm GC into libil2cpp and exports only il2cpp_* from it (Android: libil2cpp.so,
 * loaded with dlopen(RTLD_LOCAL); iOS: UnityFramework). The runtime therefore can neither link
 * nor dlsym GC_size & co., and libil2cpp must not reference the runtime either: a Mach-O linker
 * refuses an undefined weak symbol, and an Android plug-in is loaded after libil2cpp, RTLD_LOCAL.
 *
 * So the seam is one exported function, defined by the patch inside libil2cpp (the hooks header,
 * bdwgc-patches/memtracer_il2cpp_hooks.h, included by the patched vm/Object.cpp):
 *
 *     int il2cpp_memtracer_bridge(mt_il2cpp_alloc_hook hook, mt_il2cpp_bridge *out);
 *
 * The runtime finds it by walking the loaded images (its il2cpp_ prefix keeps it through Unity's
 * export filter), calls it once with its allocation hook, and gets Boehm's and il2cpp's function
 * pointers back. Neither side references a symbol of the other.
 *
 * Contract:
 *  - The caller sets out->struct_size = sizeof(mt_il2cpp_bridge) (as it was compiled) and zeroes
 *    the rest. The callee fills at most struct_size bytes, sets out->version and
 *    out->struct_size to what it filled, and returns MT_IL2CPP_BRIDGE_VERSION (0: refused, the
 *    struct is too small). Fields are only ever added at the end; a NULL field is absent.
 *  - `hook` (may be NULL: detach) is stored with release order; the patched ALLOC_* macros load
 *    it relaxed and call it after every allocation: hook(object, Il2CppClass*, requested size).
 *  - Collection events are chained by the caller: get the current callback, set its own, call
 *    the previous one from it. Never replace il2cpp's own callback. il2cpp's
 *    GarbageCollector::Initialize sets its callback unconditionally, replacing one installed
 *    before il2cpp_init: the caller checks and re-chains (keeping il2cpp's) until it stays.
 * Only Boehm's public API (gc.h, gc_mark.h) and il2cpp's exported C API (il2cpp-api-functions.h)
 * are handed over; nothing of il2cpp's internals.
 */
#ifndef MEMTRACER_IL2CPP_BRIDGE_H
#define MEMTRACER_IL2CPP_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_IL2CPP_BRIDGE_VERSION 1
#define MT_IL2CPP_BRIDGE_SYMBOL "il2cpp_memtracer_bridge"

typedef void (*mt_il2cpp_alloc_hook)(void *obj, void *klass, size_t requested_size);
typedef void (*mt_gc_event_callback)(int event);  /* bdwgc's GC_on_collection_event_proc */

typedef struct mt_il2cpp_bridge {
    uint32_t struct_size;  /* in: the caller's sizeof; out: bytes filled */
    uint32_t version;      /* out: MT_IL2CPP_BRIDGE_VERSION of the patch */
    /* Boehm GC (bdwgc public API). The event/marking ones need bdwgc 7.6 or later. */
    size_t (*gc_size)(const void *obj);
    size_t (*gc_get_heap_size)(void);
    size_t (*gc_get_free_bytes)(void);
    void (*gc_set_on_collection_event)(mt_gc_event_callback cb);
    mt_gc_event_callback (*gc_get_on_collection_event)(void);
    size_t (*gc_get_prof_stats_unsafe)(void *stats, size_t stats_size);
    int (*gc_is_marked)(const void *obj);
    void *(*gc_base)(void *p);
    /* il2cpp's exported C API (Il2CppClass*, Il2CppType* as void*). */
    const char *(*class_get_name)(void *klass);
    const char *(*class_get_namespace)(void *klass);
    const void *(*class_get_type)(void *klass);
    char *(*type_get_name)(const void *type);  /* freed with il2cpp_free */
    void (*il2cpp_free)(void *p);
    int (*array_element_size)(const void *array_class);
    int (*class_get_rank)(const void *klass);
    uint8_t (*class_is_valuetype)(const void *klass);  /* C++ bool */
    /* Added later (a shorter table leaves it NULL). GC_get_gc_no: collections Boehm completed;
     * the runtime checks against it that it recorded every one (docs/runtime.md). */
    size_t (*gc_get_gc_no)(void);
    /* Added later (a shorter table leaves it NULL). Stores `hook` (may be NULL) in the hook slot
     * again, with release order, as the bridge call did: the runtime clears the slot while it
     * records nothing (paused, stopped, disabled), so a patched libil2cpp pays one relaxed load
     * and a branch per allocation then, and no call. NULL: the runtime keeps its hook installed
     * and mt_on_alloc returns at once while not recording. */
    void (*set_alloc_hook)(mt_il2cpp_alloc_hook hook);
} mt_il2cpp_bridge;

typedef int (*mt_il2cpp_bridge_fn)(mt_il2cpp_alloc_hook hook, mt_il2cpp_bridge *out);

#ifdef __cplusplus
}
#endif

#endif /* MEMTRACER_IL2CPP_BRIDGE_H */
