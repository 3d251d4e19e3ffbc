// mscorlib_Dictionary.inl — Dictionary<TKey,TValue> and List<T> instantiations (part of
// mscorlib.cpp; IL2CPP emits one body per value-type instantiation and one _gshared body for
// reference types). Entry arrays: Entry<string, Enemy>[] holds references, so libil2cpp takes the
// GC_gcj_vector_malloc path for it; Entry<int, float>[] has none and is pointer-free.

#define DICTIONARY_BODY(Dict, Entry, EntryArray, EntryArrayClass, Key, Value, HASH, EQUALS, INIT, RESIZE, INSERT, CTOR) \
    static IL2CPP_METHOD_ATTR void INIT(Dict *__this, int32_t capacity, const RuntimeMethod *)                          \
    {                                                                                                                   \
        int32_t size = HashHelpers_GetPrime_mDE5B5FF32387C43ED40E694992FFE52ED0BD0374(capacity, NULL);                  \
        __this->___buckets_0 = Dictionary_NewBuckets(size);                                                             \
        __this->___entries_1 = (EntryArray *)SZArrayNew(EntryArrayClass, (uint32_t)size);                               \
        __this->___freeList_4 = -1;                                                                                     \
    }                                                                                                                   \
    static IL2CPP_METHOD_ATTR void RESIZE(Dict *__this, const RuntimeMethod *)                                          \
    {                                                                                                                   \
        int32_t count = __this->___count_2;                                                                             \
        int32_t newSize = HashHelpers_GetPrime_mDE5B5FF32387C43ED40E694992FFE52ED0BD0374(2 * count, NULL);              \
        Int32Array *buckets = Dictionary_NewBuckets(newSize);                                                           \
        EntryArray *entries = (EntryArray *)SZArrayNew(EntryArrayClass, (uint32_t)newSize);                             \
        memcpy(entries->GetAddressAt(0), __this->___entries_1->GetAddressAt(0), sizeof(Entry) * (size_t)count);         \
        for (int32_t i = 0; i < count; ++i)                                                                             \
        {                                                                                                               \
            Entry *e = entries->GetAddressAt(i);                                                                        \
            if (e->___hashCode_0 >= 0)                                                                                  \
            {                                                                                                           \
                int32_t bucket = e->___hashCode_0 % newSize;                                                            \
                e->___next_1 = buckets->GetAt(bucket);                                                                  \
                buckets->SetAt(bucket, i);                                                                              \
            }                                                                                                           \
        }                                                                                                               \
        __this->___buckets_0 = buckets;                                                                                 \
        __this->___entries_1 = entries;                                                                                 \
    }                                                                                                                   \
    IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool INSERT(Dict *__this, Key key, Value value, const RuntimeMethod *)          \
    {                                                                                                                   \
        if (__this->___buckets_0 == NULL)                                                                               \
            INIT(__this, 0, NULL);                                                                                      \
        int32_t hashCode = (HASH) & 0x7FFFFFFF;                                                                         \
        int32_t size = (int32_t)__this->___buckets_0->max_length;                                                      \
        int32_t targetBucket = hashCode % size;                                                                         \
        for (int32_t i = __this->___buckets_0->GetAt(targetBucket); i >= 0; i = __this->___entries_1->GetAt(i).___next_1) \
        {                                                                                                               \
            Entry *e = __this->___entries_1->GetAddressAt(i);                                                           \
            if (e->___hashCode_0 == hashCode && (EQUALS))                                                               \
            {                                                                                                           \
                e->___value_3 = value;                                                                                  \
                return false;                                                                                           \
            }                                                                                                           \
        }                                                                                                               \
        int32_t index;                                                                                                  \
        if (__this->___freeCount_5 > 0)                                                                                 \
        {                                                                                                               \
            index = __this->___freeList_4;                                                                              \
            __this->___freeList_4 = __this->___entries_1->GetAt(index).___next_1;                                      \
            __this->___freeCount_5--;                                                                                   \
        }                                                                                                               \
        else                                                                                                            \
        {                                                                                                               \
            if (__this->___count_2 == (int32_t)__this->___entries_1->max_length)                                       \
            {                                                                                                           \
                RESIZE(__this, NULL);                                                                                   \
                targetBucket = hashCode % (int32_t)__this->___buckets_0->max_length;                                   \
            }                                                                                                           \
            index = __this->___count_2++;                                                                               \
        }                                                                                                               \
        Entry *e = __this->___entries_1->GetAddressAt(index);                                                           \
        e->___hashCode_0 = hashCode;                                                                                    \
        e->___next_1 = __this->___buckets_0->GetAt(targetBucket);                                                       \
        e->___key_2 = key;                                                                                              \
        e->___value_3 = value;                                                                                          \
        __this->___buckets_0->SetAt(targetBucket, index);                                                               \
        __this->___version_3++;                                                                                         \
        return true;                                                                                                    \
    }                                                                                                                   \
    IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void CTOR(Dict *__this, int32_t capacity, const RuntimeMethod *)                 \
    {                                                                                                                   \
        if (capacity > 0)                                                                                               \
            INIT(__this, capacity, NULL);                                                                               \
    }

