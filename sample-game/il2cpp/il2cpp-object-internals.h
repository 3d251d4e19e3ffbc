// il2cpp-object-internals.h — managed object shapes, as libil2cpp lays them out: a two-word
// header (class, monitor), arrays with bounds and length before the elements, UTF-16 strings.
#pragma once

#include "il2cpp-config.h"
#include "il2cpp-api-types.h"

typedef struct MonitorData MonitorData;
typedef Il2CppClass Il2CppVTable;

struct Il2CppObject
{
    union
    {
        Il2CppClass *klass;
        Il2CppVTable *vtable;
    };
    MonitorData *monitor;
};

typedef int32_t il2cpp_array_lower_bound_t;

struct Il2CppArrayBounds
{
    il2cpp_array_size_t length;
    il2cpp_array_lower_bound_t lower_bound;
};

struct Il2CppArray : public Il2CppObject
{
    Il2CppArrayBounds *bounds;       // NULL for single-dimension, zero-based arrays
    il2cpp_array_size_t max_length;
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
struct Il2CppArraySize : public Il2CppArray
{
    alignas(8) void *vector[IL2CPP_ZERO_LEN_ARRAY];
};

struct Il2CppString
{
    Il2CppObject object;
    int32_t length;
    Il2CppChar chars[IL2CPP_ZERO_LEN_ARRAY];
};
#pragma GCC diagnostic pop

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static const size_t kIl2CppSizeOfArray = offsetof(Il2CppArraySize, vector);
#pragma GCC diagnostic pop

// Element i of an array of T (what il2cpp_array_addr expands to).
#define il2cpp_array_addr(array, type, index) \
    ((type *)(((char *)(array)) + kIl2CppSizeOfArray + sizeof(type) * (index)))
#define il2cpp_array_get(array, type, index) (*il2cpp_array_addr((array), type, (index)))
#define il2cpp_array_setref(array, index, value) \
    do { *il2cpp_array_addr((array), void *, (index)) = (void *)(value); } while (0)
