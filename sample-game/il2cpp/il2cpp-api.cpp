// il2cpp-api.cpp — the embedding API, exported under Unity's names and signatures (the subset a
// player and MemTracer use). MemTracer's no-patch mode finds these with dlsym(RTLD_DEFAULT, ...),
// exactly as in a real player's libil2cpp.so / GameAssembly.
#include "il2cpp-config.h"
#include "il2cpp-api-types.h"
#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"
#include "gc/GarbageCollector.h"
#include "vm/Array.h"
#include "vm/Class.h"
#include "vm/Object.h"
#include "vm/Profiler.h"
#include "vm/String.h"
#include "vm/Type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Il2CppCodeRegistration_Initialize();  // generated/Il2CppTypeDefinitions.cpp

struct Il2CppDomain
{
    const char *friendly_name;
};

struct Il2CppThread
{
    Il2CppDomain *domain;
};

namespace
{
    Il2CppDomain s_Domain = {"IL2CPP Root Domain"};
    bool s_Initialized = false;
}

void il2cpp_assert_failed(const char *expr, const char *file, int line)
{
    fprintf(stderr, "il2cpp assertion failed: %s (%s:%d)\n", expr, file, line);
    abort();
}

using namespace il2cpp::vm;

IL2CPP_EXPORT int il2cpp_init(const char *domain_name)
{
    if (s_Initialized)
        return 1;
    s_Domain.friendly_name = domain_name;
    il2cpp::gc::GarbageCollector::Initialize();
    Il2CppCodeRegistration_Initialize();
    String::Empty();  // the shared empty string exists before any script runs
    il2cpp::gc::GarbageCollector::InitializeFinalizer();  // as Runtime::Init, after the corlib
    s_Initialized = true;
    return 1;
}

IL2CPP_EXPORT void il2cpp_shutdown()
{
    il2cpp::gc::GarbageCollector::UninitializeFinalizers();
    Profiler::Shutdown();
}

IL2CPP_EXPORT Il2CppDomain *il2cpp_domain_get() { return &s_Domain; }

IL2CPP_EXPORT Il2CppThread *il2cpp_thread_attach(Il2CppDomain *domain)
{
    il2cpp::gc::GarbageCollector::RegisterThread();
    Il2CppThread *thread = (Il2CppThread *)calloc(1, sizeof(Il2CppThread));
    thread->domain = domain;
    return thread;
}

IL2CPP_EXPORT void il2cpp_thread_detach(Il2CppThread *thread)
{
    il2cpp::gc::GarbageCollector::UnregisterThread();
    free(thread);
}

IL2CPP_EXPORT const Il2CppImage *il2cpp_get_corlib() { return il2cpp_defaults.corlib; }
IL2CPP_EXPORT const char *il2cpp_image_get_name(const Il2CppImage *image) { return image->name; }

// class
IL2CPP_EXPORT Il2CppClass *il2cpp_class_from_name(const Il2CppImage *image, const char *namespaze, const char *name)
{
    return Class::FromName(image, namespaze, name);
}
IL2CPP_EXPORT const char *il2cpp_class_get_name(Il2CppClass *klass) { return klass->name; }
IL2CPP_EXPORT const char *il2cpp_class_get_namespace(Il2CppClass *klass) { return klass->namespaze; }
IL2CPP_EXPORT const Il2CppImage *il2cpp_class_get_image(Il2CppClass *klass) { return klass->image; }
IL2CPP_EXPORT const Il2CppType *il2cpp_class_get_type(Il2CppClass *klass) { return &klass->byval_arg; }
IL2CPP_EXPORT int32_t il2cpp_class_instance_size(Il2CppClass *klass) { return Class::GetInstanceSize(klass); }
IL2CPP_EXPORT bool il2cpp_class_is_valuetype(const Il2CppClass *klass) { return klass->valuetype != 0; }
IL2CPP_EXPORT Il2CppClass *il2cpp_class_get_element_class(Il2CppClass *klass) { return klass->element_class; }
IL2CPP_EXPORT int il2cpp_class_get_rank(const Il2CppClass *klass) { return klass->rank; }
IL2CPP_EXPORT bool il2cpp_class_has_references(Il2CppClass *klass) { return klass->has_references != 0; }
IL2CPP_EXPORT int il2cpp_class_array_element_size(const Il2CppClass *klass)
{
    // The size this type takes as an array element (Class::GetArrayElementSize).
    return klass->valuetype ? (int)(klass->instance_size - sizeof(Il2CppObject)) : (int)sizeof(void *);
}