DICTIONARY_BODY(DictionarySE, EntrySE, EntrySEArray, EntryU5BU5D_t4E19AD3A5A4D6BCDE53F3C3C35C54B4A5B2D2E21_il2cpp_TypeInfo_var,
                String_t *, Enemy *, String_GetHashCode_m099E57D4793F230D1A9749F3EC0D2E24075A1487(key, NULL),
                String_Equals_m5B82B4D3A00395C71590EEF924F0EDCD094F4AE4(e->___key_2, key, NULL),
                Dictionary_2_Initialize_mE84461613973C7AF727941DA439F69E753FB62DD,
                Dictionary_2_Resize_mEBBC57EDD4AA20958903357FC70CD122E3327D4A,
                Dictionary_2_TryInsert_m60300B6FEBCC595AE23828849914DEC2FF4D57B8,
                Dictionary_2__ctor_mFB130F0DF00C03B1E103CEA743E426A65757AAD4)

DICTIONARY_BODY(DictionaryIF, EntryIF, EntryIFArray, EntryU5BU5D_tF1E4C5A8F0D5B6E4D3A2C1B0A9F8E7D6C5B4A392_il2cpp_TypeInfo_var,
                int32_t, float, key * 2654435761u, e->___key_2 == key,
                Dictionary_2_Initialize_mD2AF7B5358C3C451743341BA288C6C49839C57C7,
                Dictionary_2_Resize_m331363DA109FE2BA4FAAF3347EC4EAEF9219F333,
                Dictionary_2_TryInsert_mE330E454E114BAC0961DAD027382CC522A764099,
                Dictionary_2__ctor_m50AF1BB916EC55A02D0F85F86EDA9A3612D556CC)

