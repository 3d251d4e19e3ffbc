// patched_il2cpp.cpp — the patched parts of an export's libil2cpp, compiled by compile_export.sh:
// the ALLOC_* block of vm/Object.cpp (alloc_block.inc, as the patch left it, including
// "memtracer/memtracer_il2cpp_hooks.h" from the export's libil2cpp/memtracer/) and the hook line
// of vm/Array.cpp, over the seam test's reduced gc_wrapper.h and object header (bdwgc 8.2
// declarations with GC_THREADS, as on iOS and Android; tests/patches/seam/gc_wrapper_standin.h).
#define IL2CPP_GC_BOEHM 1
#include "../patches/seam/gc_wrapper_standin.h"

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
