// MethodMap.tsv and LineNumberMappings.json: Unity's formats, lookups, and clear errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <sys/stat.h>
#include <vector>

#include "memtracer/symbolizer/errors.h"
#include "il2cpp_symbols.h"
#include "support.h"

using namespace mt::sym;

namespace {

// As il2cpp writes it: SerializeToJson's layout (one entry per line, "cppLine" : csLine).
const char *kLineMap = R"({
"C:\\build\\il2cppOutput\\Assembly-CSharp.cpp" : {
"C:\\game\\Assets\\NodeFactory.cs" : {
"100" : 12,
"104" : 13,
"110" : 15
},
"C:\\game\\Assets\\Spawner.cs" : {
"200" : 40
}
},
"/b/il2cppOutput/Generics.cpp" : {
"/game/Assets/List.cs" : {
"7" : 3
}
}
}
)";

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const Error &e) {
        CHECK(e.code == ExitCode::Symbols);
        return e.what();
    }
    FAIL("no error");
    return "";
}

}  // namespace

TEST_CASE("symbolizer: MethodMap.tsv gives full C# names", "[il2cpp]") {
    auto m = MethodMap::parse(
        "NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12\tGame.Node Game.NodeFactory::CreateNode(System.Int32)\tAssembly-CSharp\n"
        "List_1_Add_m7A5E2B1C9D8F0E3A4B5C6D7E8F9A0B1C2D3E4F5A_gshared\tSystem.Void System.Collections.Generic.List`1<System.Object>::Add(!0)\tmscorlib\r\n"
        "Outer_Run_m0123456789ABCDEF0123456789ABCDEF01234567\tSystem.Void Game.Outer/Inner::Run()\tAssembly-CSharp\n"
        "NULL\tSystem.Void Game.Abstract::Nothing()\tAssembly-CSharp\n"
        "\n",
        "MethodMap.tsv");
    CHECK(m.size() == 3);
    REQUIRE(m.csharp_name("NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12"));
    CHECK(*m.csharp_name("NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12") ==
          "Game.NodeFactory.CreateNode(System.Int32)");
    CHECK(*m.csharp_name("List_1_Add_m7A5E2B1C9D8F0E3A4B5C6D7E8F9A0B1C2D3E4F5A_gshared") ==
          "System.Collections.Generic.List`1<System.Object>.Add(!0)");
    CHECK(*m.csharp_name("Outer_Run_m0123456789ABCDEF0123456789ABCDEF01234567") == "Game.Outer.Inner.Run()");
    // An _inline copy is the method (il2cpp never lists the copies).
    REQUIRE(m.csharp_name("Outer_Run_m0123456789ABCDEF0123456789ABCDEF01234567_inline"));
    CHECK(*m.csharp_name("Outer_Run_m0123456789ABCDEF0123456789ABCDEF01234567_inline") == "Game.Outer.Inner.Run()");
    CHECK(m.csharp_name("NULL") == nullptr);
    CHECK(m.csharp_name("unknown") == nullptr);
}

TEST_CASE("symbolizer: Malformed MethodMap.tsv names file and line", "[il2cpp]") {
    std::string e = error_of([] { MethodMap::parse("A_B_m0123\tSystem.Void A::B()\tAsm\nbroken line\n", "Symbols/MethodMap.tsv"); });
    CHECK(e.find("Symbols/MethodMap.tsv:2:") == 0);
    CHECK(e.find("3 tab-separated fields") != std::string::npos);
    e = error_of([] { MethodMap::parse("A_B_m0123\tnot a method\tAsm\n", "MethodMap.tsv"); });
    CHECK(e.find("MethodMap.tsv:1:") == 0);
}

TEST_CASE("symbolizer: LineNumberMappings.json maps C++ lines to C# lines", "[il2cpp]") {
    auto lm = LineMap::parse(kLineMap, "LineNumberMappings.json");
    CHECK(lm.cpp_files() == 2);
    const std::string cpp = "C:\\build\\il2cppOutput\\Assembly-CSharp.cpp";
    // Greatest C++ line at or below the one looked up, across every C# file of that C++ file.
    CHECK(lm.lookup(cpp, 100) == CsLocation{"C:\\game\\Assets\\NodeFactory.cs", 12});
    CHECK(lm.lookup(cpp, 103) == CsLocation{"C:\\game\\Assets\\NodeFactory.cs", 12});
    CHECK(lm.lookup(cpp, 104) == CsLocation{"C:\\game\\Assets\\NodeFactory.cs", 13});
    CHECK(lm.lookup(cpp, 150) == CsLocation{"C:\\game\\Assets\\NodeFactory.cs", 15});
    CHECK(lm.lookup(cpp, 250) == CsLocation{"C:\\game\\Assets\\Spawner.cs", 40});
    CHECK_FALSE(lm.lookup(cpp, 99));
    // The build machine's path differs from the DWARF's: same file name, longest common suffix.
    CHECK(lm.lookup("/Users/ci/proj/il2cppOutput/Assembly-CSharp.cpp", 110) == CsLocation{"C:\\game\\Assets\\NodeFactory.cs", 15});
    CHECK(lm.lookup("/x/Generics.cpp", 9) == CsLocation{"/game/Assets/List.cs", 3});
    CHECK_FALSE(lm.lookup("/x/Other.cpp", 9));
}

