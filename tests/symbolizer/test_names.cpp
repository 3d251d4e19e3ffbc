// Names: C++ demangling and the C# names behind IL2CPP function names.
#include <catch2/catch.hpp>

#include "il2cpp_sources.h"
#include "names.h"
#include "sites.h"

using namespace mt::sym;

TEST_CASE("symbolizer: IL2CPP method names become C# names", "[names]") {
    struct Case {
        const char *raw, *csharp;
    } cases[] = {
        {"NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12", "NodeFactory.CreateNode"},
        {"List_1_Add_m7A5E2B1C9D8F0E3A4B5C6D7E8F9A0B1C2D3E4F5A", "List`1.Add"},
        {"Node__ctor_mB2F1C4A3D5E6F708192A3B4C5D6E7F8091A2B3C4", "Node..ctor"},
        {"Node__cctor_mB2F1C4A3D5E6F708192A3B4C5D6E7F8091A2B3C4", "Node..cctor"},
        {"Dictionary_2_TryGetValue_m0123456789ABCDEF0123456789ABCDEF01234567_gshared", "Dictionary`2.TryGetValue"},
        {"Player_get_Health_m0123456789ABCDEF0123456789ABCDEF01234567", "Player.get_Health"},
        {"U3CStartU3Ed__5_MoveNext_m0123456789ABCDEF0123456789ABCDEF01234567", "<Start>d__5.MoveNext"},
        {"U3CU3Ec_U3CAwakeU3Eb__3_0_m0123456789ABCDEF0123456789ABCDEF01234567", "<>c.<Awake>b__3_0"},
        {"U3CU3Ec__DisplayClass7_0_U3CAttackU3Eb__0_m9628151951CAAE8E92D0B74D77F640951EEDD40F", "<>c__DisplayClass7_0.<Attack>b__0"},
        {"U3CU3Ec__ctor_m0123456789ABCDEF0123456789ABCDEF01234567", "<>c..ctor"},
        {"Enemy_get_IsAlive_m299BCD88A187B16DA0A8D0105E7E204A244166D4", "Enemy.get_IsAlive"},
        {"Vector3_ToString_m2315", "Vector3.ToString"},  // Unity 4-era numeric suffix
        {"Enemy_Tick_m0123456789ABCDEF0123456789ABCDEF01234567_AdjustorThunk", "Enemy.Tick"},
    };
    for (const Case &c : cases) {
        INFO(c.raw);
        CHECK(il2cpp_csharp_name(c.raw) == c.csharp);
    }
}

