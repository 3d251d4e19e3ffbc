// Il2CppTypeDefinitions.cpp — the type table: what global-metadata.dat and the generated
// Il2CppMetadataRegistration tell a real libil2cpp about each class (name, namespace, image,
// instance size, where the references are, static field storage).
#include "Il2CppTypes.h"

#pragma GCC diagnostic ignored "-Winvalid-offsetof"

RuntimeClass *RuntimeObject_il2cpp_TypeInfo_var, *String_t_il2cpp_TypeInfo_var,
    *Char_tCF439D983D8E482F262C0F13CAE379534B691CDC_il2cpp_TypeInfo_var,
    *Int32_t366962207F750027D7847259F85318FB9DD8F3EE_il2cpp_TypeInfo_var,
    *Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733_il2cpp_TypeInfo_var,
    *Byte_tF3453E2A3CF1764613A2CE3F42CA194BF67A06F5_il2cpp_TypeInfo_var,
    *Boolean_t09A6377A1BE2E1FB5B29B7E5DA0D7F2F8D1D2A51_il2cpp_TypeInfo_var,
    *Pathfinder_t6D5A1C4E2B8F3A9D7C0E1F2A3B4C5D6E7F8A9B0C_il2cpp_TypeInfo_var,
    *StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7_il2cpp_TypeInfo_var,
    *Action_tD724E142E61502FC949815CB94724BFAE4F97EF7_il2cpp_TypeInfo_var,
    *Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704_il2cpp_TypeInfo_var,
    *Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B_il2cpp_TypeInfo_var,
    *PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD_il2cpp_TypeInfo_var,
    *DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3_il2cpp_TypeInfo_var,
    *Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB_il2cpp_TypeInfo_var,
    *Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431_il2cpp_TypeInfo_var,
    *KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B_il2cpp_TypeInfo_var,
    *List_1_t3C8BDEFE1274D77F262F8D7CF8E19BA492AB21BD_il2cpp_TypeInfo_var,
    *List_1_t0F1C3B6B4E12A5A9C9F2F6DB8C7A8E4B0D1C2E3F_il2cpp_TypeInfo_var,
    *List_1_t5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B_il2cpp_TypeInfo_var,
    *List_1_t8E4A6A6D628AAA11D1C2C6BFD691FEABE78D82C0_il2cpp_TypeInfo_var,
    *List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7_il2cpp_TypeInfo_var,
    *List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36_il2cpp_TypeInfo_var,
    *Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A_il2cpp_TypeInfo_var,
    *Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850_il2cpp_TypeInfo_var,
    *GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114_il2cpp_TypeInfo_var,
    *EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642_il2cpp_TypeInfo_var,
    *Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8_il2cpp_TypeInfo_var,
    *Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3_il2cpp_TypeInfo_var,
    *BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F_il2cpp_TypeInfo_var,
    *HudText_t30DA23E801246155BC498E50DF06ABF012778688_il2cpp_TypeInfo_var,
    *ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0_il2cpp_TypeInfo_var,
    *LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA_il2cpp_TypeInfo_var,
    *ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099_il2cpp_TypeInfo_var,
    *PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59_il2cpp_TypeInfo_var,
    *U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B_il2cpp_TypeInfo_var,
    *U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE_il2cpp_TypeInfo_var,
    *U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80_il2cpp_TypeInfo_var;

RuntimeClass *CharU5BU5D_t799905F6FDC7A8BA5E2E0C2E5D2C5A2C1E0C2E3A_il2cpp_TypeInfo_var,
    *Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32_il2cpp_TypeInfo_var,
    *SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C_il2cpp_TypeInfo_var,
    *ByteU5BU5D_tA6237BF417AE52AD70CFB4EF24A7A82613DF9031_il2cpp_TypeInfo_var,
    *ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918_il2cpp_TypeInfo_var,
    *StringU5BU5D_t7674CD946EC0CE7B3AE0BE70E6EE85F2ECD9F248_il2cpp_TypeInfo_var,
    *EnemyU5BU5D_t3B7F7E5E36C1E2B8D1C5A69F8C2D9E0A1B2C3D4E_il2cpp_TypeInfo_var,
    *BulletU5BU5D_t6E1C9B2A8D7F5E4C3B2A1F0E9D8C7B6A5F4E3D2C_il2cpp_TypeInfo_var,
    *ScoreEntryU5BU5D_t2D4F6A8C0E1B3D5F7A9C1E3B5D7F9A1C3E5B7D9F_il2cpp_TypeInfo_var,
    *Vector3U5BU5D_t5FB88EAA33E46838BDC2ABDAEA3E8727491CB9E4_il2cpp_TypeInfo_var,
    *PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B_il2cpp_TypeInfo_var,
    *DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7_il2cpp_TypeInfo_var,
    *EntryU5BU5D_t4E19AD3A5A4D6BCDE53F3C3C35C54B4A5B2D2E21_il2cpp_TypeInfo_var,
    *EntryU5BU5D_tF1E4C5A8F0D5B6E4D3A2C1B0A9F8E7D6C5B4A392_il2cpp_TypeInfo_var,
    *BTNodeU5BU5D_t8B0E6A7C5D4F3E2A1B0C9D8E7F6A5B4C3D2E1F00_il2cpp_TypeInfo_var;

