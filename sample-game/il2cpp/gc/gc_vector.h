// gc/gc_vector.h — Unity's bdwgc fork adds an allocator for arrays of value types whose elements
// hold references: GC_gcj_vector_malloc. Debian's libgc 8.2.2 has no such function (not in its
// headers, not exported by libgc.so.1), so gc_vector_standin.cpp supplies one with the same
// contract. docs/sample-game.md says exactly what it stands in for.
#pragma once

#include <gc/gc.h>

#ifdef __cplusplus
extern "C" {
#endif

// Registers the array mark procedure (Unity: GC_init_gcj_vector(VECTOR_PROC_INDEX, proc)).
// mp_index is ignored here: stock libgc hands out mark-procedure slots through GC_new_proc.
void GC_init_gcj_vector(int mp_index, void *mp);

// A cleared object of the vector kind with `ptr_to_struct_containing_descr` (the array's
// Il2CppClass*) in its first word.
void *GC_gcj_vector_malloc(size_t lb, void *ptr_to_struct_containing_descr);

#ifdef __cplusplus
}
#endif
