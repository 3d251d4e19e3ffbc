// Assembly-CSharp.cpp — the game's main-thread scripts as IL2CPP would emit them: GameManager
// (MonoBehaviour Update/LateUpdate), enemies driven by a behaviour tree, bullets, a HUD, level
// loading spikes and a score board. Deterministic: every choice comes from UnityEngine.Random,
// which the player loop seeds from (seed, frame).
#include "Il2CppMethods.h"
#include "gc/GarbageCollector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 GameManager;
typedef EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642 EnemyManager;
typedef Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 Enemy;
typedef BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F BTNode;
typedef HudText_t30DA23E801246155BC498E50DF06ABF012778688 HudText;
typedef Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3 Bullet;
typedef DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3 DamageEvent;
typedef DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7 DamageEventArray;
typedef U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B Closure7;
typedef U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE Closure12;
typedef Action_tD724E142E61502FC949815CB94724BFAE4F97EF7 Action;
typedef Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704 Func2;

static const char *const kLiteralText[kLit_Count] = {"Score: ", "{0} fps", "Enemy_", " hp:", "Level_", "prop_",
                                                     "Player", "n", "path:", "Wave {0}", " => "};
static String_t **s_Literals;  // fixed GC memory: a root, like IL2CPP's interned literal table

String_t *_stringLiteral(int index)
{
    return s_Literals[index];
}

static IL2CPP_MANAGED_FORCE_INLINE GameManager_StaticFields *GameManager_Statics()
{
    return (GameManager_StaticFields *)il2cpp_codegen_static_fields_for(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114_il2cpp_TypeInfo_var);
}

static IL2CPP_MANAGED_FORCE_INLINE bool Enemy_get_IsAlive_m299BCD88A187B16DA0A8D0105E7E204A244166D4(Enemy *__this, const RuntimeMethod *)
{
    return __this->___health_2 > 0.0f;
}

static IL2CPP_MANAGED_FORCE_INLINE List_1_tShared *List_New(RuntimeClass *klass)
{
    List_1_tShared *list = (List_1_tShared *)il2cpp_codegen_object_new(klass);
    List_1__ctor_m2CDCFFCE86F942B1C1D7C606035758E95A35BEA6_gshared(list, NULL);
    return list;
}

static IL2CPP_MANAGED_FORCE_INLINE Enemy *List_Enemy_GetAt(List_1_tShared *list, int32_t i)
{
    return (Enemy *)list->____items_1->GetAt((il2cpp_array_size_t)i);
}

