/*
 * memtracer_il2cpp_hooks.h — the MemTracer allocation hook for a patched libil2cpp.
 *
 * bdwgc-patches/memtracer-patch-il2cpp copies this file (with il2cpp_bridge.h and memtracer.h) to
 * libil2cpp/memtracer/ and edits two files:
 *
 *   vm/Object.cpp  Inside `#if IL2CPP_GC_BOEHM` the original ALLOC_PTRFREE, ALLOC_OBJECT and
 *                  ALLOC_TYPED (gcj and non-gcj variants) are renamed MEMTRACER_ORIG_ALLOC_*
 *                  with their bodies untouched, and this header is included right after them.
 *                  It defines ALLOC_* as "the original, then tell MemTracer", and the one
 *                  exported function il2cpp_memtracer_bridge (memtracer/il2cpp_bridge.h).
 *   vm/Array.cpp   (2020.1+) after `o = (Il2CppObject*)GC_gcj_vector_malloc(byte_len, klass);`
 *                  in Array::NewSpecific: MEMTRACER_IL2CPP_ON_ALLOC(o, klass, byte_len);
 *
 * The original allocation and its side effects (klass/monitor stores, descriptor store) run
 * first and unchanged; MemTracer only sees (object, Il2CppClass*, requested size) afterwards.
 * The SGen and no-GC branches of Object.cpp are never touched.
 *
 * libil2cpp references no symbol of the runtime: the hook is a function pointer held here,
 * installed by the runtime through il2cpp_memtracer_bridge (NULL until then: one relaxed load
 * and a branch per allocation). So a patched libil2cpp links on every platform whether the
 * runtime is in the same image, in another one, or absent (Mach-O linkers refuse undefined weak
 * symbols; Android loads libil2cpp and plug-ins RTLD_LOCAL).
 *
 * Macro arguments are evaluated twice (once by the original, once for the hook); every call
 * site in libil2cpp passes plain variables or `klass->instance_size`, which have no side effects.
 *
 * Build switches:
 *   MEMTRACER_IL2CPP_DISABLE   compile the originals only (a patched tree builds as unpatched).
 *   MEMTRACER_IL2CPP_STRONG    call mt_on_alloc directly (the runtime must be linked into the
 *                              same image); the bridge is still defined.
 *   MEMTRACER_IL2CPP_NO_TYPE_NAMES  do not hand over il2cpp_class_get_type, il2cpp_type_get_name
 *                              and il2cpp_free (for a libil2cpp stand-in without them).
 */
#ifndef MEMTRACER_IL2CPP_HOOKS_H
#define MEMTRACER_IL2CPP_HOOKS_H

#include <stddef.h>

#if defined(MEMTRACER_IL2CPP_DISABLE)
#define MEMTRACER_IL2CPP_ON_ALLOC(obj, klass, size) do { } while (0)
#else

#ifndef __cplusplus
#error "memtracer: the il2cpp hooks are for libil2cpp's C++ sources"
#endif

#include <memtracer/il2cpp_bridge.h>

/* MSVC first: clang-cl and clang targeting *-windows-msvc define _MSC_VER too. */
#if defined(_MSC_VER)
#define MEMTRACER_IL2CPP_HIDDEN
#define MEMTRACER_IL2CPP_EXPORT __declspec(dllexport)
/* An aligned pointer load or store is single-copy atomic on every MSVC target. */
#define MEMTRACER_IL2CPP_LOAD(slot) (*(mt_il2cpp_alloc_hook volatile *)&(slot))
#define MEMTRACER_IL2CPP_STORE(slot, v) (*(mt_il2cpp_alloc_hook volatile *)&(slot) = (v))
#elif defined(__GNUC__) || defined(__clang__)
#define MEMTRACER_IL2CPP_HIDDEN __attribute__((visibility("hidden")))
#define MEMTRACER_IL2CPP_EXPORT __attribute__((used, visibility("default")))
#define MEMTRACER_IL2CPP_LOAD(slot) __atomic_load_n(&(slot), __ATOMIC_RELAXED)
#define MEMTRACER_IL2CPP_STORE(slot, v) __atomic_store_n(&(slot), (v), __ATOMIC_RELEASE)
#else
#define MEMTRACER_IL2CPP_HIDDEN
#define MEMTRACER_IL2CPP_EXPORT
#define MEMTRACER_IL2CPP_LOAD(slot) (*(mt_il2cpp_alloc_hook volatile *)&(slot))
#define MEMTRACER_IL2CPP_STORE(slot, v) (*(mt_il2cpp_alloc_hook volatile *)&(slot) = (v))
#endif

namespace memtracer_il2cpp {
/* One slot per libil2cpp: an inline function's static is merged across its translation units,
 * and constant-initialized (no guard). Hidden: not part of libil2cpp's exports. */
MEMTRACER_IL2CPP_HIDDEN inline mt_il2cpp_alloc_hook &hook_slot() {
    static mt_il2cpp_alloc_hook slot = 0;
    return slot;
}
}  // namespace memtracer_il2cpp

