// Il2CppTypes.h — the managed types of the sample game, as IL2CPP emits them: one struct per
// class (fields named ___name_N), value types as plain structs, arrays as XxxU5BU5D_t ("[]"),
// plus the TypeInfo variables generated code allocates through. IL2CPP repeats these at the top
// of every generated .cpp; the sample keeps them in one header.
#pragma once

#include "codegen/il2cpp-codegen.h"

// ----------------------------------------------------------------------------- arrays
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
template <typename T>
struct Il2CppSzArray : public RuntimeArray
{
    alignas(8) T m_Items[0];
    IL2CPP_MANAGED_FORCE_INLINE T GetAt(il2cpp_array_size_t index) const { return m_Items[index]; }
    IL2CPP_MANAGED_FORCE_INLINE T *GetAddressAt(il2cpp_array_size_t index) { return &m_Items[index]; }
    IL2CPP_MANAGED_FORCE_INLINE void SetAt(il2cpp_array_size_t index, T value) { m_Items[index] = value; }
};
#pragma GCC diagnostic pop

// ----------------------------------------------------------------------------- mscorlib
struct String_t : public RuntimeObject
{
    int32_t ____stringLength_4;
    Il2CppChar ____firstChar_5;
};
struct Int32_t366962207F750027D7847259F85318FB9DD8F3EE { int32_t ___m_value_0; };
struct Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733 { float ___m_value_0; };
struct Char_tCF439D983D8E482F262C0F13CAE379534B691CDC { Il2CppChar ___m_value_0; };
struct Byte_tF3453E2A3CF1764613A2CE3F42CA194BF67A06F5 { uint8_t ___m_value_0; };

typedef Il2CppSzArray<Il2CppChar> CharU5BU5D_t799905F6FDC7A8BA5E2E0C2E5D2C5A2C1E0C2E3A;
typedef Il2CppSzArray<int32_t> Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32;
typedef Il2CppSzArray<float> SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C;
typedef Il2CppSzArray<uint8_t> ByteU5BU5D_tA6237BF417AE52AD70CFB4EF24A7A82613DF9031;
typedef Il2CppSzArray<RuntimeObject *> ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918;
typedef Il2CppSzArray<String_t *> StringU5BU5D_t7674CD946EC0CE7B3AE0BE70E6EE85F2ECD9F248;

struct StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 : public RuntimeObject
{
    CharU5BU5D_t799905F6FDC7A8BA5E2E0C2E5D2C5A2C1E0C2E3A *___m_ChunkChars_0;
    StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 *___m_ChunkPrevious_1;
    int32_t ___m_ChunkLength_2;
    int32_t ___m_ChunkOffset_3;
    int32_t ___m_MaxCapacity_4;
};

// System.Delegate / MulticastDelegate: the fields libil2cpp's Il2CppDelegate has.
struct MulticastDelegate_t : public RuntimeObject
{
    Il2CppMethodPointer ___method_ptr_0;
    void *___invoke_impl_1;
    RuntimeObject *___m_target_2;
    const RuntimeMethod *___method_3;
    void *___delegate_trampoline_4;
    intptr_t ___extra_arg_5;
    void *___method_code_6;
    RuntimeObject *___method_info_7;
    RuntimeObject *___original_method_info_8;
    RuntimeObject *___data_9;
    bool ___method_is_virtual_10;
    ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918 *___delegates_11;
};
struct Action_tD724E142E61502FC949815CB94724BFAE4F97EF7 : public MulticastDelegate_t {};
struct Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704 : public MulticastDelegate_t {};

// ----------------------------------------------------------------------------- value types
struct Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B { float ___x_2; float ___y_3; float ___z_4; };
struct Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8;
struct PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD
{
    int32_t ___x_0;
    int32_t ___y_1;
    float ___cost_2;
    int32_t ___parent_3;
    String_t *___label_4;
};
struct DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3
{
    Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *___source_0;
    float ___amount_1;
    int32_t ___kind_2;
};
// Dictionary<string, Enemy>.Entry and Dictionary<int, float>.Entry
struct Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB
{
    int32_t ___hashCode_0;
    int32_t ___next_1;
    String_t *___key_2;
    Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *___value_3;
};
struct Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431 { int32_t ___hashCode_0; int32_t ___next_1; int32_t ___key_2; float ___value_3; };
struct KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B { int32_t ___key_0; float ___value_1; };

typedef Il2CppSzArray<Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B> Vector3U5BU5D_t5FB88EAA33E46838BDC2ABDAEA3E8727491CB9E4;
typedef Il2CppSzArray<PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD> PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B;
typedef Il2CppSzArray<DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3> DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7;
typedef Il2CppSzArray<Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB> EntryU5BU5D_t4E19AD3A5A4D6BCDE53F3C3C35C54B4A5B2D2E21;
typedef Il2CppSzArray<Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431> EntryU5BU5D_tF1E4C5A8F0D5B6E4D3A2C1B0A9F8E7D6C5B4A392;

// ----------------------------------------------------------------------------- collections
// List<T> for reference types shares one body (IL2CPP's _gshared methods).
struct List_1_t3C8BDEFE1274D77F262F8D7CF8E19BA492AB21BD : public RuntimeObject
{
    ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918 *____items_1;
    int32_t ____size_2;
    int32_t ____version_3;
    RuntimeObject *____syncRoot_4;
};
struct List_1_t8E4A6A6D628AAA11D1C2C6BFD691FEABE78D82C0 : public RuntimeObject  // List<int>
{
    Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32 *____items_1;
    int32_t ____size_2;
    int32_t ____version_3;
    RuntimeObject *____syncRoot_4;
};
struct List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7 : public RuntimeObject  // List<Vector3>
{
    Vector3U5BU5D_t5FB88EAA33E46838BDC2ABDAEA3E8727491CB9E4 *____items_1;
    int32_t ____size_2;
    int32_t ____version_3;
    RuntimeObject *____syncRoot_4;
};
struct List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36 : public RuntimeObject  // List<PathNode>
{
    PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B *____items_1;
    int32_t ____size_2;
    int32_t ____version_3;
    RuntimeObject *____syncRoot_4;
};
struct Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A : public RuntimeObject  // <string, Enemy>
{
    Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32 *___buckets_0;
    EntryU5BU5D_t4E19AD3A5A4D6BCDE53F3C3C35C54B4A5B2D2E21 *___entries_1;
    int32_t ___count_2;
    int32_t ___version_3;
    int32_t ___freeList_4;
    int32_t ___freeCount_5;
    RuntimeObject *___comparer_6;
    RuntimeObject *___keys_7;
    RuntimeObject *___values_8;
    RuntimeObject *____syncRoot_9;
};
struct Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850 : public RuntimeObject  // <int, float>
{
    Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32 *___buckets_0;
    EntryU5BU5D_tF1E4C5A8F0D5B6E4D3A2C1B0A9F8E7D6C5B4A392 *___entries_1;
    int32_t ___count_2;
    int32_t ___version_3;
    int32_t ___freeList_4;
    int32_t ___freeCount_5;
    RuntimeObject *___comparer_6;
    RuntimeObject *___keys_7;
    RuntimeObject *___values_8;
    RuntimeObject *____syncRoot_9;
};

#include "Il2CppTypesGame.h"
#include "Il2CppTypeInfoVars.h"