// ----------------------------------------------------------------------------- damage queue
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void EnemyManager_QueueDamage_m227432FBB54C5EDFB61F886496C23FDA075664AC(EnemyManager *__this, Enemy *source, float amount, const RuntimeMethod *)
{
    DamageEventArray *pending = __this->___pending_3;
    if (__this->___pendingCount_4 == (int32_t)pending->max_length)
    {
        DamageEventArray *grown = (DamageEventArray *)SZArrayNew(DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7_il2cpp_TypeInfo_var, (uint32_t)pending->max_length * 2);
        memcpy(grown->GetAddressAt(0), pending->GetAddressAt(0), sizeof(DamageEvent) * pending->max_length);
        __this->___pending_3 = pending = grown;
    }
    DamageEvent *e = pending->GetAddressAt((il2cpp_array_size_t)__this->___pendingCount_4++);
    e->___source_0 = source;
    e->___amount_1 = amount;
    e->___kind_2 = 1;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void EnemyManager_FlushDamage_mE1F4952AD52D3D8E721C40C381004DBCA26E07A3(EnemyManager *__this, const RuntimeMethod *)
{
    DamageEventArray *pending = __this->___pending_3;
    for (int32_t i = 0; i < __this->___pendingCount_4; ++i)
    {
        DamageEvent *e = pending->GetAddressAt((il2cpp_array_size_t)i);
        if (e->___source_0)
            e->___source_0->___kills_7 += e->___amount_1 > 10.0f ? 1 : 0;
        e->___source_0 = NULL;
    }
    __this->___pendingCount_4 = 0;
    if (pending->max_length > 64)  // shrink after a burst: the big array becomes garbage
        __this->___pending_3 = (DamageEventArray *)SZArrayNew(DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7_il2cpp_TypeInfo_var, 8);
}

// ----------------------------------------------------------------------------- closures
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void U3CU3Ec__DisplayClass7_0_U3CAttackU3Eb__0_m9628151951CAAE8E92D0B74D77F640951EEDD40F(Closure7 *__this, const RuntimeMethod *)
{
    Enemy *target = __this->___target_0;
    target->___health_2 -= __this->___amount_2;
    EnemyManager_QueueDamage_m227432FBB54C5EDFB61F886496C23FDA075664AC(__this->___U3CU3E4__this_1, target, __this->___amount_2, NULL);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool U3CU3Ec__DisplayClass12_0_U3CScanNeighborsU3Eb__0_m0509DD092907514A263B9543A2A6B4FCE30E305B(Closure12 *__this, Enemy *other, const RuntimeMethod *)
{
    if (other == __this->___self_0)
        return false;
    float dx = other->___position_1.___x_2 - __this->___self_0->___position_1.___x_2;
    float dz = other->___position_1.___z_4 - __this->___self_0->___position_1.___z_4;
    return dx * dx + dz * dz < __this->___radius_1 * __this->___radius_1;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool BTConditions_IsHealthy_m8E9F85E153A50AE14536B450FF732864BA1B204D(RuntimeObject *, Enemy *e, const RuntimeMethod *)
{
    return e->___health_2 > 20.0f || Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL) < 0.3f;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool BTConditions_HasTarget_m280DE308B85906A0B3464AA4016F6A82BC913ABA(RuntimeObject *, Enemy *e, const RuntimeMethod *)
{
    return e->___target_3 != NULL && Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL) < 0.5f;
}

// ----------------------------------------------------------------------------- enemy actions
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Enemy_Attack_m98F835A254F3B9371AA8801A9866A6DC21399C35(Enemy *__this, EnemyManager *manager, const RuntimeMethod *)
{
    Enemy *target = __this->___target_3;
    if (!target || !Enemy_get_IsAlive_m299BCD88A187B16DA0A8D0105E7E204A244166D4(target, NULL))
        return false;
    Closure7 *closure = (Closure7 *)il2cpp_codegen_object_new(U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B_il2cpp_TypeInfo_var);
    closure->___target_0 = target;
    closure->___U3CU3E4__this_1 = manager;
    closure->___amount_2 = 5.0f + 20.0f * Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL);
    Action *action = (Action *)il2cpp_codegen_object_new(Action_tD724E142E61502FC949815CB94724BFAE4F97EF7_il2cpp_TypeInfo_var);
    Action__ctor_mA91BDA9122C10A07588A1376426F482404945C96(action, (RuntimeObject *)closure, (intptr_t)&U3CU3Ec__DisplayClass7_0_U3CAttackU3Eb__0_m9628151951CAAE8E92D0B74D77F640951EEDD40F, NULL);
    Action_Invoke_m2479E3C16A1647C658C89ACF533D9826C1C2610E(action, NULL);
    return true;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Enemy_ScanNeighbors_m1F441FF590F1DA7DF12BC60E54F15E03F5AA0CA4(Enemy *__this, EnemyManager *manager, const RuntimeMethod *)
{
    Closure12 *closure = (Closure12 *)il2cpp_codegen_object_new(U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE_il2cpp_TypeInfo_var);
    closure->___self_0 = __this;
    closure->___radius_1 = 30.0f + 40.0f * Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL);
    Func2 *isNear = (Func2 *)il2cpp_codegen_object_new(Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704_il2cpp_TypeInfo_var);
    Func_2__ctor_m34C70241D580AEE15D30C4A3453A5D1F94E3A072(isNear, (RuntimeObject *)closure, (intptr_t)&U3CU3Ec__DisplayClass12_0_U3CScanNeighborsU3Eb__0_m0509DD092907514A263B9543A2A6B4FCE30E305B, NULL);

    List_1_tShared *neighbors = List_New(List_1_t3C8BDEFE1274D77F262F8D7CF8E19BA492AB21BD_il2cpp_TypeInfo_var);
    List_1_tShared *all = manager->___enemies_0;
    int32_t start = Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, all->____size_2, NULL);
    for (int32_t k = 0; k < 20 && k < all->____size_2; ++k)
    {
        Enemy *other = List_Enemy_GetAt(all, (start + k) % all->____size_2);
        if (Func_2_Invoke_m784D6C957FCE532F69F005C5509DFE368948F783(isNear, (RuntimeObject *)other, NULL))
            List_1_Add_mED13C558AF5817D997CFE85B3A1A34F27DCB89B7(neighbors, other, &List_1_Add_mE5B3CBB3A625606D9BC4337FEAAF1D66BCB6F96E_RuntimeMethod_var);
    }
    __this->___lastNeighbors_5 = neighbors;
    __this->___target_3 = neighbors->____size_2 ? List_Enemy_GetAt(neighbors, 0) : NULL;
    return neighbors->____size_2 > 0;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Enemy_UpdateLabel_m71CA5062D6BDBA3D3E5F0F9958D6A350D9600C2D(Enemy *__this, const RuntimeMethod *)
{
    int32_t hp = (int32_t)__this->___health_2;
    String_t *hpText = Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&hp, NULL);
    __this->___label_4 = String_Concat_m3C07CA0F3320C66FADAA95FBCB43BD65FF8A975A(__this->___name_0, _stringLiteral(kLit_Hp), hpText, NULL);
    if (Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 4, NULL) == 0)
    {
        int32_t kills = __this->___kills_7;  // boxed for string.Format, as C# does with an int argument
        RuntimeObject *boxed = Box(Int32_t366962207F750027D7847259F85318FB9DD8F3EE_il2cpp_TypeInfo_var, &kills);
        __this->___label_4 = String_Format_m4BF08EAB0F236F09F748EE468A121FAA0CF0DFDB(_stringLiteral(kLit_Status), boxed, NULL);
    }
    return true;
}