const RuntimeMethod List_1_Add_mE5B3CBB3A625606D9BC4337FEAAF1D66BCB6F96E_RuntimeMethod_var = {
    "Add", &EnemyU5BU5D_t3B7F7E5E36C1E2B8D1C5A69F8C2D9E0A1B2C3D4E_il2cpp_TypeInfo_var};
const RuntimeMethod List_1_Add_m2F1E8A6B3C5D7E9F1A2B4C6D8E0F1A3B5C7D9E0F_RuntimeMethod_var = {
    "Add", &BulletU5BU5D_t6E1C9B2A8D7F5E4C3B2A1F0E9D8C7B6A5F4E3D2C_il2cpp_TypeInfo_var};
const RuntimeMethod List_1_Add_m7A9C1E3B5D7F9A1C3E5B7D9F1A3C5E7B9D1F3A5C_RuntimeMethod_var = {
    "Add", &ScoreEntryU5BU5D_t2D4F6A8C0E1B3D5F7A9C1E3B5D7F9A1C3E5B7D9F_il2cpp_TypeInfo_var};

namespace
{
    const Il2CppImage s_Corlib = {"mscorlib.dll", "mscorlib"};
    const Il2CppImage s_CoreModule = {"UnityEngine.CoreModule.dll", "UnityEngine.CoreModule"};
    const Il2CppImage s_AssemblyCSharp = {"Assembly-CSharp.dll", "Assembly-CSharp"};

    const uint32_t kHeader = sizeof(RuntimeObject);
#define OFF(T, f) (uint32_t)offsetof(T, f)
#define VOFF(T, f) (kHeader + (uint32_t)offsetof(T, f))
#define REFS(name, ...) const uint32_t name[] = {__VA_ARGS__}

    REFS(kStringBuilder, OFF(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7, ___m_ChunkChars_0),
         OFF(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7, ___m_ChunkPrevious_1));
    REFS(kDelegate, OFF(MulticastDelegate_t, ___m_target_2), OFF(MulticastDelegate_t, ___method_info_7),
         OFF(MulticastDelegate_t, ___original_method_info_8), OFF(MulticastDelegate_t, ___data_9),
         OFF(MulticastDelegate_t, ___delegates_11));
    REFS(kPathNode, VOFF(PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD, ___label_4));
    REFS(kDamageEvent, VOFF(DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3, ___source_0));
    REFS(kEntrySE, VOFF(Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB, ___key_2),
         VOFF(Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB, ___value_3));
    REFS(kList, OFF(List_1_tShared, ____items_1), OFF(List_1_tShared, ____syncRoot_4));
    REFS(kDictionary, OFF(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A, ___buckets_0),
         OFF(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A, ___entries_1),
         OFF(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A, ___comparer_6),
         OFF(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A, ___keys_7),
         OFF(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A, ___values_8),
         OFF(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A, ____syncRoot_9));
    REFS(kGameManager, OFF(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114, ___enemyManager_0),
         OFF(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114, ___hud_1),
         OFF(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114, ___bullets_2),
         OFF(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114, ___scores_3),
         OFF(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114, ___level_4));
    REFS(kEnemyManager, OFF(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642, ___enemies_0),
         OFF(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642, ___registry_1),
         OFF(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642, ___behaviour_2),
         OFF(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642, ___pending_3));
    REFS(kEnemy, OFF(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8, ___name_0),
         OFF(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8, ___target_3),
         OFF(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8, ___label_4),
         OFF(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8, ___lastNeighbors_5));
    REFS(kBTNode, OFF(BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F, ___children_0),
         OFF(BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F, ___condition_1));
    REFS(kHud, OFF(HudText_t30DA23E801246155BC498E50DF06ABF012778688, ___scoreText_0),
         OFF(HudText_t30DA23E801246155BC498E50DF06ABF012778688, ___fpsText_1),
         OFF(HudText_t30DA23E801246155BC498E50DF06ABF012778688, ___statusText_2));
    REFS(kScoreEntry, OFF(ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0, ___playerName_0));
    // LevelData: the name, three arrays and 28 layer slots, the last reference at word 33.
    uint32_t kLevelData[32];
    REFS(kParticle, OFF(ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099, ___positions_0),
         OFF(ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099, ___velocities_1),
         OFF(ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099, ___trail_2));
    REFS(kPathRequest, OFF(PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59, ___path_0),
         OFF(PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59, ___debugName_1));
    REFS(kClosure7, OFF(U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B, ___target_0),
         OFF(U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B, ___U3CU3E4__this_1));
    REFS(kClosure12, OFF(U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE, ___self_0));
    REFS(kFindPath, OFF(U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80, ___U3CU3E2__current_2) + 16,
         OFF(U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80, ___request_3));

#define N(a) a, (uint32_t)(sizeof(a) / sizeof(a[0]))
#define NONE NULL, 0
    const char *const kGeneric = "System.Collections.Generic";

