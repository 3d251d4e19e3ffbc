// vm/Class.h — class metadata: built once at startup from the generated type table (what
// global-metadata.dat + Il2CppMetadataRegistration give a real player), arrays on demand.
#pragma once

#include "il2cpp-class-internals.h"

#include <stdint.h>

// One row of the generated type table (generated/Il2CppTypeDefinitions.cpp).
struct Il2CppTypeDefinitionInfo
{
    const Il2CppImage *image;
    const char *namespaze;
    const char *name;
    uint32_t instance_size;        // header included; value types: the boxed size
    const uint32_t *ref_offsets;   // byte offsets of reference fields, header included
    uint32_t ref_count;
    uint32_t static_fields_size;   // 0: no static fields
    bool valuetype;
    RuntimeClass **type_info_var;  // the XXX_il2cpp_TypeInfo_var generated code reads
};

// The classes libil2cpp itself needs by identity (il2cpp_defaults in Unity).
struct Il2CppDefaults
{
    const Il2CppImage *corlib;
    Il2CppClass *object_class;
    Il2CppClass *string_class;
    Il2CppClass *char_class;
};
extern Il2CppDefaults il2cpp_defaults;

namespace il2cpp
{
namespace vm
{
    class Class
    {
    public:
        static const uint32_t kMaxClasses = 1024;

        // Creates every class of the table (gc descriptors, static fields). Call once, after
        // the GC is initialised.
        static void RegisterTypes(const Il2CppTypeDefinitionInfo *types, uint32_t count);

        // What the metadata says beyond the table row: the class a nested class is declared in,
        // and a generic instance's type arguments (List<Enemy>: {Enemy}). Call after RegisterTypes.
        static void SetShape(Il2CppClass *klass, Il2CppClass *declaringType, Il2CppClass *const *genericArgs, uint32_t argc);

        static Il2CppClass *GetArrayClass(Il2CppClass *elementClass, uint32_t rank);
        static Il2CppClass *FromName(const Il2CppImage *image, const char *namespaze, const char *name);
        static void Init(Il2CppClass *klass) { IL2CPP_ASSERT(klass->initialized); }
        static bool IsNullable(const Il2CppClass *) { return false; }
        static int32_t GetInstanceSize(const Il2CppClass *klass) { return (int32_t)klass->instance_size; }

        // Snapshot of every class known so far (for the allocation tally); returns the count.
        static uint32_t GetAll(Il2CppClass **out, uint32_t max);
    };
} /* namespace vm */
} /* namespace il2cpp */
