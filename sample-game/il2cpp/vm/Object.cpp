// vm/Object.cpp — object allocation, laid out as libil2cpp's (2020+). The IL2CPP_GC_BOEHM macro
// block below is byte-for-byte the one Unity ships: the build runs bdwgc-patches/memtracer-patch-il2cpp
// on a copy of this file for the patched GameAssembly, exactly as on a real Unity install.
#include "il2cpp-config.h"
#include <memory>

#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"
#include "il2cpp-runtime-stats.h"
#include "gc/gc_wrapper.h"
#include "gc/GarbageCollector.h"
#include "vm/AllocationTally.h"
#include "vm/Class.h"
#include "vm/Object.h"
#include "vm/Profiler.h"
#include "vm/String.h"

#include <string.h>

#if IL2CPP_GC_BOEHM
#define ALLOC_PTRFREE(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC_ATOMIC ((size)); (obj)->klass = (vt); (obj)->monitor = NULL;} while (0)
#define ALLOC_OBJECT(obj, vt, size) do { (obj) = (Il2CppObject*)GC_MALLOC ((size)); (obj)->klass = (vt);} while (0)
#ifdef GC_GCJ_SUPPORT
#define ALLOC_TYPED(dest, size, type) do { (dest) = (Il2CppObject*)GC_gcj_malloc ((size),(type)); } while (0)
#else
#define GC_NO_DESCRIPTOR (NULL)
#define ALLOC_TYPED(dest, size, type) do { (dest) = GC_MALLOC ((size)); *(void**)dest = (type);} while (0)
#endif
#else
#ifdef HAVE_SGEN_GC
#define GC_NO_DESCRIPTOR (NULL)
#define ALLOC_PTRFREE(obj, vt, size) do { (obj) = mono_gc_alloc_obj (vt, size);} while (0)
#define ALLOC_OBJECT(obj, vt, size) do { (obj) = mono_gc_alloc_obj (vt, size);} while (0)
#define ALLOC_TYPED(dest, size, type) do { (dest) = mono_gc_alloc_obj (type, size);} while (0)
#else
#define ALLOC_PTRFREE(obj, vt, size) do { (obj) = (Il2CppObject*)malloc ((size)); (obj)->klass = (vt); (obj)->monitor = NULL;} while (0)
#define ALLOC_OBJECT(obj, vt, size) do { (obj) = (Il2CppObject*)calloc (1, (size)); (obj)->klass = (vt);} while (0)
#define ALLOC_TYPED(dest, size, type) do { (dest) = (Il2CppObject*)(calloc (1, (size))); *(void**)dest = (type);} while (0)
#endif
#endif

Il2CppRuntimeStats il2cpp_runtime_stats;

namespace il2cpp
{
namespace vm
{
    Il2CppObject * Object::Allocate(size_t size, Il2CppClass *typeInfo)
    {
        IL2CPP_ASSERT(typeInfo->initialized);
        Il2CppObject *o;
        ALLOC_OBJECT(o, typeInfo, size);

        ++il2cpp_runtime_stats.new_object_count;
        AllocationTally::Record(typeInfo, size);

        return o;
    }

    Il2CppObject * Object::AllocatePtrFree(size_t size, Il2CppClass *typeInfo)
    {
        IL2CPP_ASSERT(typeInfo->initialized);
        Il2CppObject *o;
        ALLOC_PTRFREE(o, typeInfo, size);

        ++il2cpp_runtime_stats.new_object_count;
        AllocationTally::Record(typeInfo, size);

        return o;
    }

    Il2CppObject * Object::AllocateSpec(size_t size, Il2CppClass *typeInfo)
    {
        IL2CPP_ASSERT(typeInfo->initialized);
        Il2CppObject *o;
        ALLOC_TYPED(o, size, typeInfo);

        ++il2cpp_runtime_stats.new_object_count;
        AllocationTally::Record(typeInfo, size);

        return o;
    }

    Il2CppObject* Object::Box(Il2CppClass *typeInfo, void* val)
    {
        if (!typeInfo->valuetype)
            return *(Il2CppObject**)val;

        Il2CppObject* obj = Object::New(typeInfo);
        size_t size = Class::GetInstanceSize(typeInfo) - sizeof(Il2CppObject);
        memcpy(GetRawData(obj), val, size);
        return obj;
    }

    Il2CppObject* Object::Clone(Il2CppObject *obj)
    {
        // Arrays are cloned by Array::Clone in libil2cpp; the sample game only clones objects.
        IL2CPP_ASSERT(obj->klass->rank == 0);
        size_t size = obj->klass->instance_size;
        Il2CppObject *o = Allocate(size, obj->klass);
        memcpy(GetRawData(o), GetRawData(obj), size - sizeof(Il2CppObject));

#if IL2CPP_ENABLE_PROFILER
        if (Profiler::ProfileAllocations())
            Profiler::Allocation(o, obj->klass);
#endif
        return o;
    }

    uint32_t Object::GetSize(Il2CppObject* obj)
    {
        Il2CppClass* klass = GetClass(obj);
        if (klass == il2cpp_defaults.string_class)
            return sizeof(Il2CppString) + 2 * ((Il2CppString*)obj)->length + 2;
        if (klass->rank)
            return (uint32_t)(kIl2CppSizeOfArray + klass->element_size * ((Il2CppArray*)obj)->max_length);
        return klass->instance_size;
    }

    Il2CppObject* Object::New(Il2CppClass *klass)
    {
        // same as NewAllocSpecific as we only support a single domain
        return NewAllocSpecific(klass, false);
    }

    Il2CppObject * Object::NewAllocSpecific(Il2CppClass *klass, bool allowBoxToNullable)
    {
        Il2CppObject *o = NULL;

        Class::Init(klass);

        if (Class::IsNullable(klass) && !allowBoxToNullable)
            IL2CPP_ASSERT(false);

        if (!klass->has_references)
        {
            o = NewPtrFree(klass);
        }
#if IL2CPP_HAS_GC_DESCRIPTORS
        else if (klass->gc_desc != GC_NO_DESCRIPTOR)
        {
            o = AllocateSpec(klass->instance_size, klass);
        }
#endif
        else
        {
            o = Allocate(klass->instance_size, klass);
        }

#if IL2CPP_ENABLE_PROFILER
        if (Profiler::ProfileAllocations())
            Profiler::Allocation(o, klass);
#endif

        return o;
    }

    Il2CppObject* Object::NewPtrFree(Il2CppClass *klass)
    {
        Il2CppObject *obj = {0};

        IL2CPP_ASSERT(klass->initialized);
        IL2CPP_ASSERT(!klass->has_references);

        ALLOC_PTRFREE(obj, klass, klass->instance_size);
#if NEED_TO_ZERO_PTRFREE
        memset(GetRawData(obj), 0, klass->instance_size - sizeof(Il2CppObject));
#endif

        ++il2cpp_runtime_stats.new_object_count;
        AllocationTally::Record(klass, klass->instance_size);

        return obj;
    }
} /* namespace vm */
} /* namespace il2cpp */
