// vm/Array.h — single-dimension array allocation (libil2cpp's il2cpp::vm::Array).
#pragma once

#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"

namespace il2cpp
{
namespace vm
{
    class Array
    {
    public:
        static int32_t GetElementSize(const Il2CppClass *klass);
        static uint32_t GetLength(Il2CppArray *array) { return (uint32_t)array->max_length; }
        static Il2CppArray *New(Il2CppClass *elementTypeInfo, il2cpp_array_size_t length);
        static Il2CppArray *NewSpecific(Il2CppClass *klass, il2cpp_array_size_t n);
        static char *GetFirstElementAddress(Il2CppArray *array) { return (char *)array + kIl2CppSizeOfArray; }
    };
} /* namespace vm */
} /* namespace il2cpp */

extern "C" __attribute__((visibility("default"))) int32_t il2cpp_array_element_size(const Il2CppClass *array_class);
