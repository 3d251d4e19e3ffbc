// vm/Object.h — managed object allocation (libil2cpp's il2cpp::vm::Object, the allocation part).
#pragma once

#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"

namespace il2cpp
{
namespace vm
{
    class Object
    {
    public:
        static Il2CppObject *Allocate(size_t size, Il2CppClass *typeInfo);
        static Il2CppObject *AllocatePtrFree(size_t size, Il2CppClass *typeInfo);
        static Il2CppObject *AllocateSpec(size_t size, Il2CppClass *typeInfo);
        static Il2CppObject *Box(Il2CppClass *typeInfo, void *val);
        static Il2CppObject *Clone(Il2CppObject *obj);
        static Il2CppClass *GetClass(Il2CppObject *obj) { return obj->klass; }
        static uint32_t GetSize(Il2CppObject *obj);
        static Il2CppObject *New(Il2CppClass *klass);
        static Il2CppObject *NewAllocSpecific(Il2CppClass *klass, bool allowBoxToNullable);
        static Il2CppObject *NewPtrFree(Il2CppClass *klass);
        static void *GetRawData(Il2CppObject *obj) { return (char *)obj + sizeof(Il2CppObject); }
    };
} /* namespace vm */
} /* namespace il2cpp */
