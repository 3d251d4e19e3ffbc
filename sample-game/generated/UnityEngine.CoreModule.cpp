// UnityEngine.CoreModule.cpp — the engine API the game scripts call. Only UnityEngine.Random:
// a xorshift state per thread, seeded per frame and per job by the player loop, so the same
// seed and frame count make the same allocations whatever the thread timing.
#include "Il2CppMethods.h"

static thread_local uint64_t s_RandomState = 0x9E3779B97F4A7C15ull;

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Random_InitState_m3C38A100F92862D369340BB0713D6F21FEA0F7C3(int64_t seed, const RuntimeMethod *)
{
    uint64_t z = (uint64_t)seed + 0x9E3779B97F4A7C15ull;  // splitmix64 step
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    s_RandomState = (z ^ (z >> 31)) | 1;
}

static IL2CPP_MANAGED_FORCE_INLINE uint64_t Random_Next()
{
    uint64_t x = s_RandomState;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return s_RandomState = x;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(int32_t minInclusive, int32_t maxExclusive, const RuntimeMethod *)
{
    if (maxExclusive <= minInclusive)
        return minInclusive;
    return minInclusive + (int32_t)(Random_Next() % (uint64_t)(maxExclusive - minInclusive));
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR float Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(const RuntimeMethod *)
{
    return (float)(Random_Next() >> 40) / (float)(1ull << 24);
}
