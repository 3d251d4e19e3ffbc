// Il2CppMethods.h — declarations of the generated methods called across generated files (IL2CPP
// puts these at the top of each .cpp that calls them). Names: Type_Method_m<40 hex>.
#pragma once

#include "Il2CppTypes.h"

typedef String_t String;  // only to shorten the declarations below

// ---- mscorlib: System.String, System.Text.StringBuilder, System.Object
IL2CPP_EXTERN_C String *String_FastAllocateString_mDDEBC88E422CAEE9921B25A80455F910619ADFC1(int32_t length, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(int32_t *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *Single_ToString_mA08ED0724975D182F6EEB77AF88E53D142CCB3CD(float *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(String *str0, String *str1, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *String_Concat_m3C07CA0F3320C66FADAA95FBCB43BD65FF8A975A(String *str0, String *str1, String *str2, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *String_Format_m4BF08EAB0F236F09F748EE468A121FAA0CF0DFDB(String *format, RuntimeObject *arg0, const RuntimeMethod *method);
IL2CPP_EXTERN_C int32_t String_GetHashCode_m099E57D4793F230D1A9749F3EC0D2E24075A1487(String *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C bool String_Equals_m5B82B4D3A00395C71590EEF924F0EDCD094F4AE4(String *a, String *b, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *Object_ToString_mFE363D287CC3B34B96AB7D585F8250A9F7286C79(RuntimeObject *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C void StringBuilder__ctor_mD87C1DD7B7F488994F1971D39D0F4EACFEBB4598(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 *__this, int32_t capacity, const RuntimeMethod *method);
IL2CPP_EXTERN_C StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 *StringBuilder_Append_m64AFC71706623B3B48DD68C80CBBABF473D5ABDF(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 *__this, String *value, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *StringBuilder_ToString_m0748BDD239F4ACA25AD163183EFB2D33BD394ACC(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 *__this, const RuntimeMethod *method);

// ---- List<T> for reference types: one shared body, inline per-instantiation wrappers
IL2CPP_EXTERN_C void List_1__ctor_m2CDCFFCE86F942B1C1D7C606035758E95A35BEA6_gshared(List_1_tShared *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C void List_1_Add_mBDC56B40416C27AB6A839D626037126964E42A7C_gshared(List_1_tShared *__this, RuntimeObject *item, const RuntimeMethod *method);
IL2CPP_EXTERN_C void List_1_Clear_m80EAD43E0DB06F329D226DF7B2CFC66AF75724EA_gshared(List_1_tShared *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C void List_1_RemoveAt_m1D660EE250618D2008B26F8FC99B181C2B60708F_gshared(List_1_tShared *__this, int32_t index, const RuntimeMethod *method);

IL2CPP_MANAGED_FORCE_INLINE void List_1_Add_mED13C558AF5817D997CFE85B3A1A34F27DCB89B7(List_1_tShared *__this, Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *item, const RuntimeMethod *method)
{
    List_1_Add_mBDC56B40416C27AB6A839D626037126964E42A7C_gshared(__this, (RuntimeObject *)item, method);
}
IL2CPP_MANAGED_FORCE_INLINE void List_1_Add_m03DF0FC291BDFEF80442FCE32C5057C788AF2C04(List_1_tShared *__this, Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3 *item, const RuntimeMethod *method)
{
    List_1_Add_mBDC56B40416C27AB6A839D626037126964E42A7C_gshared(__this, (RuntimeObject *)item, method);
}
IL2CPP_MANAGED_FORCE_INLINE void List_1_Add_mAC2CA3541BE2C904B4A4060D86F8E43A1D2F97A9(List_1_tShared *__this, ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0 *item, const RuntimeMethod *method)
{
    List_1_Add_mBDC56B40416C27AB6A839D626037126964E42A7C_gshared(__this, (RuntimeObject *)item, method);
}

// ---- List<T> for value types: one body per instantiation
IL2CPP_EXTERN_C void List_1_Add_mAF3E9356BD863CF81F0109A22A53B41427639F8B(List_1_t8E4A6A6D628AAA11D1C2C6BFD691FEABE78D82C0 *__this, int32_t item, const RuntimeMethod *method);
IL2CPP_EXTERN_C void List_1_Add_mA6CF7A124281A5B40A00FA5BBCEF560CE5E73F84(List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7 *__this, Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B item, const RuntimeMethod *method);
IL2CPP_EXTERN_C void List_1_Add_mFA6339F0158484F02B98839A3D663EFE48E285A1(List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36 *__this, PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD item, const RuntimeMethod *method);
IL2CPP_EXTERN_C PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B *List_1_ToArray_m36353E443A5BE0586E24BB48350AFC273A6B18E2(List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36 *__this, const RuntimeMethod *method);

// ---- Dictionary<string, Enemy> and Dictionary<int, float>
IL2CPP_EXTERN_C void Dictionary_2__ctor_mFB130F0DF00C03B1E103CEA743E426A65757AAD4(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A *__this, int32_t capacity, const RuntimeMethod *method);
IL2CPP_EXTERN_C bool Dictionary_2_TryInsert_m60300B6FEBCC595AE23828849914DEC2FF4D57B8(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A *__this, String *key, Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *value, const RuntimeMethod *method);
IL2CPP_EXTERN_C bool Dictionary_2_TryGetValue_mE80373356C44C1DDEAC6A74850531081C82D466F(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A *__this, String *key, Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 **value, const RuntimeMethod *method);
IL2CPP_EXTERN_C bool Dictionary_2_Remove_mDD3D5ED146EFE2733359E787BD63ACD142EF30F7(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A *__this, String *key, const RuntimeMethod *method);
IL2CPP_EXTERN_C void Dictionary_2__ctor_m50AF1BB916EC55A02D0F85F86EDA9A3612D556CC(Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850 *__this, int32_t capacity, const RuntimeMethod *method);
IL2CPP_EXTERN_C bool Dictionary_2_TryInsert_mE330E454E114BAC0961DAD027382CC522A764099(Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850 *__this, int32_t key, float value, const RuntimeMethod *method);

// ---- delegates
IL2CPP_EXTERN_C void Action__ctor_mA91BDA9122C10A07588A1376426F482404945C96(Action_tD724E142E61502FC949815CB94724BFAE4F97EF7 *__this, RuntimeObject *object, intptr_t method_ptr, const RuntimeMethod *method);
IL2CPP_EXTERN_C void Action_Invoke_m2479E3C16A1647C658C89ACF533D9826C1C2610E(Action_tD724E142E61502FC949815CB94724BFAE4F97EF7 *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C void Func_2__ctor_m34C70241D580AEE15D30C4A3453A5D1F94E3A072(Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704 *__this, RuntimeObject *object, intptr_t method_ptr, const RuntimeMethod *method);
IL2CPP_EXTERN_C bool Func_2_Invoke_m784D6C957FCE532F69F005C5509DFE368948F783(Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704 *__this, RuntimeObject *arg, const RuntimeMethod *method);
IL2CPP_EXTERN_C String *KeyValuePair_2_ToString_m80E15A76EC86724B5E74DA9B9C23E12E5DF5A218(KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B *__this, const RuntimeMethod *method);

// ---- UnityEngine.CoreModule: UnityEngine.Random (deterministic per frame and job)
IL2CPP_EXTERN_C void Random_InitState_m3C38A100F92862D369340BB0713D6F21FEA0F7C3(int64_t seed, const RuntimeMethod *method);
IL2CPP_EXTERN_C int32_t Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(int32_t minInclusive, int32_t maxExclusive, const RuntimeMethod *method);
IL2CPP_EXTERN_C float Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(const RuntimeMethod *method);

// ---- Assembly-CSharp: entry points the player loop calls
IL2CPP_EXTERN_C void GameManager_Awake_m5FF135DB1CCA08CC0769600D71A6586ECFECA7B4(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 *__this, int32_t jobs, const RuntimeMethod *method);
IL2CPP_EXTERN_C void GameManager_Update_m18DDFC18F60AE0300B48D6F32684AF6CECB810F9(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C void GameManager_LateUpdate_m7EC26DEDDF7233BB7D453D54461C3818BDAE7A2F(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 *__this, const RuntimeMethod *method);
IL2CPP_EXTERN_C void JobDispatcher_Execute_m30A7A799EC108B2A3A603D3B232B804768A74D01(int32_t jobIndex, int32_t frame, const RuntimeMethod *method);
IL2CPP_EXTERN_C int64_t EnemyManager_Validate_m6034A303F9C261F8D6B77D4C23B1E8A10C9CDD03(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642 *__this, const RuntimeMethod *method);

// ---- Assembly-CSharp1 (jobs)
IL2CPP_EXTERN_C RuntimeObject *ParticleJob_Execute_mF62ECD73317A1D9D9DA8D76C6FB4DF5A93C5B02B(int32_t count, const RuntimeMethod *method);
IL2CPP_EXTERN_C RuntimeObject *PathfindJob_Execute_m0CAC15A8753AAD8F7B04A600181C896CD374BDAC(int32_t jobIndex, const RuntimeMethod *method);
IL2CPP_EXTERN_C RuntimeObject *StatsJob_Execute_m3F0E2BE4C390E5D678A468EDEDD563867C415629(int32_t samples, const RuntimeMethod *method);
IL2CPP_EXTERN_C void PathRequest_Complete_mD322E176819D215CB4F04F9D7E50C7DB8D4D7B49(PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59 *__this, const RuntimeMethod *method);

// String literals: IL2CPP interns them at startup; the sample makes them once in Awake and
// keeps them in a fixed root table (see Assembly-CSharp.cpp).
String *_stringLiteral(int index);
enum
{
    kLit_Score, kLit_Fps, kLit_Enemy, kLit_Hp, kLit_Level, kLit_Prop, kLit_Player, kLit_Node, kLit_Path,
    kLit_Status, kLit_Arrow, kLit_Count
};