#if defined(MEMTRACER_IL2CPP_STRONG)
#include <memtracer/memtracer.h>
#define MEMTRACER_IL2CPP_ON_ALLOC(obj, klass, size)                                           \
    mt_on_alloc((void *)(obj), (void *)(klass), (size_t)(size))
#else
#define MEMTRACER_IL2CPP_ON_ALLOC(obj, klass, size)                                           \
    do {                                                                                       \
        mt_il2cpp_alloc_hook mt_hook_ = MEMTRACER_IL2CPP_LOAD(memtracer_il2cpp::hook_slot());  \
        if (mt_hook_ != 0) mt_hook_((void *)(obj), (void *)(klass), (size_t)(size));           \
    } while (0)
#endif

#endif /* MEMTRACER_IL2CPP_DISABLE */
#endif /* MEMTRACER_IL2CPP_HOOKS_H */

/*
 * The ALLOC_* wrappers and the bridge, outside the include guard: Object.cpp includes this header
 * inside its Boehm branch, after the renamed originals, where Boehm's API is declared. A file
 * that only wants the hook (Array.cpp) has no MEMTRACER_ORIG_ALLOC_PTRFREE and gets nothing here.
 */
#if defined(MEMTRACER_ORIG_ALLOC_PTRFREE) && !defined(MEMTRACER_IL2CPP_WRAPPED)
#define MEMTRACER_IL2CPP_WRAPPED 1
#if !defined(MEMTRACER_ORIG_ALLOC_OBJECT) || !defined(MEMTRACER_ORIG_ALLOC_TYPED)
#error "memtracer: Object.cpp is half patched (MEMTRACER_ORIG_ALLOC_OBJECT or _TYPED missing); run bdwgc-patches/memtracer-patch-il2cpp --check"
#endif

#if !defined(MEMTRACER_IL2CPP_DISABLE)

/* Collection events, profiling statistics and mark bits are bdwgc 7.6+ API (Unity's bdwgc since
 * 2018); older collectors hand over sizes only. GC_VERSION_* come from gc_version.h via gc.h. */
#if defined(GC_VERSION_MAJOR) && (GC_VERSION_MAJOR > 7 || (GC_VERSION_MAJOR == 7 && GC_VERSION_MINOR >= 6))
#define MEMTRACER_IL2CPP_GC_EVENTS 1
#ifndef GC_MARK_H /* gc_mark.h not included by this libil2cpp's gc_wrapper.h */
extern "C" int GC_is_marked(const void *);
#endif
#endif

/* il2cpp's exported class-name API, declared under private C++ names bound to the exported
 * symbols (asm labels): its parameter types differ between Unity versions (const or not), so a
 * declaration by its own name could conflict with il2cpp-api.h. GCC/Clang only; elsewhere the
 * runtime finds these exports itself. */
#if !defined(_MSC_VER) && (defined(__GNUC__) || defined(__clang__))
#define MEMTRACER_IL2CPP_CLASS_API 1
#define MEMTRACER_IL2CPP_STR2(x) #x
#define MEMTRACER_IL2CPP_STR(x) MEMTRACER_IL2CPP_STR2(x)
#define MEMTRACER_IL2CPP_SYM(name) __asm__(MEMTRACER_IL2CPP_STR(__USER_LABEL_PREFIX__) #name)
namespace memtracer_il2cpp {
const char *class_get_name(void *) MEMTRACER_IL2CPP_SYM(il2cpp_class_get_name);
const char *class_get_namespace(void *) MEMTRACER_IL2CPP_SYM(il2cpp_class_get_namespace);
#if !defined(MEMTRACER_IL2CPP_NO_TYPE_NAMES)
const void *class_get_type(void *) MEMTRACER_IL2CPP_SYM(il2cpp_class_get_type);
char *type_get_name(const void *) MEMTRACER_IL2CPP_SYM(il2cpp_type_get_name);
void il2cpp_free(void *) MEMTRACER_IL2CPP_SYM(il2cpp_free);
#endif
int array_element_size(const void *) MEMTRACER_IL2CPP_SYM(il2cpp_array_element_size);
int class_get_rank(const void *) MEMTRACER_IL2CPP_SYM(il2cpp_class_get_rank);
uint8_t class_is_valuetype(const void *) MEMTRACER_IL2CPP_SYM(il2cpp_class_is_valuetype);
}  // namespace memtracer_il2cpp
#endif

/* mt_il2cpp_bridge.set_alloc_hook: the runtime clears the slot while it records nothing and sets
 * it again before it records (memtracer/il2cpp_bridge.h). Inline, like the bridge. */
