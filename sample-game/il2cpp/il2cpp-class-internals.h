// il2cpp-class-internals.h — Il2CppClass, cut down to what the allocation path reads. The first
// words are in Unity's order (image, gc_desc, name, namespaze): bdwgc's gcj allocator reads the
// mark descriptor from the second word of the "vtable" it is given, which is the class.
#pragma once

#include "il2cpp-config.h"
#include "il2cpp-api-types.h"

struct Il2CppImage
{
    const char *name;        // "Assembly-CSharp.dll"
    const char *nameNoExt;   // "Assembly-CSharp"
};

struct Il2CppClass
{
    // The following fields are always valid for an Il2CppClass (same order as Unity's).
    const Il2CppImage *image;
    void *gc_desc;
    const char *name;
    const char *namespaze;
    Il2CppClass *element_class;   // arrays: the element class; others: the class itself
    Il2CppClass *castClass;
    Il2CppClass *declaringType;
    Il2CppClass *parent;

    void *static_fields;          // GC_MALLOC_UNCOLLECTABLE: a GC root, like Unity's
    Il2CppClass *szarray_class;   // cache for Class::GetArrayClass(klass, 1)

    uint32_t instance_size;       // boxed size for value types, header included
    uint32_t actualSize;
    uint32_t element_size;        // arrays only
    uint32_t static_fields_size;
    uint32_t token;
    uint32_t class_index;         // dense id (sample game: per-class allocation tally)

    uint8_t rank;
    uint8_t valuetype;
    uint8_t initialized;
    uint8_t enumtype;
    uint8_t is_generic;
    uint8_t has_references;
    uint8_t has_finalize;
    uint8_t cctor_finished_or_no_cctor;
};

// What generated code calls a RuntimeClass / RuntimeObject / RuntimeArray.
typedef Il2CppClass RuntimeClass;
typedef Il2CppObject RuntimeObject;
typedef Il2CppArray RuntimeArray;
typedef struct MethodInfo RuntimeMethod;