TEST_CASE("symbolizer: Malformed LineNumberMappings.json names file - line and column", "[il2cpp]") {
    std::string e = error_of([] { LineMap::parse("{\n\"a.cpp\" : {\n\"a.cs\" : {\n\"12\" : x\n}}}", "LNM.json"); });
    CHECK(e.rfind("LNM.json:4:8: ", 0) == 0);
    e = error_of([] { LineMap::parse("{\n\"a.cpp\" : {\n\"a.cs\" : {\n\"twelve\" : 3\n}}}", "LNM.json"); });
    CHECK(e.rfind("LNM.json:4:1: ", 0) == 0);
    CHECK(e.find("\"twelve\" is not a line number") != std::string::npos);
    e = error_of([] { LineMap::parse("{\"a.cpp\" : {\"a.cs\" : {\"1\" : 2}}", "LNM.json"); });
    CHECK(e.find("before the end of the file") != std::string::npos);
    e = error_of([] { LineMap::parse("{} trailing", "LNM.json"); });
    CHECK(e.rfind("LNM.json:1:4: ", 0) == 0);
}

TEST_CASE("symbolizer: --il2cpp-symbols finds both files in DIR or DIR/Symbols", "[il2cpp]") {
    mt::test::TempDir d;
    std::filesystem::create_directories(d.file("Symbols"));
    mt::test::write_file(d.file("MethodMap.tsv"), "X_Y_m0123\tSystem.Void X::Y()\tAsm\n");
    mt::test::write_file(d.file("Symbols/LineNumberMappings.json"), kLineMap);
    auto s = Il2CppSymbols::load_dir(d.path);
    REQUIRE(s.methods);
    REQUIRE(s.lines);
    CHECK(*s.methods->csharp_name("X_Y_m0123") == "X.Y()");
    mt::test::TempDir empty;
    CHECK(error_of([&] { Il2CppSymbols::load_dir(empty.path); }).find("no MethodMap.tsv, LineNumberMappings.json, generated *.cpp or global-metadata.dat") != std::string::npos);
}

TEST_CASE("symbolizer: a FIFO, /dev/zero or a directory as global-metadata.dat or LineNumberMappings.json is named, not skipped (issue 21)",
          "[il2cpp]") {
    struct Case {
        const char *file;
        const char *kind;
        std::function<void(const std::string &)> make;
    };
    std::vector<Case> cases = {
        {"global-metadata.dat", "is a FIFO (named pipe)", [](const std::string &p) { REQUIRE(mkfifo(p.c_str(), 0600) == 0); }},
        {"global-metadata.dat", "is a character device",
         [](const std::string &p) { std::filesystem::create_symlink("/dev/zero", p); }},
        {"global-metadata.dat", "is a directory", [](const std::string &p) { std::filesystem::create_directories(p); }},
        {"LineNumberMappings.json", "is a FIFO (named pipe)", [](const std::string &p) { REQUIRE(mkfifo(p.c_str(), 0600) == 0); }},
        {"LineNumberMappings.json", "is a character device",
         [](const std::string &p) { std::filesystem::create_symlink("/dev/zero", p); }},
        {"LineNumberMappings.json", "is a directory", [](const std::string &p) { std::filesystem::create_directories(p); }},
    };
    for (const Case &c : cases) {
        INFO(c.file << " " << c.kind);
        mt::test::TempDir d;
        mt::test::write_file(d.file("MethodMap.tsv"), "X_Y_m0123\tSystem.Void X::Y()\tAsm\n");
        c.make(d.file(c.file));
        // Returns (a FIFO is never opened, so nothing hangs) with an error naming the path.
        std::string e = error_of([&] { Il2CppSymbols::load_dir(d.path); });
        CHECK(e.find(d.file(c.file) + " " + c.kind) != std::string::npos);
    }
}
