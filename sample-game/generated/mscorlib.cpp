// mscorlib.cpp — the System types the game uses, compiled the way IL2CPP compiles mscorlib:
// managed logic in C++, allocations only through il2cpp_codegen_* / SZArrayNew / Box.
#include "Il2CppMethods.h"

#include <stdio.h>
#include <string.h>

typedef StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 StringBuilder;
typedef CharU5BU5D_t799905F6FDC7A8BA5E2E0C2E5D2C5A2C1E0C2E3A CharArray;
typedef Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32 Int32Array;
typedef Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 Enemy;
typedef Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A DictionarySE;
typedef Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850 DictionaryIF;
typedef Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB EntrySE;
typedef Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431 EntryIF;
typedef EntryU5BU5D_t4E19AD3A5A4D6BCDE53F3C3C35C54B4A5B2D2E21 EntrySEArray;
typedef EntryU5BU5D_tF1E4C5A8F0D5B6E4D3A2C1B0A9F8E7D6C5B4A392 EntryIFArray;

static IL2CPP_MANAGED_FORCE_INLINE Il2CppChar *String_GetChars(String_t *s)
{
    return &s->____firstChar_5;
}

// ----------------------------------------------------------------------------- System.String
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *String_FastAllocateString_mDDEBC88E422CAEE9921B25A80455F910619ADFC1(int32_t length, const RuntimeMethod *)
{
    return (String_t *)il2cpp_codegen_string_new_length(length);
}