static IL2CPP_METHOD_ATTR int32_t Dictionary_2_FindEntry_mDF53FBEB62D0B7577BB0A34DF27BCF6DA19EF1DE(DictionarySE *__this, String_t *key, const RuntimeMethod *)
{
    if (__this->___buckets_0 == NULL)
        return -1;
    int32_t hashCode = String_GetHashCode_m099E57D4793F230D1A9749F3EC0D2E24075A1487(key, NULL) & 0x7FFFFFFF;
    int32_t bucket = hashCode % (int32_t)__this->___buckets_0->max_length;
    for (int32_t i = __this->___buckets_0->GetAt(bucket); i >= 0; i = __this->___entries_1->GetAt(i).___next_1)
    {
        EntrySE *e = __this->___entries_1->GetAddressAt(i);
        if (e->___hashCode_0 == hashCode && String_Equals_m5B82B4D3A00395C71590EEF924F0EDCD094F4AE4(e->___key_2, key, NULL))
            return i;
    }
    return -1;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Dictionary_2_TryGetValue_mE80373356C44C1DDEAC6A74850531081C82D466F(DictionarySE *__this, String_t *key, Enemy **value, const RuntimeMethod *)
{
    int32_t i = Dictionary_2_FindEntry_mDF53FBEB62D0B7577BB0A34DF27BCF6DA19EF1DE(__this, key, NULL);
    *value = i >= 0 ? __this->___entries_1->GetAt(i).___value_3 : NULL;
    return i >= 0;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Dictionary_2_Remove_mDD3D5ED146EFE2733359E787BD63ACD142EF30F7(DictionarySE *__this, String_t *key, const RuntimeMethod *)
{
    if (__this->___buckets_0 == NULL)
        return false;
    int32_t hashCode = String_GetHashCode_m099E57D4793F230D1A9749F3EC0D2E24075A1487(key, NULL) & 0x7FFFFFFF;
    int32_t bucket = hashCode % (int32_t)__this->___buckets_0->max_length;
    for (int32_t last = -1, i = __this->___buckets_0->GetAt(bucket); i >= 0; last = i, i = __this->___entries_1->GetAt(i).___next_1)
    {
        EntrySE *e = __this->___entries_1->GetAddressAt(i);
        if (e->___hashCode_0 == hashCode && String_Equals_m5B82B4D3A00395C71590EEF924F0EDCD094F4AE4(e->___key_2, key, NULL))
        {
            if (last < 0)
                __this->___buckets_0->SetAt(bucket, e->___next_1);
            else
                __this->___entries_1->GetAddressAt(last)->___next_1 = e->___next_1;
            e->___hashCode_0 = -1;
            e->___next_1 = __this->___freeList_4;
            e->___key_2 = NULL;
            e->___value_3 = NULL;
            __this->___freeList_4 = i;
            __this->___freeCount_5++;
            __this->___version_3++;
            return true;
        }
    }
    return false;
}

// ----------------------------------------------------------------------------- List<T>
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void List_1__ctor_m2CDCFFCE86F942B1C1D7C606035758E95A35BEA6_gshared(List_1_tShared *__this, const RuntimeMethod *)
{
    __this->____items_1 = NULL;  // .NET shares one static empty array; no allocation either way
}

static IL2CPP_METHOD_ATTR void List_1_set_Capacity_m6CD40DB87D630938F6E44B310B9F69C79679ABA6_gshared(List_1_tShared *__this, int32_t value, const RuntimeMethod *method)
{
    ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918 *newItems =
        (ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918 *)SZArrayNew(IL2CPP_RGCTX_DATA(method, 0), (uint32_t)value);
    if (__this->____size_2 > 0)
        memcpy(newItems->GetAddressAt(0), __this->____items_1->GetAddressAt(0), sizeof(void *) * (size_t)__this->____size_2);
    __this->____items_1 = newItems;
}

static IL2CPP_METHOD_ATTR void List_1_AddWithResize_m05CEE3D0BFB35CAFA81B918ED6CE3AEC1D345162_gshared(List_1_tShared *__this, RuntimeObject *item, const RuntimeMethod *method)
{
    int32_t size = __this->____size_2;
    int32_t capacity = __this->____items_1 ? (int32_t)__this->____items_1->max_length : 0;
    List_1_set_Capacity_m6CD40DB87D630938F6E44B310B9F69C79679ABA6_gshared(__this, capacity == 0 ? 4 : 2 * capacity, method);
    __this->____size_2 = size + 1;
    __this->____items_1->SetAt((il2cpp_array_size_t)size, item);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void List_1_Add_mBDC56B40416C27AB6A839D626037126964E42A7C_gshared(List_1_tShared *__this, RuntimeObject *item, const RuntimeMethod *method)
{
    __this->____version_3++;
    int32_t size = __this->____size_2;
    if (__this->____items_1 && (uint32_t)size < __this->____items_1->max_length)
    {
        __this->____size_2 = size + 1;
        __this->____items_1->SetAt((il2cpp_array_size_t)size, item);
        return;
    }
    List_1_AddWithResize_m05CEE3D0BFB35CAFA81B918ED6CE3AEC1D345162_gshared(__this, item, method);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void List_1_Clear_m80EAD43E0DB06F329D226DF7B2CFC66AF75724EA_gshared(List_1_tShared *__this, const RuntimeMethod *)
{
    if (__this->____size_2 > 0)
        memset(__this->____items_1->GetAddressAt(0), 0, sizeof(void *) * (size_t)__this->____size_2);
    __this->____size_2 = 0;
    __this->____version_3++;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void List_1_RemoveAt_m1D660EE250618D2008B26F8FC99B181C2B60708F_gshared(List_1_tShared *__this, int32_t index, const RuntimeMethod *)
{
    int32_t size = --__this->____size_2;
    if (index < size)
        memmove(__this->____items_1->GetAddressAt(index), __this->____items_1->GetAddressAt(index + 1), sizeof(void *) * (size_t)(size - index));
    __this->____items_1->SetAt((il2cpp_array_size_t)size, NULL);
    __this->____version_3++;
}

#define LIST_VALUE_BODY(List, T, ArrayT, ArrayClass, ADD, SET_CAPACITY)                                                \
    static IL2CPP_METHOD_ATTR void SET_CAPACITY(List *__this, int32_t value, const RuntimeMethod *)                     \
    {                                                                                                                   \
        ArrayT *newItems = (ArrayT *)SZArrayNew(ArrayClass, (uint32_t)value);                                           \
        if (__this->____size_2 > 0)                                                                                     \
            memcpy(newItems->GetAddressAt(0), __this->____items_1->GetAddressAt(0), sizeof(T) * (size_t)__this->____size_2); \
        __this->____items_1 = newItems;                                                                                 \
    }                                                                                                                   \
    IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void ADD(List *__this, T item, const RuntimeMethod *)                            \
    {                                                                                                                   \
        __this->____version_3++;                                                                                        \
        int32_t size = __this->____size_2;                                                                              \
        int32_t capacity = __this->____items_1 ? (int32_t)__this->____items_1->max_length : 0;                          \
        if (size == capacity)                                                                                           \
            SET_CAPACITY(__this, capacity == 0 ? 4 : 2 * capacity, NULL);                                               \
        __this->____size_2 = size + 1;                                                                                  \
        __this->____items_1->SetAt((il2cpp_array_size_t)size, item);                                                    \
    }

LIST_VALUE_BODY(List_1_t8E4A6A6D628AAA11D1C2C6BFD691FEABE78D82C0, int32_t, Int32Array,
                Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32_il2cpp_TypeInfo_var,
                List_1_Add_mAF3E9356BD863CF81F0109A22A53B41427639F8B, List_1_set_Capacity_m4E1BA52BACC94B7BBABFCFBA7B66A37DC1D46893)
LIST_VALUE_BODY(List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7, Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B,
                Vector3U5BU5D_t5FB88EAA33E46838BDC2ABDAEA3E8727491CB9E4, Vector3U5BU5D_t5FB88EAA33E46838BDC2ABDAEA3E8727491CB9E4_il2cpp_TypeInfo_var,
                List_1_Add_mA6CF7A124281A5B40A00FA5BBCEF560CE5E73F84, List_1_set_Capacity_m20AE562131215AC52598371B613766763C3A610A)
LIST_VALUE_BODY(List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36, PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD,
                PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B, PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B_il2cpp_TypeInfo_var,
                List_1_Add_mFA6339F0158484F02B98839A3D663EFE48E285A1, List_1_set_Capacity_m47CFB5DEAF87B127FD7AE181733031EE0B57BF5E)

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B *List_1_ToArray_m36353E443A5BE0586E24BB48350AFC273A6B18E2(List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36 *__this, const RuntimeMethod *)
{
    PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B *array = (PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B *)
        SZArrayNew(PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B_il2cpp_TypeInfo_var, (uint32_t)__this->____size_2);
    if (__this->____size_2 > 0)
        memcpy(array->GetAddressAt(0), __this->____items_1->GetAddressAt(0), sizeof(PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD) * (size_t)__this->____size_2);
    return array;
}
