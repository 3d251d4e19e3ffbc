// vm/String.h — managed string allocation (libil2cpp's il2cpp::vm::String).
#pragma once

#include "il2cpp-object-internals.h"

namespace il2cpp
{
namespace vm
{
    class String
    {
    public:
        static Il2CppString *Empty();
        static Il2CppString *New(const char *str);                 // ASCII/Latin-1 in the sample
        static Il2CppString *NewUtf16(const Il2CppChar *text, int32_t len);
        static Il2CppString *NewSize(int32_t len);
        static int32_t GetLength(Il2CppString *str) { return str->length; }
        static Il2CppChar *GetChars(Il2CppString *str) { return str->chars; }
    };
} /* namespace vm */
} /* namespace il2cpp */