static String_t *String_CreateFromAscii(const char *text, int32_t length)
{
    String_t *s = String_FastAllocateString_mDDEBC88E422CAEE9921B25A80455F910619ADFC1(length, NULL);
    Il2CppChar *d = String_GetChars(s);
    for (int32_t i = 0; i < length; ++i)
        d[i] = (unsigned char)text[i];
    return s;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(int32_t *__this, const RuntimeMethod *)
{
    char buf[16];
    int n = snprintf(buf, sizeof buf, "%d", *__this);
    return String_CreateFromAscii(buf, n);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *Single_ToString_mA08ED0724975D182F6EEB77AF88E53D142CCB3CD(float *__this, const RuntimeMethod *)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%.2f", (double)*__this);
    return String_CreateFromAscii(buf, n);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(String_t *str0, String_t *str1, const RuntimeMethod *)
{
    int32_t l0 = str0 ? str0->____stringLength_4 : 0, l1 = str1 ? str1->____stringLength_4 : 0;
    String_t *result = String_FastAllocateString_mDDEBC88E422CAEE9921B25A80455F910619ADFC1(l0 + l1, NULL);
    if (l0)
        memcpy(String_GetChars(result), String_GetChars(str0), (size_t)l0 * 2);
    if (l1)
        memcpy(String_GetChars(result) + l0, String_GetChars(str1), (size_t)l1 * 2);
    return result;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *String_Concat_m3C07CA0F3320C66FADAA95FBCB43BD65FF8A975A(String_t *str0, String_t *str1, String_t *str2, const RuntimeMethod *)
{
    String_t *parts[3] = {str0, str1, str2};
    int32_t total = 0;
    for (String_t *p : parts)
        total += p ? p->____stringLength_4 : 0;
    String_t *result = String_FastAllocateString_mDDEBC88E422CAEE9921B25A80455F910619ADFC1(total, NULL);
    int32_t at = 0;
    for (String_t *p : parts)
    {
        if (p && p->____stringLength_4)
        {
            memcpy(String_GetChars(result) + at, String_GetChars(p), (size_t)p->____stringLength_4 * 2);
            at += p->____stringLength_4;
        }
    }
    return result;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t String_GetHashCode_m099E57D4793F230D1A9749F3EC0D2E24075A1487(String_t *__this, const RuntimeMethod *)
{
    uint32_t h = 5381;
    const Il2CppChar *c = String_GetChars(__this);
    for (int32_t i = 0; i < __this->____stringLength_4; ++i)
        h = (h << 5) + h + c[i];
    return (int32_t)h;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool String_Equals_m5B82B4D3A00395C71590EEF924F0EDCD094F4AE4(String_t *a, String_t *b, const RuntimeMethod *)
{
    if (a == b)
        return true;
    if (!a || !b || a->____stringLength_4 != b->____stringLength_4)
        return false;
    return memcmp(String_GetChars(a), String_GetChars(b), (size_t)a->____stringLength_4 * 2) == 0;
}

// ----------------------------------------------------------------------------- StringBuilder
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void StringBuilder__ctor_mD87C1DD7B7F488994F1971D39D0F4EACFEBB4598(StringBuilder *__this, int32_t capacity, const RuntimeMethod *)
{
    __this->___m_ChunkChars_0 = (CharArray *)SZArrayNew(CharU5BU5D_t799905F6FDC7A8BA5E2E0C2E5D2C5A2C1E0C2E3A_il2cpp_TypeInfo_var, (uint32_t)(capacity > 0 ? capacity : 16));
    __this->___m_MaxCapacity_4 = 0x7fffffff;
}

// A full chunk becomes the "previous" chunk (a new StringBuilder object) and a new char block
// takes its place: the .NET 4 StringBuilder's growth, and its garbage.
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void StringBuilder_ExpandByABlock_mD2DEE20545BA071D5C695A1628657398BD0CA485(StringBuilder *__this, int32_t minBlockCharCount, const RuntimeMethod *)
{
    int32_t length = __this->___m_ChunkOffset_3 + __this->___m_ChunkLength_2;
    int32_t newBlockLength = minBlockCharCount > (length < 8000 ? length : 8000) ? minBlockCharCount : (length < 8000 ? length : 8000);
    StringBuilder *previous = (StringBuilder *)il2cpp_codegen_object_new(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7_il2cpp_TypeInfo_var);
    previous->___m_ChunkChars_0 = __this->___m_ChunkChars_0;
    previous->___m_ChunkPrevious_1 = __this->___m_ChunkPrevious_1;
    previous->___m_ChunkLength_2 = __this->___m_ChunkLength_2;
    previous->___m_ChunkOffset_3 = __this->___m_ChunkOffset_3;
    previous->___m_MaxCapacity_4 = __this->___m_MaxCapacity_4;
    __this->___m_ChunkPrevious_1 = previous;
    __this->___m_ChunkOffset_3 += __this->___m_ChunkLength_2;
    __this->___m_ChunkLength_2 = 0;
    __this->___m_ChunkChars_0 = (CharArray *)SZArrayNew(CharU5BU5D_t799905F6FDC7A8BA5E2E0C2E5D2C5A2C1E0C2E3A_il2cpp_TypeInfo_var, (uint32_t)newBlockLength);
}

static void StringBuilder_AppendChars(StringBuilder *sb, const Il2CppChar *chars, int32_t count)
{
    while (count > 0)
    {
        CharArray *chunk = sb->___m_ChunkChars_0;
        int32_t room = (int32_t)chunk->max_length - sb->___m_ChunkLength_2;
        if (room == 0)
        {
            StringBuilder_ExpandByABlock_mD2DEE20545BA071D5C695A1628657398BD0CA485(sb, count, NULL);
            continue;
        }
        int32_t n = count < room ? count : room;
        memcpy(chunk->GetAddressAt((il2cpp_array_size_t)sb->___m_ChunkLength_2), chars, (size_t)n * 2);
        sb->___m_ChunkLength_2 += n;
        chars += n;
        count -= n;
    }
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR StringBuilder *StringBuilder_Append_m64AFC71706623B3B48DD68C80CBBABF473D5ABDF(StringBuilder *__this, String_t *value, const RuntimeMethod *)
{
    if (value)
        StringBuilder_AppendChars(__this, String_GetChars(value), value->____stringLength_4);
    return __this;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *StringBuilder_ToString_m0748BDD239F4ACA25AD163183EFB2D33BD394ACC(StringBuilder *__this, const RuntimeMethod *)
{
    int32_t length = __this->___m_ChunkOffset_3 + __this->___m_ChunkLength_2;
    String_t *result = String_FastAllocateString_mDDEBC88E422CAEE9921B25A80455F910619ADFC1(length, NULL);
    for (StringBuilder *chunk = __this; chunk; chunk = chunk->___m_ChunkPrevious_1)
        memcpy(String_GetChars(result) + chunk->___m_ChunkOffset_3, chunk->___m_ChunkChars_0->GetAddressAt(0),
               (size_t)chunk->___m_ChunkLength_2 * 2);
    return result;
}

// ----------------------------------------------------------------------------- Object.ToString, Format
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *Object_ToString_mFE363D287CC3B34B96AB7D585F8250A9F7286C79(RuntimeObject *__this, const RuntimeMethod *)
{
    RuntimeClass *k = __this->klass;
    void *raw = il2cpp::vm::Object::GetRawData(__this);
    if (k == Int32_t366962207F750027D7847259F85318FB9DD8F3EE_il2cpp_TypeInfo_var)
        return Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B((int32_t *)raw, NULL);
    if (k == Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733_il2cpp_TypeInfo_var)
        return Single_ToString_mA08ED0724975D182F6EEB77AF88E53D142CCB3CD((float *)raw, NULL);
    if (k == KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B_il2cpp_TypeInfo_var)
        return KeyValuePair_2_ToString_m80E15A76EC86724B5E74DA9B9C23E12E5DF5A218((KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B *)raw, NULL);
    if (k == String_t_il2cpp_TypeInfo_var)
        return (String_t *)__this;
    return (String_t *)il2cpp_codegen_string_new_wrapper(k->name);
}

// String.Format(format, arg0): a StringBuilder sized for the format, {0} replaced by arg0.ToString().
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *String_Format_m4BF08EAB0F236F09F748EE468A121FAA0CF0DFDB(String_t *format, RuntimeObject *arg0, const RuntimeMethod *)
{
    StringBuilder *sb = (StringBuilder *)il2cpp_codegen_object_new(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7_il2cpp_TypeInfo_var);
    StringBuilder__ctor_mD87C1DD7B7F488994F1971D39D0F4EACFEBB4598(sb, format->____stringLength_4 + 4, NULL);
    const Il2CppChar *f = String_GetChars(format);
    int32_t n = format->____stringLength_4, start = 0;
    for (int32_t i = 0; i < n; ++i)
    {
        if (i + 2 < n && f[i] == '{' && f[i + 1] == '0' && f[i + 2] == '}')
        {
            StringBuilder_AppendChars(sb, f + start, i - start);
            StringBuilder_Append_m64AFC71706623B3B48DD68C80CBBABF473D5ABDF(sb, arg0 ? Object_ToString_mFE363D287CC3B34B96AB7D585F8250A9F7286C79(arg0, NULL) : NULL, NULL);
            i += 2;
            start = i + 1;
        }
    }
    StringBuilder_AppendChars(sb, f + start, n - start);
    return StringBuilder_ToString_m0748BDD239F4ACA25AD163183EFB2D33BD394ACC(sb, NULL);
}

// ----------------------------------------------------------------------------- delegates
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Action__ctor_mA91BDA9122C10A07588A1376426F482404945C96(Action_tD724E142E61502FC949815CB94724BFAE4F97EF7 *__this, RuntimeObject *object, intptr_t method_ptr, const RuntimeMethod *)
{
    __this->___method_ptr_0 = (Il2CppMethodPointer)method_ptr;
    __this->___m_target_2 = object;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Action_Invoke_m2479E3C16A1647C658C89ACF533D9826C1C2610E(Action_tD724E142E61502FC949815CB94724BFAE4F97EF7 *__this, const RuntimeMethod *method)
{
    typedef void (*FunctionPointerType)(RuntimeObject *, const RuntimeMethod *);
    ((FunctionPointerType)__this->___method_ptr_0)(__this->___m_target_2, method);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Func_2__ctor_m34C70241D580AEE15D30C4A3453A5D1F94E3A072(Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704 *__this, RuntimeObject *object, intptr_t method_ptr, const RuntimeMethod *)
{
    __this->___method_ptr_0 = (Il2CppMethodPointer)method_ptr;
    __this->___m_target_2 = object;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Func_2_Invoke_m784D6C957FCE532F69F005C5509DFE368948F783(Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704 *__this, RuntimeObject *arg, const RuntimeMethod *method)
{
    typedef bool (*FunctionPointerType)(RuntimeObject *, RuntimeObject *, const RuntimeMethod *);
    return ((FunctionPointerType)__this->___method_ptr_0)(__this->___m_target_2, arg, method);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *KeyValuePair_2_ToString_m80E15A76EC86724B5E74DA9B9C23E12E5DF5A218(KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B *__this, const RuntimeMethod *)
{
    String_t *key = Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&__this->___key_0, NULL);
    String_t *value = Single_ToString_mA08ED0724975D182F6EEB77AF88E53D142CCB3CD(&__this->___value_1, NULL);
    return String_Concat_m3C07CA0F3320C66FADAA95FBCB43BD65FF8A975A(key, _stringLiteral(kLit_Arrow), value, NULL);
}

// ----------------------------------------------------------------------------- Dictionary helpers
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t HashHelpers_GetPrime_mDE5B5FF32387C43ED40E694992FFE52ED0BD0374(int32_t min, const RuntimeMethod *)
{
    static const int32_t primes[] = {3, 7, 11, 17, 23, 29, 37, 47, 59, 71, 89, 107, 131, 163, 197, 239, 293, 353, 431,
                                     521, 631, 761, 919, 1103, 1327, 1597, 1931, 2333, 2801, 3371, 4049, 4861, 5839};
    for (int32_t p : primes)
        if (p >= min)
            return p;
    return min | 1;
}

static Int32Array *Dictionary_NewBuckets(int32_t size)
{
    Int32Array *buckets = (Int32Array *)SZArrayNew(Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32_il2cpp_TypeInfo_var, (uint32_t)size);
    for (int32_t i = 0; i < size; ++i)
        buckets->SetAt(i, -1);
    return buckets;
}

#include "mscorlib_Dictionary.inl"