TEST_CASE("symbolizer: IL2CPP names from real builds - generic instances, interfaces, underscores, lambdas", "[names]") {
    struct Case {
        const char *raw, *csharp;
    } cases[] = {
        // Generic method instances: the arguments, not IL2CPP's hashes.
        {"GameObject_AddComponent_TisAudioSource_t871A0312DBF26AA6F1A2B1B0BA54C02F86E7E2F3_m7D1A0312DBF26AA6F1A2B1B0BA54C02F86E7E2F3",
         "GameObject.AddComponent<AudioSource>"},
        {"Component_GetComponent_TisRuntimeObject_m0123456789ABCDEF0123456789ABCDEF01234567_gshared", "Component.GetComponent<Object>"},
        {"Array_Empty_TisString_t_m067756FA0DD40168DE0F25F9B92DA15AF156385A", "Array.Empty<String>"},
        {"Array_ConvertAll_TisString_t_TisInt32_t2C29605E064FAF571E898CB423B19930E2BB250D_m563CCB87895130CE7D7F3E4EE4465D7AA0FB332A",
         "Array.ConvertAll<String, Int32>"},
        {"Activator_CreateInstance_TisIl2CppFullySharedGenericAny_mFDF8D98826377769E6975DA0E37547957ECDFE45_gshared",
         "Activator.CreateInstance<T>"},
        {"Enumerable_ToList_TisKeyValuePair_2_tC6C35DD9D9B1B2E4A8B2D4C6E8F0A1B3C5D7E9F1_m0123456789ABCDEF0123456789ABCDEF01234567",
         "Enumerable.ToList<KeyValuePair`2>"},
        {"Array_Resize_TisObjectU5BU5D_t2269C877071B1309D05795A919BDAE580389795E_m0123456789ABCDEF0123456789ABCDEF01234567",
         "Array.Resize<Object[]>"},
        // Explicit interface implementations.
        {"List_1_System_Collections_IList_get_Item_m0123456789ABCDEF0123456789ABCDEF01234567_gshared",
         "List`1.System.Collections.IList.get_Item"},
        {"U3CRunU3Ed__3_System_Collections_IEnumerator_Reset_m0123456789ABCDEF0123456789ABCDEF01234567",
         "<Run>d__3.System.Collections.IEnumerator.Reset"},
        {"ArraySegment_1_System_Collections_Generic_ICollectionU3CTU3E_Add_m98AA2A2EE117E1F552DA3D40B919423D1EF23087",
         "ArraySegment`1.System.Collections.Generic.ICollection<T>.Add"},
        {"U3CGetU3Ed__4_System_Collections_Generic_IEnumeratorU3CSystem_ObjectU3E_get_Current_m0123456789ABCDEF0123456789ABCDEF01234567",
         "<Get>d__4.System.Collections.Generic.IEnumerator<System.Object>.get_Current"},
        {"U3CRunU3Ed__3_System_IDisposable_Dispose_m0123456789ABCDEF0123456789ABCDEF01234567", "<Run>d__3.System.IDisposable.Dispose"},
        {"Array_InternalArray__ICollection_Add_TisIntPtr_t_m31A4C85CFCE3D433D26CE58A57FFA9896CC7918A",
         "Array.InternalArray__ICollection_Add<IntPtr>"},
        // Types starting with '_' keep it, or get a name at all.
        {"_SkipUntil__ctor_mDC3BA41E1BFB7535A4E9BB9586EF025DD5E2580C_gshared", "_SkipUntil..ctor"},
        {"__BinaryParser_Run_m0123456789ABCDEF0123456789ABCDEF01234567", "__BinaryParser.Run"},
        // Compiler-generated generic types keep their arity; DisplayClass ordinals stay.
        {"U3CRunWithTimeoutWorkerU3Ed__241_1_MoveNext_m5E97528FE808F688F27C6F9FDBD57B1BE1D9260C",
         "<RunWithTimeoutWorker>d__241`1.MoveNext"},
        {"U3CU3Ec_1_U3CSelectU3Eb__2_0_m0123456789ABCDEF0123456789ABCDEF01234567", "<>c`1.<Select>b__2_0"},
        {"U3CU3Ec__DisplayClass7_0_1_U3CAttackU3Eb__0_m0123456789ABCDEF0123456789ABCDEF01234567",
         "<>c__DisplayClass7_0`1.<Attack>b__0"},
        // A static constructor's lambda.
        {"U3CU3Ec_U3C_cctorU3Eb__10_0_m67FD9328C0977E1C4D10F2F1FA1C71E845C9135E", "<>c.<.cctor>b__10_0"},
        {"U3CU3Ec__DisplayClass2_0_U3C_ctorU3Eb__0_m0123456789ABCDEF0123456789ABCDEF01234567", "<>c__DisplayClass2_0.<.ctor>b__0"},
        // _inline copies are the method.
        {"Color__ctor_m73AAF5B9EC53132BC4FA15BCC00EF98BF9130D56_inline", "Color..ctor"},
    };
    for (const Case &c : cases) {
        INFO(c.raw);
        CHECK(il2cpp_csharp_name(c.raw) == c.csharp);
    }
}

TEST_CASE("symbolizer: the generated sources' type names settle where a type with '_' ends", "[names]") {
    GeneratedSources types;
    types.add_file("/b/il2cppOutput/Assembly-CSharp.cpp",
                   "struct Session_ME_t2222222222222222222222222222222222222222;\n"
                   "struct U3CRunU3Ed__3_1_t3333333333333333333333333333333333333333;\n");
    // The name alone reads the first '_' as the end of the type.
    CHECK(il2cpp_csharp_name("Session_ME_connect_mCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC") == "Session.ME_connect");
    CHECK(il2cpp_csharp_name("Session_ME_connect_mCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", &types) == "Session_ME.connect");
    CHECK(il2cpp_csharp_name("U3CRunU3Ed__3_1_MoveNext_mCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", &types) == "<Run>d__3`1.MoveNext");
    // Not a known type: the name-only rule.
    CHECK(il2cpp_csharp_name("Player_get_Health_mCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", &types) == "Player.get_Health");
}

TEST_CASE("symbolizer: C# parameter types from a generated signature tell overloads apart", "[names]") {
    CHECK(il2cpp_parameter_types("Spawner_t1111111111111111111111111111111111111111* __this, int32_t ___0_n, "
                                 "String_t* ___1_s, Vector3_t29B2AB0A57106BDA0116B1D3C4A868BA008DC34F ___2_v, "
                                 "int32_t* ___3_r, RuntimeObject* ___4_o, List_1_t2222222222222222222222222222222222222222* ___5_l, "
                                 "ObjectU5BU5D_t2269C877071B1309D05795A919BDAE580389795E* ___6_a, "
                                 "Node_t3333333333333333333333333333333333333333** ___7_n, const RuntimeMethod* method") ==
          "(Int32, String, Vector3, ref Int32, Object, List`1, Object[], ref Node)");
    // An array of a generic instance: the arity before the brackets (was `KeyValuePair_2[]`).
    CHECK(il2cpp_parameter_types("KeyValuePair_2U5BU5D_tFC32D2507216293851350D29B64D79F950B55230* ___0_keys, "
                                 "Int32U5BU2CU5D_t4444444444444444444444444444444444444444* ___1_grid, const RuntimeMethod* method") ==
          "(KeyValuePair`2[], Int32[,])");
    CHECK(il2cpp_parameter_types("const RuntimeMethod* method") == "()");
    CHECK(il2cpp_parameter_types("float ___0_x, bool ___1_b, Il2CppChar ___2_c, const RuntimeMethod* method") ==
          "(Single, Boolean, Char)");
}

