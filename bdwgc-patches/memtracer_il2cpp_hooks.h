/*
 * memtracer_il2cpp_hooks.h — the MemTracer allocation hook for a patched libil2cpp.
 *
 * scripts/memtracer-patch-il2cpp copies this file (and memtracer.h) to
 * libil2cpp/memtracer/ and edits two files:
 *
 *   vm/Object.cpp  Inside `#if IL2CPP_GC_BOEHM` the original ALLOC_PTRFREE, ALLOC_OBJECT and
 *                  ALLOC_TYPED (gcj and non-gcj variants) are renamed MEMTRACER_ORIG_ALLOC_*
 *                  with their bodies untouched, and this header is included right after them.
 *                  It defines ALLOC_* as "the original, then tell MemTracer".
 *   vm/Array.cpp   (2020.1+) after `o = (Il2CppObject*)GC_gcj_vector_malloc(byte_len, klass);`
 *                  in Array::NewSpecific: MEMTRACER_IL2CPP_ON_ALLOC(o, klass, byte_len);
 *
 * The original allocation and its side effects (klass/monitor stores, descriptor store) run
 * first and unchanged; MemTracer only sees (object, Il2CppClass*, requested size) afterwards.
 * The SGen and no-GC branches of Object.cpp are never touched.
 *
 * Macro arguments are evaluated twice (once by the original, once for the hook); every call
 * site in libil2cpp passes plain variables or `klass->instance_size`, which have no side effects.
 *
 * Build switches:
 *   MEMTRACER_IL2CPP_DISABLE   compile the originals only (a patched tree builds as unpatched).
 *   MEMTRACER_IL2CPP_STRONG    link mt_on_alloc strongly; by default the reference is weak, so a
 *                              patched libil2cpp links and runs even without the MemTracer runtime
 *                              (the hook is then a NULL test that is never taken).
 */
#ifndef MEMTRACER_IL2CPP_HOOKS_H
#define MEMTRACER_IL2CPP_HOOKS_H

#include <stddef.h>

#if defined(MEMTRACER_IL2CPP_DISABLE)
#define MEMTRACER_IL2CPP_ON_ALLOC(obj, klass, size) do { } while (0)
#else

#include <memtracer/memtracer.h>

#if !defined(MT_NOOP) && !defined(MEMTRACER_IL2CPP_STRONG) && (defined(__GNUC__) || defined(__clang__))
#ifdef __cplusplus
extern "C" {
#endif
/* Redeclared weak: resolved when the runtime is in the process, NULL otherwise. */
extern void mt_on_alloc(void *obj, void *klass, size_t requested_size) __attribute__((weak));
#ifdef __cplusplus
}
#endif
#define MEMTRACER_IL2CPP_ON_ALLOC(obj, klass, size)                                           \
    do {                                                                                       \
        if (&mt_on_alloc != NULL)                                                              \
            mt_on_alloc((void *)(obj), (void *)(klass), (size_t)(size));                       \
    } while (0)
#else
#define MEMTRACER_IL2CPP_ON_ALLOC(obj, klass, size)                                           \
    mt_on_alloc((void *)(obj), (void *)(klass), (size_t)(size))
#endif

#endif /* MEMTRACER_IL2CPP_DISABLE */
#endif /* MEMTRACER_IL2CPP_HOOKS_H */

/*
 * The ALLOC_* wrappers, outside the include guard: Object.cpp includes this header inside its
 * Boehm branch, after the renamed originals. A file that only wants the hook (Array.cpp) has no
 * MEMTRACER_ORIG_ALLOC_PTRFREE and gets nothing here.
 */
#if defined(MEMTRACER_ORIG_ALLOC_PTRFREE) && !defined(MEMTRACER_IL2CPP_WRAPPED)
#define MEMTRACER_IL2CPP_WRAPPED 1
#if !defined(MEMTRACER_ORIG_ALLOC_OBJECT) || !defined(MEMTRACER_ORIG_ALLOC_TYPED)
#error "memtracer: Object.cpp is half patched (MEMTRACER_ORIG_ALLOC_OBJECT or _TYPED missing); run scripts/memtracer-patch-il2cpp --check"
#endif

#if defined(__cplusplus) && !defined(MEMTRACER_IL2CPP_DISABLE)
/* Tells the Unity plug-in entry (runtime/unity) that allocations arrive through these macros, so
 * it does not also attach to il2cpp's profiler API and count every allocation twice. Inline and
 * `used`: emitted as a mergeable definition, so any number of patched files may define it. */
extern "C" __attribute__((used, visibility("default"))) inline int memtracer_il2cpp_patched(void) { return 1; }
#endif

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
