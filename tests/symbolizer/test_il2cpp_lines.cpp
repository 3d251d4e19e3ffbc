// C# lines bounded by the generated function, on an iOS-export-shaped fixture
// (fixtures/ios_export: generated C++ in il2cpp's 2022.3/6000.x form, LineNumberMappings.json
// keyed by its //<source_info> lines under a Windows build-machine path with spaces).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "memtracer/symbolizer/errors.h"
#include "il2cpp_sources.h"
#include "il2cpp_symbols.h"
#include "support.h"
#include "symbolize_pass.h"

using namespace mt::sym;

namespace {

const std::string kExport = std::string(MT_FIXTURE_SRC) + "/ios_export";
const std::string kOutput = kExport + "/Il2CppOutputProject/Source/il2cppOutput";
const std::string kCpp = kOutput + "/Assembly-CSharp.cpp";
// Where Xcode compiled it on the Mac that built the app: another root than the Windows editor's.
const std::string kDwarfCpp = "/Users/ci/builds/My Game/Il2CppOutputProject/Source/il2cppOutput/Assembly-CSharp.cpp";
const std::string kSpawner = "C:/Users/dev/My Game/Assets/Scripts/Spawner.cs";
const std::string kSession = "C:/Users/dev/My Game/Assets/Net/Session_ME.cs";

std::string read(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The 1-based line of the n-th (1-based) line containing `needle`.
uint32_t line_of(const std::string &needle, int n = 1) {
    std::istringstream in(read(kCpp));
    std::string line;
    for (uint32_t no = 1; std::getline(in, line); ++no)
        if (line.find(needle) != std::string::npos && --n == 0) return no;
    FAIL("not in the fixture: " << needle);
    return 0;
}

}  // namespace

TEST_CASE("symbolizer: generated sources give each function's lines and Method Definition Index", "[il2cpp]") {
    auto src = GeneratedSources::scan_dir(kOutput);
    CHECK(src.files() == 1);
    CHECK(src.functions() == 7);
    const GeneratedFunction *f = src.function_named("Spawner_MakeLabel_mAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    REQUIRE(f);
    CHECK(f->method_index == 101);
    CHECK(f->first_line == line_of("Spawner_MakeLabel_mAAAA", 1));
    CHECK(src.function_at(kDwarfCpp, line_of("_stringLiteralAAAA", 2)) == f);
    CHECK(src.function_at(kDwarfCpp, f->last_line) == f);
    CHECK(src.function_at(kDwarfCpp, f->last_line + 1) != f);
    const GeneratedFunction *inl = src.function_named("U3CRunU3Ed__3__ctor_m8888888888888888888888888888888888888888_inline");
    REQUIRE(inl);
    CHECK(inl->method_index == -1);  // an _inline copy carries no index
    CHECK(src.function_at(kDwarfCpp, line_of("#include")) == nullptr);
    CHECK(src.is_type("Session_ME"));
    CHECK(src.is_type("_SkipUntil"));
    CHECK_FALSE(src.is_type("Session"));
}

TEST_CASE("symbolizer: a C++ line maps to a C# line of its own method only", "[il2cpp]") {
    auto s = Il2CppSymbols::load_dir(kExport);
    REQUIRE(s.lines);
    REQUIRE(s.sources);
    // The string-literal setup above MakeLabel's first mapping: MakeLabel's first line, where the
    // file-wide rule took Spawn's `return` (Spawner.cs:22).
    uint32_t literal_init = line_of("il2cpp_codegen_initialize_runtime_metadata((uintptr_t*)&_stringLiteral");
    CHECK(s.lines->lookup(kDwarfCpp, literal_init) == CsLocation{kSpawner, 22});  // the old, unbounded answer
    CHECK(s.cs_location(kDwarfCpp, literal_init) == CsLocation{kSpawner, 27});
    // A coroutine stub without sequence points allocates its state machine: no C# line, not the
    // line of the method above.
    uint32_t stub_new = line_of("il2cpp_codegen_object_new(U3CRunU3Ed__3");
    CHECK(s.lines->lookup(kDwarfCpp, stub_new) == CsLocation{kSpawner, 28});
    CHECK_FALSE(s.cs_location(kDwarfCpp, stub_new));
    // Nearest mapping above, inside the method; across IL labels and blocks.
    CHECK(s.cs_location(kDwarfCpp, line_of("il2cpp_codegen_object_new(Spawner")) == CsLocation{kSpawner, 21});
    CHECK(s.cs_location(kDwarfCpp, line_of("L_1 = GameObject_AddComponent")) == CsLocation{kSession, 42});
    CHECK(s.cs_location(kDwarfCpp, line_of("goto IL_0010")) == CsLocation{kSession, 40});
    // Session_ME's metadata initialization: its own first line (another .cs file than the method above).
    CHECK(s.cs_location(kDwarfCpp, line_of("AddComponent_TisAudioSource_t5555555555555555555555555555555555555555_m7777777777777777777777777777777777777777_RuntimeMethod_var);")) ==
          CsLocation{kSession, 40});
    // Package sources keep Unity's package-relative path.
    CHECK(s.cs_location(kDwarfCpp, line_of("Object__ctor_mB68266C2C0BD1B45A70E26D84D25C20669E47078(__this, NULL);")) ==
          CsLocation{"./Library/PackageCache/com.cysharp.unitask@2.5.10/Runtime/Linq/SkipUntil.cs", 13});
    // An _inline copy: its own mappings only, a line above them its first.
    CHECK(s.cs_location(kDwarfCpp, line_of("Object__ctor_mB68266C2C0BD1B45A70E26D84D25C20669E47078(__this, NULL);", 2)) ==
          CsLocation{kSpawner, 30});
    // Outside every function: nothing.
    CHECK_FALSE(s.cs_location(kDwarfCpp, line_of("#pragma clang diagnostic pop")));
    // A C++ file the sources do not hold keeps the file-wide rule.
    CHECK(s.cs_location("/elsewhere/Other.cpp", 10) == std::nullopt);
}

TEST_CASE("symbolizer: the symbol pass stores the bounded C# line", "[il2cpp]") {
    auto s = Il2CppSymbols::load_dir(kExport);
    Enricher e(&s);
    SourceFrame f{"Spawner_MakeLabel_mAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", kDwarfCpp,
                  line_of("il2cpp_codegen_initialize_runtime_metadata((uintptr_t*)&_stringLiteral"), 3};
    SymbolRow r = e.row(std::move(f));
    CHECK(r.cs_file == kSpawner);
    CHECK(r.cs_line == 27);
    // Names: the sources know Session_ME and _SkipUntil are types.
    SymbolRow s2 = e.row({"Session_ME_connect_mCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", kDwarfCpp,
                          line_of("L_1 = GameObject_AddComponent"), 3});
    CHECK(s2.csharp == "Session_ME.connect");
    CHECK(s2.cs_file == kSession);
    CHECK(s2.cs_line == 42);
    CHECK(e.row({"_SkipUntil__ctor_mDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD", kDwarfCpp, 0, 0}).csharp == "_SkipUntil..ctor");
}

TEST_CASE("symbolizer: only Symbols/ kept - lines bounded by the function's DWARF declaration line", "[il2cpp]") {
    // The function's first line, as DWARF gives it (DW_AT_decl_line: the signature line).
    auto sources = Il2CppSymbols::load_dir(kExport);
    const GeneratedFunction *label = sources.sources->function_named("Spawner_MakeLabel_mAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    REQUIRE(label != nullptr);
    mt::test::TempDir d;
    std::filesystem::create_directories(d.file("Symbols"));
    std::filesystem::copy_file(kOutput + "/Symbols/LineNumberMappings.json", d.file("Symbols/LineNumberMappings.json"));
    auto s = Il2CppSymbols::load_dir(d.file("Symbols"));
    REQUIRE_FALSE(s.sources);
    uint32_t literal_init = line_of("il2cpp_codegen_initialize_runtime_metadata((uintptr_t*)&_stringLiteral");
    uint32_t concat = line_of("String_Concat_m58F15AA300D234EF20087E0330BD0C4A90CBD098(");
    // File-wide, the string-literal setup above MakeLabel's first mapping takes the method
    // above's last line; bounded by MakeLabel's declaration line it takes none of another method.
    std::optional<CsLocation> file_wide = s.cs_location(kDwarfCpp, literal_init);
    REQUIRE(file_wide);
    CHECK_FALSE(*file_wide == CsLocation{kSpawner, 27});
    CHECK_FALSE(s.cs_location(kDwarfCpp, literal_init, label->first_line));
    // After the first mapping: the nearest one above, as with the sources.
    CHECK(s.cs_location(kDwarfCpp, concat, label->first_line) == sources.cs_location(kDwarfCpp, concat));
    // Through the symbol pass: the frame's function_line reaches the lookup.
    Enricher e(&s);
    SourceFrame f{"Spawner_MakeLabel_mAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", kDwarfCpp, literal_init, 3, label->first_line};
    SymbolRow r = e.row(std::move(f));
    CHECK(r.cs_file.empty());
    CHECK(r.cs_line == 0);
}

TEST_CASE("symbolizer: --il2cpp-symbols takes the export root - il2cppOutput or Symbols", "[il2cpp]") {
    for (const std::string &dir : {kExport, kOutput, kOutput + "/Symbols"}) {
        INFO(dir);
        auto s = Il2CppSymbols::load_dir(dir);
        REQUIRE(s.lines);
        REQUIRE(s.sources);  // Symbols/ alone: the sources are in its parent
        CHECK(s.sources->functions() == 7);
        CHECK(std::filesystem::equivalent(s.output_dir, kOutput));
    }
    // A copy of Symbols/ alone still maps lines, file-wide.
    mt::test::TempDir d;
    std::filesystem::create_directories(d.file("Symbols"));
    std::filesystem::copy_file(kOutput + "/Symbols/LineNumberMappings.json", d.file("Symbols/LineNumberMappings.json"));
    auto s = Il2CppSymbols::load_dir(d.file("Symbols"));
    CHECK_FALSE(s.sources);
    REQUIRE(s.lines);
    CHECK(s.cs_location(kDwarfCpp, line_of("il2cpp_codegen_object_new(Spawner")) == CsLocation{kSpawner, 21});
}

TEST_CASE("symbolizer: LineNumberMappings.json bounded by the function - the JSON first, the comments without it", "[il2cpp]") {
    auto s = Il2CppSymbols::load_dir(kExport);
    REQUIRE(s.lines);
    auto bounded = [&](uint32_t line) -> std::optional<CsLocation> {
        const GeneratedFunction *fn = s.sources->function_at(kDwarfCpp, line);
        if (!fn) return std::nullopt;
        LineBounds b{fn->first_line, fn->last_line};
        return s.lines->lookup(kDwarfCpp, line, &b);
    };
    // The JSON alone, bounded: the same answers as the comments.
    uint32_t literal_init = line_of("il2cpp_codegen_initialize_runtime_metadata((uintptr_t*)&_stringLiteral");
    CHECK(bounded(literal_init) == CsLocation{kSpawner, 27});
    CHECK_FALSE(bounded(line_of("il2cpp_codegen_object_new(U3CRunU3Ed__3")));
    CHECK(bounded(line_of("goto IL_0010")) == CsLocation{kSession, 40});

    // A JSON one line off the comments (as seen in a real 2022.3 export): the JSON is what Unity's
    // own tools read, so it wins (issue 19).
    namespace fs = std::filesystem;
    mt::test::TempDir d;
    fs::copy(kOutput, d.path, fs::copy_options::recursive);
    std::string json = read(d.file("Symbols/LineNumberMappings.json"));
    for (auto [from, to] : {std::pair{"\"51\" : 27", "\"50\" : 27"}, std::pair{"\"54\" : 28", "\"53\" : 28"}}) {
        size_t at = json.find(from);
        REQUIRE(at != std::string::npos);
        json.replace(at, std::string(from).size(), to);
    }
    mt::test::write_file(d.file("Symbols/LineNumberMappings.json"), json);
    auto shifted = Il2CppSymbols::load_dir(d.path);
    uint32_t concat = line_of("String_Concat_m58F15AA300D234EF20087E0330BD0C4A90CBD098(");
    CHECK(line_of("Spawner.cs:28>") == 54);  // the fixture as the JSON above assumes it
    CHECK(shifted.lines->lookup(kDwarfCpp, 53) == CsLocation{kSpawner, 28});
    CHECK(shifted.sources->cs_location(kDwarfCpp, 53) == CsLocation{kSpawner, 27});  // the comments say 27
    CHECK(shifted.cs_location(kDwarfCpp, 53) == CsLocation{kSpawner, 28});
    CHECK(shifted.cs_location(kDwarfCpp, 52) == CsLocation{kSpawner, 27});
    CHECK(shifted.cs_location(kDwarfCpp, concat) == CsLocation{kSpawner, 28});
    // Still bounded by the function: the line of the method above is never taken.
    CHECK(shifted.cs_location(kDwarfCpp, literal_init) == CsLocation{kSpawner, 27});
    // Sources without LineNumberMappings.json still give lines.
    fs::remove(d.file("Symbols/LineNumberMappings.json"));
    auto only_sources = Il2CppSymbols::load_dir(d.path);
    CHECK_FALSE(only_sources.lines);
    CHECK(only_sources.cs_location(kDwarfCpp, literal_init) == CsLocation{kSpawner, 27});
}
