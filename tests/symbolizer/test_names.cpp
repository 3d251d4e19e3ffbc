// Names: C++ demangling and the C# names behind IL2CPP function names.
#include <catch2/catch.hpp>

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
        {"_NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12", "NodeFactory.CreateNode"},  // Mach-O symtab
    };
    for (const Case &c : cases) {
        INFO(c.raw);
        CHECK(il2cpp_csharp_name(c.raw) == c.csharp);
    }
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

#include "progress.h"

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
