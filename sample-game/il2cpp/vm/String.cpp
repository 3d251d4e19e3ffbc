// vm/String.cpp — String::NewSize as in libil2cpp: sizeof(Il2CppString) + (len + 1) * 2 bytes
// through Object::AllocatePtrFree (so through ALLOC_PTRFREE), then the profiler callback. Length
// 0 returns the shared empty string without allocating (modern libil2cpp; 5.x allocated).
#include "vm/String.h"

#include "gc/GarbageCollector.h"
#include "vm/Class.h"
#include "vm/Object.h"
#include "vm/Profiler.h"

#include <string.h>

namespace il2cpp
{
namespace vm
{
    namespace
    {
        Il2CppString **s_EmptyRoot;  // a fixed (uncollectable) root cell, like String.Empty's static
    }

    Il2CppString *String::Empty()
    {
        if (s_EmptyRoot == NULL)
        {
            void *cell = gc::GarbageCollector::AllocateFixed(sizeof(Il2CppString *), NULL);
            size_t size = sizeof(Il2CppString) + 2;
            Il2CppString *s = (Il2CppString *)Object::AllocatePtrFree(size, il2cpp_defaults.string_class);
            s->length = 0;
            s->chars[0] = 0;
            *(Il2CppString **)cell = s;
            __atomic_store_n(&s_EmptyRoot, (Il2CppString **)cell, __ATOMIC_RELEASE);
        }
        return *__atomic_load_n(&s_EmptyRoot, __ATOMIC_ACQUIRE);
    }

    Il2CppString *String::New(const char *str)
    {
        int32_t len = (int32_t)strlen(str);
        Il2CppString *s = NewSize(len);
        for (int32_t i = 0; i < len; ++i)
            s->chars[i] = (unsigned char)str[i];
        return s;
    }

    Il2CppString *String::NewUtf16(const Il2CppChar *text, int32_t len)
    {
        Il2CppString *s = NewSize(len);
        memcpy(GetChars(s), text, (size_t)len * 2);
        return s;
    }

    Il2CppString *String::NewSize(int32_t len)
    {
        if (len == 0)
            return Empty();

        Il2CppString *s;
        IL2CPP_ASSERT(len >= 0);
        size_t size = (sizeof(Il2CppString) + (((size_t)len + 1) * 2));

        s = reinterpret_cast<Il2CppString*>(Object::AllocatePtrFree(size, il2cpp_defaults.string_class));

        s->length = len;
#if NEED_TO_ZERO_PTRFREE
        s->chars[len] = 0;
#endif

#if IL2CPP_ENABLE_PROFILER
        if (Profiler::ProfileAllocations())
            Profiler::Allocation((Il2CppObject*)s, il2cpp_defaults.string_class);
#endif

        return s;
    }
} /* namespace vm */
} /* namespace il2cpp */