namespace memtracer_il2cpp {
MEMTRACER_IL2CPP_HIDDEN inline void set_alloc_hook(mt_il2cpp_alloc_hook hook) {
    MEMTRACER_IL2CPP_STORE(hook_slot(), hook);
}
}  // namespace memtracer_il2cpp

/* The seam (memtracer/il2cpp_bridge.h): installs the runtime's hook, hands over Boehm's and
 * il2cpp's functions. Inline: any number of patched files may define it, the linker keeps one. */
extern "C" MEMTRACER_IL2CPP_EXPORT inline int il2cpp_memtracer_bridge(mt_il2cpp_alloc_hook hook, mt_il2cpp_bridge *out) {
    if (out == 0 || out->struct_size < 2 * sizeof(uint32_t)) return 0;
    mt_il2cpp_bridge b = mt_il2cpp_bridge();  /* zeroed; no <string.h> needed */
    b.struct_size = (uint32_t)(out->struct_size < sizeof b ? out->struct_size : sizeof b);
    b.version = MT_IL2CPP_BRIDGE_VERSION;
    b.gc_size = reinterpret_cast<size_t (*)(const void *)>(&GC_size);
    b.gc_get_heap_size = reinterpret_cast<size_t (*)(void)>(&GC_get_heap_size);
    b.gc_get_free_bytes = reinterpret_cast<size_t (*)(void)>(&GC_get_free_bytes);
    b.gc_base = reinterpret_cast<void *(*)(void *)>(&GC_base);
    b.gc_get_gc_no = reinterpret_cast<size_t (*)(void)>(&GC_get_gc_no);
#if defined(MEMTRACER_IL2CPP_GC_EVENTS)
    b.gc_set_on_collection_event = reinterpret_cast<void (*)(mt_gc_event_callback)>(&GC_set_on_collection_event);
    b.gc_get_on_collection_event = reinterpret_cast<mt_gc_event_callback (*)(void)>(&GC_get_on_collection_event);
#if defined(GC_THREADS)
    b.gc_get_prof_stats_unsafe = reinterpret_cast<size_t (*)(void *, size_t)>(&GC_get_prof_stats_unsafe);
#else
    /* gc.h declares GC_get_prof_stats_unsafe only under GC_THREADS (a WebGL player without
     * threads has none; a Unity install patched for one project builds them all). There the
     * allocation lock is a no-op, so the locking GC_get_prof_stats is safe inside the callback. */
    b.gc_get_prof_stats_unsafe = reinterpret_cast<size_t (*)(void *, size_t)>(&GC_get_prof_stats);
#endif
    b.gc_is_marked = reinterpret_cast<int (*)(const void *)>(&GC_is_marked);
#endif
#if defined(MEMTRACER_IL2CPP_CLASS_API)
    b.class_get_name = &memtracer_il2cpp::class_get_name;
    b.class_get_namespace = &memtracer_il2cpp::class_get_namespace;
#if !defined(MEMTRACER_IL2CPP_NO_TYPE_NAMES)
    b.class_get_type = &memtracer_il2cpp::class_get_type;
    b.type_get_name = &memtracer_il2cpp::type_get_name;
    b.il2cpp_free = &memtracer_il2cpp::il2cpp_free;
#endif
    b.array_element_size = &memtracer_il2cpp::array_element_size;
    b.class_get_rank = &memtracer_il2cpp::class_get_rank;
    b.class_is_valuetype = &memtracer_il2cpp::class_is_valuetype;
#endif
    b.set_alloc_hook = &memtracer_il2cpp::set_alloc_hook;
    for (uint32_t i = 0; i < b.struct_size; ++i) ((unsigned char *)out)[i] = ((const unsigned char *)&b)[i];
    MEMTRACER_IL2CPP_STORE(memtracer_il2cpp::hook_slot(), hook);
    return MT_IL2CPP_BRIDGE_VERSION;
}
#endif /* !MEMTRACER_IL2CPP_DISABLE */

#define ALLOC_PTRFREE(obj, vt, size)                                                          \
    do {                                                                                       \
        MEMTRACER_ORIG_ALLOC_PTRFREE(obj, vt, size);                                           \
        MEMTRACER_IL2CPP_ON_ALLOC((obj), (vt), (size));                                        \
    } while (0)

#define ALLOC_OBJECT(obj, vt, size)                                                           \
    do {                                                                                       \
        MEMTRACER_ORIG_ALLOC_OBJECT(obj, vt, size);                                            \
        MEMTRACER_IL2CPP_ON_ALLOC((obj), (vt), (size));                                        \
    } while (0)

/* Both spellings of ALLOC_TYPED (GC_gcj_malloc, or GC_MALLOC + descriptor store) end here. */
#define ALLOC_TYPED(dest, size, type)                                                         \
    do {                                                                                       \
        MEMTRACER_ORIG_ALLOC_TYPED(dest, size, type);                                          \
        MEMTRACER_IL2CPP_ON_ALLOC((dest), (type), (size));                                     \
    } while (0)
#endif
