// Assembly-CSharp1.cpp — the second file of Assembly-CSharp (IL2CPP splits big assemblies):
// the C# jobs the worker threads run each frame. A job's result object goes into
// GameManager.JobResults[job] so it survives until LateUpdate reads it.
#include "Il2CppMethods.h"

#include <stdlib.h>
#include <string.h>

typedef ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099 ParticleJobData;
typedef PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59 PathRequest;
typedef PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD PathNode;
typedef List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36 PathList;
typedef U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80 FindPathIterator;
typedef Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850 StatsDictionary;
typedef KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B KeyValuePair;
typedef SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C SingleArray;

// ----------------------------------------------------------------------------- particles
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void ParticleJob_Integrate_mDC04C3AFA9E2F3316A1669541C845F7645FA8C04(ParticleJobData *__this, const RuntimeMethod *)
{
    __this->___trail_2 = (List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7 *)il2cpp_codegen_object_new(List_1_t0339B9FB5387A8F1530B8CED6679F54AE8D266C7_il2cpp_TypeInfo_var);
    for (int32_t i = 0; i < __this->___count_3; ++i)
    {
        float v = __this->___velocities_1->GetAt((il2cpp_array_size_t)i);
        __this->___positions_0->SetAt((il2cpp_array_size_t)i, __this->___positions_0->GetAt((il2cpp_array_size_t)i) + v);
        if (i % 4 == 0)
        {
            Vector3_t9AD745202E30B6676482C8B7F6A0F4AC88F34D7B p = {(float)i, v, 0.0f};
            List_1_Add_mA6CF7A124281A5B40A00FA5BBCEF560CE5E73F84(__this->___trail_2, p, NULL);
        }
    }
    if (Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 10, NULL) == 0)
    {
        float total = (float)__this->___count_3;  // a debug readout: boxing plus formatting
        String_Format_m4BF08EAB0F236F09F748EE468A121FAA0CF0DFDB(_stringLiteral(kLit_Fps), Box(Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733_il2cpp_TypeInfo_var, &total), NULL);
    }
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR RuntimeObject *ParticleJob_Execute_mF62ECD73317A1D9D9DA8D76C6FB4DF5A93C5B02B(int32_t count, const RuntimeMethod *)
{
    ParticleJobData *data = (ParticleJobData *)il2cpp_codegen_object_new(ParticleJobData_t2F50D5857715FFF1367A836DCEA6FDD7D1EB0099_il2cpp_TypeInfo_var);
    data->___count_3 = count;
    data->___positions_0 = (SingleArray *)SZArrayNew(SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C_il2cpp_TypeInfo_var, (uint32_t)count);
    data->___velocities_1 = (SingleArray *)SZArrayNew(SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C_il2cpp_TypeInfo_var, (uint32_t)count);
    for (int32_t i = 0; i < count; ++i)
        data->___velocities_1->SetAt((il2cpp_array_size_t)i, Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL));
    ParticleJob_Integrate_mDC04C3AFA9E2F3316A1669541C845F7645FA8C04(data, NULL);
    return (RuntimeObject *)data;
}

// ----------------------------------------------------------------------------- pathfinding
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *Pathfinder_MakeLabel_m600F8727F6F1383BF7FC8ECDFD4DBF51456EC29F(int32_t index, const RuntimeMethod *)
{
    return String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(_stringLiteral(kLit_Node), Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&index, NULL), NULL);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Pathfinder_Expand_m84BB83A35FC9CA4C260287EEBC1CCEDAC7E3541D(PathList *path, PathNode node, const RuntimeMethod *)
{
    List_1_Add_mFA6339F0158484F02B98839A3D663EFE48E285A1(path, node, NULL);
}