    const Il2CppTypeDefinitionInfo s_Types[] = {
        {&s_Corlib, "System", "Object", kHeader, NONE, 0, false, &RuntimeObject_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "String", sizeof(String_t), NONE, 0, false, &String_t_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "Char", kHeader + 2, NONE, 0, true, &Char_tCF439D983D8E482F262C0F13CAE379534B691CDC_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "Int32", kHeader + 4, NONE, 0, true, &Int32_t366962207F750027D7847259F85318FB9DD8F3EE_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "Single", kHeader + 4, NONE, 0, true, &Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "Byte", kHeader + 1, NONE, 0, true, &Byte_tF3453E2A3CF1764613A2CE3F42CA194BF67A06F5_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "Boolean", kHeader + 1, NONE, 0, true, &Boolean_t09A6377A1BE2E1FB5B29B7E5DA0D7F2F8D1D2A51_il2cpp_TypeInfo_var},
        {&s_Corlib, "System.Text", "StringBuilder", sizeof(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7), N(kStringBuilder), 0, false, &StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "Action", sizeof(MulticastDelegate_t), N(kDelegate), 0, false, &Action_tD724E142E61502FC949815CB94724BFAE4F97EF7_il2cpp_TypeInfo_var},
        {&s_Corlib, "System", "Func`2", sizeof(MulticastDelegate_t), N(kDelegate), 0, false, &Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704_il2cpp_TypeInfo_var},
        {&s_CoreModule, "UnityEngine", "Vector3", kHeader + 12, NONE, 0, true, &Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "PathNode", kHeader + sizeof(PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD), N(kPathNode), 0, true, &PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "DamageEvent", kHeader + sizeof(DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3), N(kDamageEvent), 0, true, &DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3_il2cpp_TypeInfo_var},
        {&s_Corlib, "", "Entry", kHeader + sizeof(Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB), N(kEntrySE), 0, true, &Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB_il2cpp_TypeInfo_var},
        {&s_Corlib, "", "Entry", kHeader + sizeof(Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431), NONE, 0, true, &Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "KeyValuePair`2", kHeader + sizeof(KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B), NONE, 0, true, &KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "List`1", sizeof(List_1_tShared), N(kList), 0, false, &List_1_t3C8BDEFE1274D77F262F8D7CF8E19BA492AB21BD_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "List`1", sizeof(List_1_tShared), N(kList), 0, false, &List_1_t0F1C3B6B4E12A5A9C9F2F6DB8C7A8E4B0D1C2E3F_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "List`1", sizeof(List_1_tShared), N(kList), 0, false, &List_1_t5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "List`1", sizeof(List_1_tShared), N(kList), 0, false, &List_1_t8E4A6A6D628AAA11D1C2C6BFD691FEABE78D82C0_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "List`1", sizeof(List_1_tShared), N(kList), 0, false, &List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "List`1", sizeof(List_1_tShared), N(kList), 0, false, &List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "Dictionary`2", sizeof(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A), N(kDictionary), 0, false, &Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A_il2cpp_TypeInfo_var},
        {&s_Corlib, kGeneric, "Dictionary`2", sizeof(Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850), N(kDictionary), 0, false, &Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "GameManager", sizeof(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114), N(kGameManager), sizeof(GameManager_StaticFields), false, &GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "EnemyManager", sizeof(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642), N(kEnemyManager), 0, false, &EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "Enemy", sizeof(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8), N(kEnemy), 0, false, &Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "Bullet", sizeof(Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3), NONE, 0, false, &Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "BTNode", sizeof(BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F), N(kBTNode), 0, false, &BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "HudText", sizeof(HudText_t30DA23E801246155BC498E50DF06ABF012778688), N(kHud), 0, false, &HudText_t30DA23E801246155BC498E50DF06ABF012778688_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "ScoreEntry", sizeof(ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0), N(kScoreEntry), 0, false, &ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "LevelData", sizeof(LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA), N(kLevelData), 0, false, &LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "ParticleJobData", sizeof(ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099), N(kParticle), 0, false, &ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "Pathfinder", kHeader, NONE, 0, false, &Pathfinder_t6D5A1C4E2B8F3A9D7C0E1F2A3B4C5D6E7F8A9B0C_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "PathRequest", sizeof(PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59), N(kPathRequest), 0, false, &PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "<>c__DisplayClass7_0", sizeof(U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B), N(kClosure7), 0, false, &U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "<>c__DisplayClass12_0", sizeof(U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE), N(kClosure12), 0, false, &U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE_il2cpp_TypeInfo_var},
        {&s_AssemblyCSharp, "", "<FindPath>d__12", sizeof(U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80), N(kFindPath), 0, false, &U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80_il2cpp_TypeInfo_var},
    };

