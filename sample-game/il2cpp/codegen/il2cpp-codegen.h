// codegen/il2cpp-codegen.h — the helpers IL2CPP-generated code calls into libil2cpp with. Small
// and forced inline (as in Unity's il2cpp-codegen.h), so each appears as an inlined frame at its
// call site in the debug info rather than as a real frame.
#pragma once

#include "il2cpp-config.h"
#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"
#include "gc/GarbageCollector.h"
#include "vm/Array.h"
#include "vm/Class.h"
#include "vm/Object.h"
#include "vm/String.h"

typedef void (*Il2CppMethodPointer)();

// What generated code passes as `const RuntimeMethod* method`. A generic method shared between
// reference types finds its instantiation's classes here (IL2CPP: method->rgctx_data).
struct MethodInfo
{
    const char *name;
    RuntimeClass **rgctx_class;  // e.g. the T[] class of List<T>
};

#define IL2CPP_RGCTX_DATA(method, index) (*(method)->rgctx_class)

IL2CPP_MANAGED_FORCE_INLINE RuntimeObject *il2cpp_codegen_object_new(RuntimeClass *klass)
{
    return il2cpp::vm::Object::New(klass);
}

IL2CPP_MANAGED_FORCE_INLINE RuntimeArray *SZArrayNew(RuntimeClass *arrayType, uint32_t length)
{
    return il2cpp::vm::Array::NewSpecific(arrayType, length);
}

IL2CPP_MANAGED_FORCE_INLINE Il2CppString *il2cpp_codegen_string_new_length(int32_t length)
{
    return il2cpp::vm::String::NewSize(length);
}

IL2CPP_MANAGED_FORCE_INLINE Il2CppString *il2cpp_codegen_string_new_wrapper(const char *str)
{
    return il2cpp::vm::String::New(str);
}

IL2CPP_MANAGED_FORCE_INLINE RuntimeObject *Box(RuntimeClass *klass, void *data)
{
    return il2cpp::vm::Object::Box(klass, data);
}

IL2CPP_MANAGED_FORCE_INLINE void *il2cpp_codegen_static_fields_for(RuntimeClass *klass)
{
    return klass->static_fields;
}

IL2CPP_MANAGED_FORCE_INLINE RuntimeObject *il2cpp_codegen_memberwise_clone(RuntimeObject *obj)
{
    return il2cpp::vm::Object::Clone(obj);
}

// As Unity's: GarbageCollector::SetWriteBarrier, i.e. GC_END_STUBBORN_CHANGE. Unity's bdwgc
// uses these manual dirty bits; this stand-in's Boehm keeps its own (page protection), which
// makes the call a no-op (docs/sample-game.md).
IL2CPP_MANAGED_FORCE_INLINE void Il2CppCodeGenWriteBarrier(void **ptr, void *)
{
    il2cpp::gc::GarbageCollector::SetWriteBarrier(ptr);
}
