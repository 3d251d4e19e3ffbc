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

// Il2CppType, Il2CppGenericInst, Il2CppGenericClass: Unity's shapes (il2cpp-runtime-metadata.h,
// il2cpp-class-internals.h), with one stand-in simplification: where a real player keeps a
// TypeDefinitionIndex into global-metadata.dat (data.klassIndex, Il2CppGenericClass::type), this
// one points at the Il2CppClass itself, which is what Class::FromIl2CppType resolves those to.
typedef enum Il2CppTypeEnum
{
    IL2CPP_TYPE_END = 0x00,
    IL2CPP_TYPE_VOID = 0x01,
    IL2CPP_TYPE_BOOLEAN = 0x02,
    IL2CPP_TYPE_CHAR = 0x03,
    IL2CPP_TYPE_U1 = 0x05,
    IL2CPP_TYPE_I4 = 0x08,
    IL2CPP_TYPE_R4 = 0x0c,
    IL2CPP_TYPE_STRING = 0x0e,
    IL2CPP_TYPE_VALUETYPE = 0x11,
    IL2CPP_TYPE_CLASS = 0x12,
    IL2CPP_TYPE_GENERICINST = 0x15,
    IL2CPP_TYPE_OBJECT = 0x1c,
    IL2CPP_TYPE_SZARRAY = 0x1d
} Il2CppTypeEnum;

typedef struct Il2CppGenericClass Il2CppGenericClass;
typedef struct Il2CppType
{
    union
    {
        Il2CppClass *klass;                   // CLASS, VALUETYPE, primitives (stand-in: see above)
        const struct Il2CppType *type;        // SZARRAY: the element type
        Il2CppGenericClass *generic_class;    // GENERICINST
    } data;
    unsigned int attrs : 16;
    Il2CppTypeEnum type : 8;
    unsigned int num_mods : 6;
    unsigned int byref : 1;
    unsigned int pinned : 1;
} Il2CppType;

typedef struct Il2CppGenericInst
{
    uint32_t type_argc;
    const Il2CppType **type_argv;
} Il2CppGenericInst;

typedef struct Il2CppGenericContext
{
    const Il2CppGenericInst *class_inst;   // List<Enemy>: {Enemy}
    const Il2CppGenericInst *method_inst;  // unused: no generic methods are named
} Il2CppGenericContext;

struct Il2CppGenericClass
{
    Il2CppClass *type;             // the generic type definition (stand-in: the instance's own
                                   // class, which carries the definition's name and namespace)
    Il2CppGenericContext context;
    Il2CppClass *cached_class;     // the instance's class
};

struct Il2CppClass
{
    // The following fields are always valid for an Il2CppClass (same order as Unity's).
    const Il2CppImage *image;
    void *gc_desc;
    const char *name;
    const char *namespaze;
    Il2CppType byval_arg;         // what il2cpp_class_get_type returns
    Il2CppClass *element_class;   // arrays: the element class; others: the class itself
    Il2CppClass *castClass;
    Il2CppClass *declaringType;
    Il2CppClass *parent;
    Il2CppGenericClass *generic_class;  // generic instances only

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