// IEnumerator<PathNode>.MoveNext of the C# iterator `FindPath` (state machine class <FindPath>d__12).
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool U3CFindPathU3Ed__12_MoveNext_m5C92068F1611CAFD0BE605E740E156A4409B07E3(FindPathIterator *__this, const RuntimeMethod *)
{
    PathRequest *req = __this->___request_3;
    int32_t steps = abs(req->___goalX_4 - req->___startX_2) + abs(req->___goalY_5 - req->___startY_3);
    int32_t i = __this->___U3CiU3E5__1_1;
    if (i > steps)
        return false;
    PathNode *current = &__this->___U3CU3E2__current_2;
    current->___x_0 = req->___startX_2 + (i * (req->___goalX_4 - req->___startX_2)) / (steps ? steps : 1);
    current->___y_1 = req->___startY_3 + (i * (req->___goalY_5 - req->___startY_3)) / (steps ? steps : 1);
    current->___cost_2 = (float)i;
    current->___parent_3 = i - 1;
    current->___label_4 = (i % 4 == 0) ? Pathfinder_MakeLabel_m600F8727F6F1383BF7FC8ECDFD4DBF51456EC29F(i, NULL) : NULL;
    __this->___U3CiU3E5__1_1 = i + 1;
    return true;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR PathList *Pathfinder_FindPath_m684FADB4399EA33978326F2073F520B848488BF5(PathRequest *request, const RuntimeMethod *)
{
    FindPathIterator *it = (FindPathIterator *)il2cpp_codegen_object_new(U3CFindPathU3Ed__12_t2026EC53E2F81091E32F97F8239963AFB8586A80_il2cpp_TypeInfo_var);
    it->___request_3 = request;
    PathList *path = (PathList *)il2cpp_codegen_object_new(List_1_tAA7890989088BD440C4D2C762A1EA2E7266E1A36_il2cpp_TypeInfo_var);
    while (U3CFindPathU3Ed__12_MoveNext_m5C92068F1611CAFD0BE605E740E156A4409B07E3(it, NULL))
        Pathfinder_Expand_m84BB83A35FC9CA4C260287EEBC1CCEDAC7E3541D(path, it->___U3CU3E2__current_2, NULL);
    return path;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR RuntimeObject *PathfindJob_Execute_m0CAC15A8753AAD8F7B04A600181C896CD374BDAC(int32_t jobIndex, const RuntimeMethod *)
{
    PathRequest *req = (PathRequest *)il2cpp_codegen_object_new(PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59_il2cpp_TypeInfo_var);
    req->___startX_2 = Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 32, NULL);
    req->___startY_3 = Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 32, NULL);
    req->___goalX_4 = Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 32, NULL);
    req->___goalY_5 = Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 32, NULL);
    req->___debugName_1 = String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(_stringLiteral(kLit_Path), Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&jobIndex, NULL), NULL);
    req->___path_0 = Pathfinder_FindPath_m684FADB4399EA33978326F2073F520B848488BF5(req, NULL);
    return (RuntimeObject *)req;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void PathRequest_Complete_mD322E176819D215CB4F04F9D7E50C7DB8D4D7B49(PathRequest *__this, const RuntimeMethod *)
{
    // The main thread takes a snapshot of the path (an array of structs holding strings).
    PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B *nodes = List_1_ToArray_m36353E443A5BE0586E24BB48350AFC273A6B18E2(__this->___path_0, NULL);
    int32_t n = (int32_t)nodes->max_length;
    __this->___debugName_1 = String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(__this->___debugName_1, Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&n, NULL), NULL);
}

// ----------------------------------------------------------------------------- statistics
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void StatsJob_Accumulate_mD8CEB991AAB6DD5C1C0B6FB4379D2D1EE66D22FD(StatsDictionary *stats, int32_t samples, const RuntimeMethod *)
{
    for (int32_t i = 0; i < samples; ++i)
    {
        int32_t key = Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 4 * samples, NULL);
        float value = Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL);
        Dictionary_2_TryInsert_mE330E454E114BAC0961DAD027382CC522A764099(stats, key, value, NULL);
        if (i % 8 == 0)
        {
            KeyValuePair pair = {key, value};  // logged through object: boxed, then formatted
            Object_ToString_mFE363D287CC3B34B96AB7D585F8250A9F7286C79(Box(KeyValuePair_2_tD8DD4BE43CD7CBA4A3DF32C688D41AFA4D31090B_il2cpp_TypeInfo_var, &pair), NULL);
        }
    }
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR RuntimeObject *StatsJob_Execute_m3F0E2BE4C390E5D678A468EDEDD563867C415629(int32_t samples, const RuntimeMethod *)
{
    StatsDictionary *stats = (StatsDictionary *)il2cpp_codegen_object_new(Dictionary_2_t47601C49367F1BDD9F1AA0AC5EF39E3BD5FD4850_il2cpp_TypeInfo_var);
    Dictionary_2__ctor_m50AF1BB916EC55A02D0F85F86EDA9A3612D556CC(stats, 0, NULL);
    StatsJob_Accumulate_mD8CEB991AAB6DD5C1C0B6FB4379D2D1EE66D22FD(stats, samples, NULL);
    return (RuntimeObject *)stats;
}

// ----------------------------------------------------------------------------- dispatch
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void JobDispatcher_Execute_m30A7A799EC108B2A3A603D3B232B804768A74D01(int32_t jobIndex, int32_t frame, const RuntimeMethod *)
{
    RuntimeObject *result;
    switch (jobIndex % 3)
    {
        case 0: result = ParticleJob_Execute_mF62ECD73317A1D9D9DA8D76C6FB4DF5A93C5B02B(Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(64, 256, NULL), NULL); break;
        case 1: result = PathfindJob_Execute_m0CAC15A8753AAD8F7B04A600181C896CD374BDAC(jobIndex, NULL); break;
        default: result = StatsJob_Execute_m3F0E2BE4C390E5D678A468EDEDD563867C415629(Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(20, 60, NULL), NULL); break;
    }
    (void)frame;
    GameManager_StaticFields *statics = (GameManager_StaticFields *)il2cpp_codegen_static_fields_for(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114_il2cpp_TypeInfo_var);
    statics->___JobResults_1->SetAt((il2cpp_array_size_t)jobIndex, result);
}