// ----------------------------------------------------------------------------- behaviour tree
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool BTNode_Evaluate_m09B597616777038D5AC6851697EE031BD2AB94D5(BTNode *__this, Enemy *enemy, EnemyManager *manager, const RuntimeMethod *);

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool BTNode_EvaluateSelector_mC247BE61B3599242F9B0C077EADC407D0470F4F5(BTNode *__this, Enemy *enemy, EnemyManager *manager, const RuntimeMethod *)
{
    for (il2cpp_array_size_t i = 0; i < __this->___children_0->max_length; ++i)
        if (BTNode_Evaluate_m09B597616777038D5AC6851697EE031BD2AB94D5(__this->___children_0->GetAt(i), enemy, manager, NULL))
            return true;
    return false;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool BTNode_EvaluateSequence_m20A53454CB23DEB98D451AC9B8B070BD92933888(BTNode *__this, Enemy *enemy, EnemyManager *manager, const RuntimeMethod *)
{
    for (il2cpp_array_size_t i = 0; i < __this->___children_0->max_length; ++i)
        if (!BTNode_Evaluate_m09B597616777038D5AC6851697EE031BD2AB94D5(__this->___children_0->GetAt(i), enemy, manager, NULL))
            return false;
    return true;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool BTNode_RunAction_m9B4815E888F03E3F1A8D9F1685CC0169A25832D1(BTNode *__this, Enemy *enemy, EnemyManager *manager, const RuntimeMethod *)
{
    switch (__this->___action_3)
    {
        case 0: return Enemy_Attack_m98F835A254F3B9371AA8801A9866A6DC21399C35(enemy, manager, NULL);
        case 1: return Enemy_ScanNeighbors_m1F441FF590F1DA7DF12BC60E54F15E03F5AA0CA4(enemy, manager, NULL);
        default: return Enemy_UpdateLabel_m71CA5062D6BDBA3D3E5F0F9958D6A350D9600C2D(enemy, NULL);
    }
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool BTNode_Evaluate_m09B597616777038D5AC6851697EE031BD2AB94D5(BTNode *__this, Enemy *enemy, EnemyManager *manager, const RuntimeMethod *)
{
    if (__this->___condition_1 && !Func_2_Invoke_m784D6C957FCE532F69F005C5509DFE368948F783(__this->___condition_1, (RuntimeObject *)enemy, NULL))
        return false;
    switch (__this->___kind_2)
    {
        case 0: return BTNode_EvaluateSelector_mC247BE61B3599242F9B0C077EADC407D0470F4F5(__this, enemy, manager, NULL);
        case 1: return BTNode_EvaluateSequence_m20A53454CB23DEB98D451AC9B8B070BD92933888(__this, enemy, manager, NULL);
        default: return BTNode_RunAction_m9B4815E888F03E3F1A8D9F1685CC0169A25832D1(__this, enemy, manager, NULL);
    }
}

static BTNode *BTNode_New(int32_t kind, int32_t action, intptr_t condition, BTNode *c0, BTNode *c1)
{
    BTNode *node = (BTNode *)il2cpp_codegen_object_new(BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F_il2cpp_TypeInfo_var);
    node->___kind_2 = kind;
    node->___action_3 = action;
    if (condition)
    {
        Func2 *f = (Func2 *)il2cpp_codegen_object_new(Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704_il2cpp_TypeInfo_var);
        Func_2__ctor_m34C70241D580AEE15D30C4A3453A5D1F94E3A072(f, NULL, condition, NULL);
        node->___condition_1 = f;
    }
    uint32_t n = (c0 ? 1 : 0) + (c1 ? 1 : 0);
    node->___children_0 = (BTNodeU5BU5D_t8B0E6A7C5D4F3E2A1B0C9D8E7F6A5B4C3D2E1F00 *)SZArrayNew(BTNodeU5BU5D_t8B0E6A7C5D4F3E2A1B0C9D8E7F6A5B4C3D2E1F00_il2cpp_TypeInfo_var, n);
    if (c0)
        node->___children_0->SetAt(0, c0);
    if (c1)
        node->___children_0->SetAt(1, c1);
    return node;
}

// selector( sequence[IsHealthy]( selector( sequence[HasTarget](attack), scan ) ), label )
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR BTNode *EnemyManager_BuildBehaviour_mDCE704B6FD7E2E1DEA4FED4075FFE44F651B46D3(const RuntimeMethod *)
{
    BTNode *attack = BTNode_New(2, 0, 0, NULL, NULL);
    BTNode *scan = BTNode_New(2, 1, 0, NULL, NULL);
    BTNode *label = BTNode_New(2, 2, 0, NULL, NULL);
    BTNode *engage = BTNode_New(1, 0, (intptr_t)&BTConditions_HasTarget_m280DE308B85906A0B3464AA4016F6A82BC913ABA, attack, NULL);
    BTNode *combat = BTNode_New(0, 0, 0, engage, scan);
    BTNode *healthy = BTNode_New(1, 0, (intptr_t)&BTConditions_IsHealthy_m8E9F85E153A50AE14536B450FF732864BA1B204D, combat, NULL);
    return BTNode_New(0, 0, 0, healthy, label);
}

#include "Assembly-CSharp_World.inl"
