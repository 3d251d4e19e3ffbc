// alloc_paths.cpp — compiled once per fixture and GC variant (gcj on or off): the ALLOC_* macro
// block of that fixture's Object.cpp, as bdwgc-patches/memtracer-patch-il2cpp left it, expanded into
// three functions the test calls. MT_FIXTURE_BLOCK, MT_FIXTURE_NS, MT_FIXTURE_NAME and MT_GCJ
// come from tests/patches/CMakeLists.txt.
#include "il2cpp-config.h"
#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"

#ifndef GC_THREADS
#define GC_THREADS 1
#endif
#if MT_GCJ
#define GC_GCJ_SUPPORT 1
#endif
#include <gc/gc.h>
#include <gc/gc_gcj.h>

#include <stdlib.h>

#include MT_FIXTURE_BLOCK

#include "fixture_registry.h"

namespace MT_FIXTURE_NS {

__attribute__((noinline)) Il2CppObject *alloc_ptrfree(Il2CppClass *klass, size_t size) {
    Il2CppObject *o;
    ALLOC_PTRFREE(o, klass, size);
    return o;
}

__attribute__((noinline)) Il2CppObject *alloc_object(Il2CppClass *klass, size_t size) {
    Il2CppObject *o;
    ALLOC_OBJECT(o, klass, size);
    return o;
}

// The non-gcj ALLOC_TYPED assigns GC_MALLOC's void* without a cast, which C++ only accepts into a
// void* (in libil2cpp that variant is dead code: Boehm builds always define GC_GCJ_SUPPORT).
__attribute__((noinline)) Il2CppObject *alloc_typed(Il2CppClass *klass, size_t size) {
    void *o;
    ALLOC_TYPED(o, size, klass);
    return static_cast<Il2CppObject *>(o);
}

#ifdef MEMTRACER_IL2CPP_WRAPPED
const bool kWrapped = true;
#else
const bool kWrapped = false;
#endif

const mt::test::FixtureRegistrar registrar{
    {MT_FIXTURE_NAME, MT_GCJ != 0, kWrapped, &alloc_ptrfree, &alloc_object, &alloc_typed}};

}  // namespace MT_FIXTURE_NS