TEST_CASE("symbolizer: Non-IL2CPP names get no C# name", "[names]") {
    for (const char *raw : {"main", "fx_outer", "GC_malloc_kind", "_ZN4game7Spawner5spawnEi", "do_m123", "Foo_mABC",
                            "il2cpp::vm::Object::New(Il2CppClass*)", "", "_m0123456789ABCDEF"}) {
        INFO(raw);
        CHECK(il2cpp_csharp_name(raw).empty());
    }
}

TEST_CASE("symbolizer: C++ names are demangled - with or without Mach-O's extra underscore", "[names]") {
    CHECK(demangle("_ZN4game7Spawner5spawnEi") == "game::Spawner::spawn(int)");
    CHECK(demangle("__ZN4game7Spawner5spawnEi") == "game::Spawner::spawn(int)");
    CHECK(demangle("_ZN6il2cpp2vm6Object3NewEP11Il2CppClass") == "il2cpp::vm::Object::New(Il2CppClass*)");
    CHECK(demangle("fx_outer").empty());
    CHECK(demangle("").empty());
    // A mangled IL2CPP function still yields its C# name through its base name.
    CHECK(il2cpp_csharp_name("ns::NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12(int)") ==
          "NodeFactory.CreateNode");
}

TEST_CASE("symbolizer: The internal-frame rule skips MemTracer - Boehm and il2cpp runtime frames", "[names][sites]") {
    auto row = [](std::string raw) {
        SymbolRow r;
        r.function = raw;
        r.demangled = demangle(raw);
        return r;
    };
    for (const char *internal : {"mt_on_alloc", "_mt_on_alloc", "GC_malloc_kind", "GC_generic_malloc",
                                 "_ZN6il2cpp2vm6Object3NewEP11Il2CppClass", "il2cpp_codegen_object_new",
                                 "il2cpp_object_new", "_ZN6il2cpp2gc16GarbageCollector8AllocateEm", "SZArrayNew",
                                 "_Z3BoxP11Il2CppClassPv"}) {
        INFO(internal);
        CHECK(is_internal(row(internal)));
    }
    for (const char *game : {"NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12", "_ZN4game7Spawner5spawnEi",
                             "main", "GameLoop_Update_m0123456789ABCDEF0123456789ABCDEF01234567",
                             "BoxCollider_get_size_m0123456789ABCDEF0123456789ABCDEF01234567"}) {
        INFO(game);
        CHECK_FALSE(is_internal(row(game)));
    }
    std::vector<SymbolRow> chain = {row("il2cpp_codegen_object_new"), row("_ZN4game7Spawner5spawnEi")};
    chain[1].file = "/src/spawner.cpp";
    chain[1].line = 12;
    auto site = game_site(chain);
    REQUIRE(site);
    CHECK(site->function == "game::Spawner::spawn(int)");
    CHECK(site->file == "/src/spawner.cpp");
    CHECK(site->line == 12);
}

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <chrono>
#include <thread>

#include "memtracer/symbolizer/progress.h"

TEST_CASE("symbolizer: Progress: a redrawn bar with rate and ETA on a terminal - plain lines in a log", "[progress]") {
    auto capture = [](Progress::Style style, auto body) {
        FILE *f = tmpfile();
        {
            Progress p(style, f);
            body(p);
        }
        std::string out;
        rewind(f);
        for (int c; (c = fgetc(f)) != EOF;) out += static_cast<char>(c);
        fclose(f);
        return out;
    };
    std::string bar = capture(Progress::Style::Bar, [](Progress &p) {
        std::atomic<uint64_t> done{0};
        Progress::Phase phase(p, "symbolize", 1000, done);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // some time passes: a rate
        done = 250;
        phase.tick();
        done = 1000;
    });
    CHECK(bar.find("\rsymbolize: [#######.....................]  25% 250/1000 addresses") != std::string::npos);
    CHECK(bar.find("/s, ETA ") != std::string::npos);
    CHECK(bar.find("\033[K") != std::string::npos);
    CHECK(bar.find("] 100% 1000/1000 addresses") != std::string::npos);  // the final line
    CHECK(bar.back() == '\n');

    std::string lines = capture(Progress::Style::Lines, [](Progress &p) {
        std::atomic<uint64_t> done{0};
        Progress::Phase phase(p, "symbolize", 1000, done);
        done = 1000;
        p.message("a warning");
    });
    CHECK(lines.find('\r') == std::string::npos);
    CHECK(lines.find("\033[") == std::string::npos);
    CHECK(lines.find("a warning\n") != std::string::npos);
    CHECK(lines.find("symbolize: 100% 1000/1000 addresses") != std::string::npos);
    CHECK(Progress::human(1234567) == "1.2M");
    CHECK(Progress::duration(125) == "2m05s");
}