    // Nested classes and generic instances: the declaring class and the type arguments, as
    // global-metadata.dat's nested-type and generic-instance tables give them.
    struct ShapeInfo
    {
        RuntimeClass **klass;
        RuntimeClass **declaringType;
        RuntimeClass **args[2];
        uint32_t argc;
    };
#define T(name) &name##_il2cpp_TypeInfo_var
    const ShapeInfo s_Shapes[] = {
        {T(Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704), NULL, {T(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8), T(Boolean_t09A6377A1BE2E1FB5B29B7E5DA0D7F2F8D1D2A51)}, 2},
        {T(Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB), T(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A), {T(String_t), T(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8)}, 2},
        {T(Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431), T(Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850), {T(Int32_t366962207F750027D7847259F85318FB9DD8F3EE), T(Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733)}, 2},
        {T(KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B), NULL, {T(Int32_t366962207F750027D7847259F85318FB9DD8F3EE), T(Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733)}, 2},
        {T(List_1_t3C8BDEFE1274D77F262F8D7CF8E19BA492AB21BD), NULL, {T(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8)}, 1},
        {T(List_1_t0F1C3B6B4E12A5A9C9F2F6DB8C7A8E4B0D1C2E3F), NULL, {T(Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3)}, 1},
        {T(List_1_t5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B), NULL, {T(ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0)}, 1},
        {T(List_1_t8E4A6A6D628AAA11D1C2C6BFD691FEABE78D82C0), NULL, {T(Int32_t366962207F750027D7847259F85318FB9DD8F3EE)}, 1},
        {T(List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7), NULL, {T(Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B)}, 1},
        {T(List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36), NULL, {T(PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD)}, 1},
        {T(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A), NULL, {T(String_t), T(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8)}, 2},
        {T(Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850), NULL, {T(Int32_t366962207F750027D7847259F85318FB9DD8F3EE), T(Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733)}, 2},
        {T(U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B), T(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642), {NULL, NULL}, 0},
        {T(U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE), T(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8), {NULL, NULL}, 0},
        {T(U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80), T(Pathfinder_t6D5A1C4E2B8F3A9D7C0E1F2A3B4C5D6E7F8A9B0C), {NULL, NULL}, 0},
    };
#undef T

    void SetArray(RuntimeClass **var, RuntimeClass *element)
    {
        *var = il2cpp::vm::Class::GetArrayClass(element, 1);
    }
}

