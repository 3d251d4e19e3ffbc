// il2cpp-config.h — the configuration switches the mini-libil2cpp is built with. Same names as
// Unity's il2cpp-config.h, set the way a Boehm-GC player build on a 64-bit target sets them.
#pragma once

#include <stddef.h>
#include <stdint.h>

#define IL2CPP_GC_BOEHM 1
#define IL2CPP_GC_NULL 0
#define IL2CPP_HAS_GC_DESCRIPTORS 1     // GC_GCJ_SUPPORT: typed (gcj) allocation of objects
#define IL2CPP_ENABLE_PROFILER 1         // Profiler::Allocation call sites compiled in
#define IL2CPP_SUPPORT_THREADS 1
// Unity's defaults for a player with incremental GC (on by default since 2019.3): Boehm in
// incremental mode with a 3 ms time slice, write barriers in generated code.
#define IL2CPP_ENABLE_WRITE_BARRIERS 1
#define IL2CPP_INCREMENTAL_TIME_SLICE 3
#define NEED_TO_ZERO_PTRFREE 1           // GC_MALLOC_ATOMIC does not clear
#define RUNTIME_TINY 0

#if defined(__LP64__) || defined(_WIN64)
#define IL2CPP_SIZEOF_VOID_P 8
#else
#define IL2CPP_SIZEOF_VOID_P 4
#endif

#define IL2CPP_ZERO_LEN_ARRAY 0
#define IL2CPP_ARRAY_MAX_INDEX ((int32_t)0x7fffffff)

// Exported with default visibility: the MemTracer runtime finds these with dlsym(RTLD_DEFAULT).
#define IL2CPP_EXPORT extern "C" __attribute__((visibility("default")))

// Generated code: most methods stay real frames; a few small ones are forced inline, as IL2CPP
// does with IL2CPP_MANAGED_FORCE_INLINE, so the symbolizer sees inlined frames.
#define IL2CPP_METHOD_ATTR __attribute__((noinline))
#define IL2CPP_MANAGED_FORCE_INLINE inline __attribute__((always_inline))
#define IL2CPP_EXTERN_C extern "C"

#define IL2CPP_ASSERT(x) do { if (!(x)) il2cpp_assert_failed(#x, __FILE__, __LINE__); } while (0)
#define IL2CPP_NOT_IMPLEMENTED_NO_ASSERT(func, reason) do { } while (0)

[[noreturn]] void il2cpp_assert_failed(const char *expr, const char *file, int line);
