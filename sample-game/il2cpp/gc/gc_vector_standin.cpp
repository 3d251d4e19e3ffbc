// gc_vector_standin.cpp — GC_gcj_vector_malloc on stock libgc (see gc_vector.h).
//
// Unity's version (bdwgc fork, gc_vector.c): GC_init_gcj_vector makes a new object kind whose
// descriptor template is GC_MAKE_PROC(mp_index, 0), cleared on allocation; GC_gcj_vector_malloc
// takes an object of that kind from its free list under the allocation lock and stores the class
// pointer in word 0 before unlocking. This stand-in builds the same kind through libgc's public
// API (GC_new_free_list, GC_new_proc, GC_new_kind) and allocates with GC_generic_malloc. The one
// difference: the class pointer is stored just after the lock is released, so a collection that
// stops this thread in between sees a cleared object; the mark procedure
// (GarbageCollector.cpp) treats a null class or a zero length as "nothing to push", and the
// object itself stays alive because its address is in this thread's registers/stack.
#include "gc/gc_wrapper.h"

#include <stdio.h>
#include <stdlib.h>

namespace
{
    int s_vector_kind = -1;
}

extern "C" void GC_init_gcj_vector(int /*mp_index*/, void *mp)
{
    if (s_vector_kind >= 0)
        return;
    void **free_list = GC_new_free_list();
    unsigned proc = GC_new_proc(reinterpret_cast<GC_mark_proc>(mp));
    s_vector_kind = static_cast<int>(GC_new_kind(free_list, GC_MAKE_PROC(proc, 0), 0 /* no size in descr */,
                                                 1 /* clear new objects */));
}

extern "C" void *GC_gcj_vector_malloc(size_t lb, void *ptr_to_struct_containing_descr)
{
    if (s_vector_kind < 0)
    {
        fprintf(stderr, "GC_gcj_vector_malloc before GC_init_gcj_vector\n");
        abort();
    }
    void *op = GC_generic_malloc(lb, s_vector_kind);
    if (op == NULL)
        return NULL;  // GC_generic_malloc already called the out-of-memory handler
    *static_cast<void **>(op) = ptr_to_struct_containing_descr;
    return op;
}