void Il2CppCodeRegistration_Initialize()
{
    typedef LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA LevelData;
    kLevelData[0] = OFF(LevelData, ___levelName_0);
    kLevelData[1] = OFF(LevelData, ___terrain_1);
    kLevelData[2] = OFF(LevelData, ___grid_2);
    kLevelData[3] = OFF(LevelData, ___propNames_3);
    for (uint32_t i = 0; i < 28; ++i)
        kLevelData[4 + i] = OFF(LevelData, ___layers_4) + i * (uint32_t)sizeof(void *);

    il2cpp::vm::Class::RegisterTypes(s_Types, (uint32_t)(sizeof(s_Types) / sizeof(s_Types[0])));
    for (const ShapeInfo &shape : s_Shapes)
    {
        RuntimeClass *args[2] = {shape.argc > 0 ? *shape.args[0] : NULL, shape.argc > 1 ? *shape.args[1] : NULL};
        il2cpp::vm::Class::SetShape(*shape.klass, shape.declaringType ? *shape.declaringType : NULL, args, shape.argc);
    }

    SetArray(&CharU5BU5D_t799905F6FDC7A8BA5E2E0C2E5D2C5A2C1E0C2E3A_il2cpp_TypeInfo_var, Char_tCF439D983D8E482F262C0F13CAE379534B691CDC_il2cpp_TypeInfo_var);
    SetArray(&Int32U5BU5D_t70F1BDC14B1786481B176D6139A5E3B87DC54C32_il2cpp_TypeInfo_var, Int32_t366962207F750027D7847259F85318FB9DD8F3EE_il2cpp_TypeInfo_var);
    SetArray(&SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C_il2cpp_TypeInfo_var, Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733_il2cpp_TypeInfo_var);
    SetArray(&ByteU5BU5D_tA6237BF417AE52AD70CFB4EF24A7A82613DF9031_il2cpp_TypeInfo_var, Byte_tF3453E2A3CF1764613A2CE3F42CA194BF67A06F5_il2cpp_TypeInfo_var);
    SetArray(&ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918_il2cpp_TypeInfo_var, RuntimeObject_il2cpp_TypeInfo_var);
    SetArray(&StringU5BU5D_t7674CD946EC0CE7B3AE0BE70E6EE85F2ECD9F248_il2cpp_TypeInfo_var, String_t_il2cpp_TypeInfo_var);
    SetArray(&EnemyU5BU5D_t3B7F7E5E36C1E2B8D1C5A69F8C2D9E0A1B2C3D4E_il2cpp_TypeInfo_var, Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8_il2cpp_TypeInfo_var);
    SetArray(&BulletU5BU5D_t6E1C9B2A8D7F5E4C3B2A1F0E9D8C7B6A5F4E3D2C_il2cpp_TypeInfo_var, Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3_il2cpp_TypeInfo_var);
    SetArray(&ScoreEntryU5BU5D_t2D4F6A8C0E1B3D5F7A9C1E3B5D7F9A1C3E5B7D9F_il2cpp_TypeInfo_var, ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0_il2cpp_TypeInfo_var);
    SetArray(&Vector3U5BU5D_t5FB88EAA33E46838BDC2ABDAEA3E8727491CB9E4_il2cpp_TypeInfo_var, Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B_il2cpp_TypeInfo_var);
    SetArray(&PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B_il2cpp_TypeInfo_var, PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD_il2cpp_TypeInfo_var);
    SetArray(&DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7_il2cpp_TypeInfo_var, DamageEvent_t11A679CA95F92B4EC58DDCBE9BA2027C7C8062A3_il2cpp_TypeInfo_var);
    SetArray(&EntryU5BU5D_t4E19AD3A5A4D6BCDE53F3C3C35C54B4A5B2D2E21_il2cpp_TypeInfo_var, Entry_t600CECEC0ADA1188A3601D47413FA36D7B910AAB_il2cpp_TypeInfo_var);
    SetArray(&EntryU5BU5D_tF1E4C5A8F0D5B6E4D3A2C1B0A9F8E7D6C5B4A392_il2cpp_TypeInfo_var, Entry_t216A6FC35F9C60F911965C72C6F3DE4E47416431_il2cpp_TypeInfo_var);
    SetArray(&BTNodeU5BU5D_t8B0E6A7C5D4F3E2A1B0C9D8E7F6A5B4C3D2E1F00_il2cpp_TypeInfo_var, BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F_il2cpp_TypeInfo_var);
}
