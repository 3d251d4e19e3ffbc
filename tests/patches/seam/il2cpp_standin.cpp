// il2cpp_standin.cpp — a libil2cpp reduced to the seam, for the link test (seam_link_test.sh):
// Object.cpp's Boehm macro block (patched when MT_PATCHED) over Boehm "internal to the image"
// (gc_standin.cpp), and il2cpp's C API. No system header: only the compiler's own stddef/stdint.
#include <stddef.h>
#include <stdint.h>

#if defined(_MSC_VER)
#define STANDIN_EXPORT __declspec(dllexport)
#else
#define STANDIN_EXPORT __attribute__((visibility("default")))
#endif

#include "gc_wrapper_standin.h"

// The spaced layout's block, as the script leaves it (or as shipped).
#if MT_PATCHED
#define MEMTRACER_ORIG_ALLOC_PTRFREE(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC_ATOMIC ((size)); (obj)->klass = (vt); (obj)->monitor = NULL;} while (0)
#define MEMTRACER_ORIG_ALLOC_OBJECT(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC ((size)); (obj)->klass = (vt);} while (0)
#define GC_NO_DESCRIPTOR (NULL)
#define MEMTRACER_ORIG_ALLOC_TYPED(dest, size, type) do { (dest) = GC_MALLOC ((size)); *(void**)dest = (type);} while (0)
#include "memtracer/memtracer_il2cpp_hooks.h"
#else
#define ALLOC_PTRFREE(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC_ATOMIC ((size)); (obj)->klass = (vt); (obj)->monitor = NULL;} while (0)
#define ALLOC_OBJECT(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC ((size)); (obj)->klass = (vt);} while (0)
#define ALLOC_TYPED(dest, size, type) do { (dest) = GC_MALLOC ((size)); *(void**)dest = (type);} while (0)
#endif

extern "C" STANDIN_EXPORT Il2CppObject *il2cpp_object_new(Il2CppClass *klass) {
    Il2CppObject *o;
    ALLOC_OBJECT(o, klass, 16);
    return o;
}
extern "C" STANDIN_EXPORT Il2CppObject *il2cpp_string_new_standin(Il2CppClass *klass, size_t n) {
    Il2CppObject *o;
    ALLOC_PTRFREE(o, klass, n);
    return o;
}
extern "C" STANDIN_EXPORT Il2CppObject *il2cpp_typed_new_standin(Il2CppClass *klass, size_t n) {
    void *o;
    ALLOC_TYPED(o, n, klass);
    return static_cast<Il2CppObject *>(o);
}
