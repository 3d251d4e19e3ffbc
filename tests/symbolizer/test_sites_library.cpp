// Allocation sites skip library code (BCL and engine C# compiled by IL2CPP) when the game's own
// code is further out, and fall back to it when a stack is library code only.
#include "names.h"
#include "sites.h"

#include <catch2/catch.hpp>

#include <vector>

using mt::sym::SymbolRow;

namespace {

SymbolRow frame(const char *function, const char *file) {
    SymbolRow r;
    r.function = function;
    r.csharp = mt::sym::il2cpp_csharp_name(function);  // as the symbolizer stores it
    r.file = file;
    r.line = 7;
    return r;
}

}  // namespace

TEST_CASE("symbolizer: library files are recognised by their assembly name") {
    for (const char *file : {"/b/il2cppOutput/mscorlib.cpp", "mscorlib12.cpp", "/x/System.Core.cpp", "System.cpp",
                             "UnityEngine.CoreModule.cpp", "Unity.Collections.cpp", "Generics3.cpp",
                             "GenericMethods0.cpp", "C:\\\\out\\\\mscorlib_Dictionary.inl"}) {
        INFO(file);
        CHECK(mt::sym::is_library(frame("f", file)));
    }
    for (const char *file : {"Assembly-CSharp.cpp", "Assembly-CSharp1.cpp", "SystemShock.cpp", "UnityChan.cpp",
                             "MonoBehaviourHelpers.cpp", "Generic.cpp", ""}) {
        INFO(file);
        CHECK_FALSE(mt::sym::is_library(frame("f", file)));
    }
}

TEST_CASE("symbolizer: a site skips library frames only when game code is further out") {
    const std::vector<SymbolRow> bcl = {frame("String_FastAllocateString_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12", "/o/mscorlib.cpp")};
    const std::vector<SymbolRow> game = {frame("Enemy_UpdateLabel_m72145ADDB949F121912EEA2AAB5138ADEAF80EE4", "/o/Assembly-CSharp.cpp")};
    CHECK_FALSE(mt::sym::game_site(bcl, false).has_value());
    REQUIRE(mt::sym::game_site(bcl, true).has_value());
    CHECK(mt::sym::game_site(bcl, true)->function == "String.FastAllocateString");
    REQUIRE(mt::sym::game_site(game, false).has_value());
    CHECK(mt::sym::game_site(game, false)->function == "Enemy.UpdateLabel");
}
