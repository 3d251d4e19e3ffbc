// GameAssemblyEntry.cpp — where the player enters managed code. In Unity the player loop invokes
// MonoBehaviour methods through il2cpp_runtime_invoke and RuntimeInvoker_* thunks, and jobs
// through the job system's managed dispatch; here those layers are a few real frames each, so
// stacks seen by MemTracer start like a real player's: player loop, invoker, script.
#include "Il2CppMethods.h"
#include "mtsample_game.h"

#include "gc/GarbageCollector.h"
#include "vm/AllocationTally.h"
#include "vm/Type.h"

#include <string>
#include <string.h>

static uint64_t s_Seed;

static IL2CPP_MANAGED_FORCE_INLINE int64_t MixSeed(uint64_t frame, uint64_t stream)
{
    return (int64_t)(s_Seed * 0x9E3779B97F4A7C15ull ^ (frame << 20) ^ stream);
}

static IL2CPP_MANAGED_FORCE_INLINE GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 *GameManager_get_Instance()
{
    return ((GameManager_StaticFields *)il2cpp_codegen_static_fields_for(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114_il2cpp_TypeInfo_var))->___Instance_0;
}

// RuntimeInvoker_FalseVoid: IL2CPP's thunk for "void Method()" called through il2cpp_runtime_invoke.
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void RuntimeInvoker_FalseVoid_t7DE285D2BB6035616701FE79C88F2C4F3592E256(Il2CppMethodPointer methodPointer, void *obj)
{
    typedef void (*Func)(void *, const RuntimeMethod *);
    ((Func)methodPointer)(obj, NULL);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void ScriptRunBehaviourUpdate_mD7A0666A91DB296602C747E7457CDD06EA57822F(void *behaviour)
{
    RuntimeInvoker_FalseVoid_t7DE285D2BB6035616701FE79C88F2C4F3592E256((Il2CppMethodPointer)&GameManager_Update_m18DDFC18F60AE0300B48D6F32684AF6CECB810F9, behaviour);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void ScriptRunBehaviourLateUpdate_mB470784E2ED781760FB22FB333183E36458F827C(void *behaviour)
{
    RuntimeInvoker_FalseVoid_t7DE285D2BB6035616701FE79C88F2C4F3592E256((Il2CppMethodPointer)&GameManager_LateUpdate_m7EC26DEDDF7233BB7D453D54461C3818BDAE7A2F, behaviour);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void PlayerLoop_Update_m357E9FE4F02D9939DB84F38D7579C87812D41962(uint64_t frame)
{
    Random_InitState_m3C38A100F92862D369340BB0713D6F21FEA0F7C3(MixSeed(frame, 0), NULL);
    ScriptRunBehaviourUpdate_mD7A0666A91DB296602C747E7457CDD06EA57822F(GameManager_get_Instance());
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void PlayerLoop_LateUpdate_m75372C962BC5466926636CD446CFB64B5C3E92B4(uint64_t frame)
{
    Random_InitState_m3C38A100F92862D369340BB0713D6F21FEA0F7C3(MixSeed(frame, 0xFFFF), NULL);
    ScriptRunBehaviourLateUpdate_mB470784E2ED781760FB22FB333183E36458F827C(GameManager_get_Instance());
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void RuntimeInvoker_Job_mA418CA4FCEEC486D549EADBD7DFCC5C4626810FA(uint64_t frame, uint32_t job)
{
    Random_InitState_m3C38A100F92862D369340BB0713D6F21FEA0F7C3(MixSeed(frame, job + 1), NULL);
    JobDispatcher_Execute_m30A7A799EC108B2A3A603D3B232B804768A74D01((int32_t)job, (int32_t)frame, NULL);
}

// ----------------------------------------------------------------------------- a deliberate leak
// `memtracer-sample-game --leak-from N`: from frame N on, the player calls LeakyCache.Remember
// once a frame, which keeps a Single[1024] (4 KB) snapshot in a static list that nothing ever clears.
// The static field is a slot of fixed GC memory (a root, as IL2CPP's static field storage is).
static List_1_tShared **s_LeakyCache;

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void LeakyCache_Remember_m0D6E1A3B5C7F9E2D4B6A8C0E1F3A5B7D9C2E4F6A(int32_t frame, const RuntimeMethod *)
{
    if (!s_LeakyCache)
    {
        s_LeakyCache = (List_1_tShared **)il2cpp::gc::GarbageCollector::AllocateFixed(sizeof(List_1_tShared *), NULL);
        List_1_tShared *list = (List_1_tShared *)il2cpp_codegen_object_new(List_1_t0F1C3B6B4E12A5A9C9F2F6DB8C7A8E4B0D1C2E3F_il2cpp_TypeInfo_var);
        List_1__ctor_m2CDCFFCE86F942B1C1D7C606035758E95A35BEA6_gshared(list, NULL);
        *s_LeakyCache = list;
    }
    SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C *snapshot = (SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C *)
        SZArrayNew(SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C_il2cpp_TypeInfo_var, 1024);
    snapshot->SetAt(0, (float)frame);
    List_1_Add_mBDC56B40416C27AB6A839D626037126964E42A7C_gshared(*s_LeakyCache, (RuntimeObject *)snapshot, &List_1_Add_m2F1E8A6B3C5D7E9F1A2B4C6D8E0F1A3B5C7D9E0F_RuntimeMethod_var);
}

// ----------------------------------------------------------------------------- exports
IL2CPP_EXPORT int mtsample_start(uint64_t seed, uint32_t jobs_per_frame)
{
    s_Seed = seed;
    Random_InitState_m3C38A100F92862D369340BB0713D6F21FEA0F7C3((int64_t)seed, NULL);
    GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 *gm = (GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114 *)
        il2cpp_codegen_object_new(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114_il2cpp_TypeInfo_var);
    ((GameManager_StaticFields *)il2cpp_codegen_static_fields_for(GameManager_t5E8431B306E052AC931B826C87F63E85F9DB1114_il2cpp_TypeInfo_var))->___Instance_0 = gm;
    GameManager_Awake_m5FF135DB1CCA08CC0769600D71A6586ECFECA7B4(gm, (int32_t)jobs_per_frame, NULL);
    return 0;
}

IL2CPP_EXPORT void mtsample_update(uint64_t frame)
{
    PlayerLoop_Update_m357E9FE4F02D9939DB84F38D7579C87812D41962(frame);
}

IL2CPP_EXPORT void mtsample_run_job(uint64_t frame, uint32_t job)
{
    RuntimeInvoker_Job_mA418CA4FCEEC486D549EADBD7DFCC5C4626810FA(frame, job);
}

IL2CPP_EXPORT void mtsample_late_update(uint64_t frame)
{
    PlayerLoop_LateUpdate_m75372C962BC5466926636CD446CFB64B5C3E92B4(frame);
}

IL2CPP_EXPORT void mtsample_leak(uint64_t frame)
{
    LeakyCache_Remember_m0D6E1A3B5C7F9E2D4B6A8C0E1F3A5B7D9C2E4F6A((int32_t)frame, NULL);
}

IL2CPP_EXPORT uint64_t mtsample_collection_count()
{
    return il2cpp::gc::GarbageCollector::GetCollectionCount();
}

IL2CPP_EXPORT uint32_t mtsample_take_tally(mtsample_tally_row *out, uint32_t max)
{
    static il2cpp::vm::ClassTally rows[il2cpp::vm::Class::kMaxClasses];
    uint32_t n = il2cpp::vm::AllocationTally::Take(rows, max < il2cpp::vm::Class::kMaxClasses ? max : il2cpp::vm::Class::kMaxClasses);
    // The game's own view of each class: its namespace and its IL name after "namespace." (as
    // MemTracer splits it), so that namespace + "." + name is the full C# name, which tells the
    // six List`1 instances apart. Built once per class; called from the main thread only.
    static std::string names[il2cpp::vm::Class::kMaxClasses];
    for (uint32_t i = 0; i < n; ++i)
    {
        const Il2CppClass *k = rows[i].klass;
        std::string &name = names[k->class_index];
        if (name.empty())
        {
            name = il2cpp::vm::Type::GetName(&k->byval_arg);
            size_t ns = strlen(k->namespaze);
            if (ns && name.compare(0, ns, k->namespaze) == 0 && name.size() > ns + 1 && name[ns] == '.')
                name.erase(0, ns + 1);
        }
        out[i] = mtsample_tally_row{k, k->namespaze, name.c_str(), rows[i].count, rows[i].bytes};
    }
    return n;
}