// type: the IL name ("System.Collections.Generic.List<Enemy>"), in memory the caller gives back
// with il2cpp_free, as Unity's il2cpp_type_get_name (Type::GetName, IL2CPP_TYPE_NAME_FORMAT_IL).
IL2CPP_EXPORT char *il2cpp_type_get_name(const Il2CppType *type)
{
    std::string name = il2cpp::vm::Type::GetName(type);
    char *out = (char *)malloc(name.size() + 1);
    if (out)
        memcpy(out, name.c_str(), name.size() + 1);
    return out;
}
IL2CPP_EXPORT void il2cpp_free(void *ptr) { free(ptr); }

// array / object / string
IL2CPP_EXPORT uint32_t il2cpp_array_length(Il2CppArray *array) { return Array::GetLength(array); }
IL2CPP_EXPORT uint32_t il2cpp_array_object_header_size() { return (uint32_t)kIl2CppSizeOfArray; }
IL2CPP_EXPORT uint32_t il2cpp_object_header_size() { return (uint32_t)sizeof(Il2CppObject); }
IL2CPP_EXPORT Il2CppClass *il2cpp_object_get_class(Il2CppObject *obj) { return obj->klass; }
IL2CPP_EXPORT uint32_t il2cpp_object_get_size(Il2CppObject *obj) { return Object::GetSize(obj); }
IL2CPP_EXPORT Il2CppObject *il2cpp_object_new(const Il2CppClass *klass) { return Object::New(const_cast<Il2CppClass *>(klass)); }
IL2CPP_EXPORT Il2CppArray *il2cpp_array_new(Il2CppClass *elementTypeInfo, il2cpp_array_size_t length)
{
    return Array::New(elementTypeInfo, length);
}
IL2CPP_EXPORT int32_t il2cpp_string_length(Il2CppString *str) { return String::GetLength(str); }
IL2CPP_EXPORT Il2CppChar *il2cpp_string_chars(Il2CppString *str) { return String::GetChars(str); }
IL2CPP_EXPORT Il2CppString *il2cpp_string_new(const char *str) { return String::New(str); }

// gc
IL2CPP_EXPORT void il2cpp_gc_collect(int maxGenerations) { il2cpp::gc::GarbageCollector::Collect(maxGenerations); }
IL2CPP_EXPORT int64_t il2cpp_gc_get_used_size() { return il2cpp::gc::GarbageCollector::GetUsedHeapSize(); }
IL2CPP_EXPORT int64_t il2cpp_gc_get_heap_size() { return il2cpp::gc::GarbageCollector::GetAllocatedHeapSize(); }
IL2CPP_EXPORT bool il2cpp_gc_is_incremental() { return il2cpp::gc::GarbageCollector::IsIncremental(); }
IL2CPP_EXPORT bool il2cpp_gc_is_disabled() { return il2cpp::gc::GarbageCollector::IsDisabled(); }

// profiler
IL2CPP_EXPORT void il2cpp_profiler_install(Il2CppProfiler *prof, Il2CppProfileFunc shutdown_callback)
{
    Profiler::Install(prof, shutdown_callback);
}
IL2CPP_EXPORT void il2cpp_profiler_set_events(Il2CppProfileFlags events) { Profiler::SetEvents(events); }
IL2CPP_EXPORT void il2cpp_profiler_install_allocation(Il2CppProfileAllocFunc callback) { Profiler::InstallAllocation(callback); }
IL2CPP_EXPORT void il2cpp_profiler_install_gc(Il2CppProfileGCFunc callback, Il2CppProfileGCResizeFunc heap_resize_callback)
{
    Profiler::InstallGC(callback, heap_resize_callback);
}
