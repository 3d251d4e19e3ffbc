// Il2CppTypesGame.h — Assembly-CSharp's classes (see Il2CppTypes.h).
#pragma once

typedef List_1_t3C8BDEFE1274D77F262F8D7CF8E19BA492AB21BD List_1_tShared;  // List<T>, T a class
typedef Il2CppSzArray<Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *> EnemyU5BU5D_t3B7F7E5E36C1E2B8D1C5A69F8C2D9E0A1B2C3D4E;
struct BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F;
typedef Il2CppSzArray<BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F *> BTNodeU5BU5D_t8B0E6A7C5D4F3E2A1B0C9D8E7F6A5B4C3D2E1F00;

struct Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 : public RuntimeObject
{
    String_t *___name_0;
    Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B ___position_1;
    float ___health_2;
    Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *___target_3;
    String_t *___label_4;
    List_1_tShared *___lastNeighbors_5;
    int32_t ___id_6;
    int32_t ___kills_7;
};

struct Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3 : public RuntimeObject  // no references
{
    Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B ___position_0;
    Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B ___velocity_1;
    float ___lifetime_2;
    int32_t ___damage_3;
};

struct BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F : public RuntimeObject
{
    BTNodeU5BU5D_t8B0E6A7C5D4F3E2A1B0C9D8E7F6A5B4C3D2E1F00 *___children_0;
    Func_2_t0E53293AAB13097E4C97554FE1AD8CC9CA05D704 *___condition_1;
    int32_t ___kind_2;   // 0 selector, 1 sequence, 2 action
    int32_t ___action_3;
};

struct EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642 : public RuntimeObject
{
    List_1_tShared *___enemies_0;
    Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A *___registry_1;
    BTNode_t851A3C823E62508020BB8E8EDFD3E9A77D31619F *___behaviour_2;
    DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7 *___pending_3;
    int32_t ___pendingCount_4;
    int32_t ___nextId_5;
};

struct HudText_t30DA23E801246155BC498E50DF06ABF012778688 : public RuntimeObject
{
    String_t *___scoreText_0;
    String_t *___fpsText_1;
    String_t *___statusText_2;
};

struct ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0 : public RuntimeObject
{
    String_t *___playerName_0;
    int32_t ___score_1;
    int32_t ___frame_2;
};

// Big enough (last reference beyond word 29) that libil2cpp gives it no GC descriptor: it is
// allocated with GC_MALLOC (ALLOC_OBJECT), scanned conservatively.
struct LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA : public RuntimeObject
{
    String_t *___levelName_0;
    ByteU5BU5D_tA6237BF417AE52AD70CFB4EF24A7A82613DF9031 *___terrain_1;
    PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B *___grid_2;
    StringU5BU5D_t7674CD946EC0CE7B3AE0BE70E6EE85F2ECD9F248 *___propNames_3;
    RuntimeObject *___layers_4[28];
    int32_t ___width_5;
    int32_t ___height_6;
};

struct ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099 : public RuntimeObject
{
    SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C *___positions_0;
    SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C *___velocities_1;
    List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7 *___trail_2;
    int32_t ___count_3;
};

struct PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59 : public RuntimeObject
{
    List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36 *___path_0;
    String_t *___debugName_1;
    int32_t ___startX_2;
    int32_t ___startY_3;
    int32_t ___goalX_4;
    int32_t ___goalY_5;
};

// Compiler-generated closure and iterator classes.
struct U3CU3Ec__DisplayClass7_0_tDC0CC96DF2F2C0269FE8F5D8AC67D8F8A34D473B : public RuntimeObject
{
    Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *___target_0;
    EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642 *___U3CU3E4__this_1;
    float ___amount_2;
};
struct U3CU3Ec__DisplayClass12_0_t9940AA8C5A49F61743E0777F82FC941901841BCE : public RuntimeObject
{
    Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8 *___self_0;
    float ___radius_1;
};
struct U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80 : public RuntimeObject
{
    int32_t ___U3CU3E1__state_0;
    int32_t ___U3CiU3E5__1_1;
    PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD ___U3CU3E2__current_2;
    PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59 *___request_3;
};

struct GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 : public RuntimeObject
{
    EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642 *___enemyManager_0;
    HudText_t30DA23E801246155BC498E50DF06ABF012778688 *___hud_1;
    List_1_tShared *___bullets_2;
    List_1_tShared *___scores_3;
    LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA *___level_4;
    int32_t ___frame_5;
    int32_t ___score_6;
    float ___fps_7;
};

// Static fields live in fixed (uncollectable) GC memory: the roots of everything long-lived.
struct GameManager_StaticFields
{
    GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 *___Instance_0;
    ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918 *___JobResults_1;  // one slot per job
};
