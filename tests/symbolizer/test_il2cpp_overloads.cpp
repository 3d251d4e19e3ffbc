// Names when the generated sources carry no `// Method Definition Index` comments (an export made
// without source mapping, issue 19): the binary's code registration links each function to its
// metadata method even with the sources at hand, overloads get their parameter types from the
// generated signatures, and the `_inline` and `_AdjustorThunk` copies of a method get its full
// name, also when a backend reports them by their mangled C++ name (DWARF's linkage name of an
// inlined `_inline` copy). The binary is fixtures/code_registration.c (built for x86_64 ELF), the
// metadata metadata_writer.h's, the sources written here in il2cpp's shape.
#include <catch2/catch.hpp>

#include <llvm/Object/ObjectFile.h>

#include <filesystem>
#include <map>

#include "backend.h"
#include "il2cpp_symbols.h"
#include "metadata_writer.h"
#include "object_info.h"
#include "support.h"
#include "symbol_addresses.h"
#include "symbolize_pass.h"

using namespace mt::sym;
using mt::test::MdMethod;
using mt::test::MdType;
using mt::test::MetadataLayout;

namespace {

const std::string kHash1 = "1111111111111111111111111111111111111111", kHash2 = "2222222222222222222222222222222222222222",
                  kHash3 = "3333333333333333333333333333333333333333", kHash4 = "4444444444444444444444444444444444444444";
const std::string kMoveNext1 = "Enumerator_MoveNext_m" + kHash1, kMoveNext2 = "Enumerator_MoveNext_m" + kHash2;
const std::string kSpawn3 = "Spawner_Spawn_m" + kHash3, kSpawn4 = "Spawner_Spawn_m" + kHash4;
const std::string kSpawner = "Spawner_t0000000000000000000000000000000000000005";
const std::string kEnumerator = "Enumerator_t0000000000000000000000000000000000000001";

// The token rows of code_registration.c's Assembly-CSharp module (row 1: Spawn_m4444, 3:
// MoveNext_m2222, 4: MoveNext_m1111, 5: Spawn_m3333): two Enumerator types and an overloaded
// Spawn, as in test_il2cpp_code_registration.cpp.
std::string metadata(MetadataLayout layout) {
    // Entries of the binary's type table (Il2CppType, not in the file): the by-value entries of
    // the types below from 100; 200 an array type, which the metadata cannot name.
    std::vector<MdType> types = {
        {"Inventory", "Game", {}, {1}}, {"Enumerator", "", {}, {}},
        {"Shop", "Game", {}, {3}},      {"Enumerator", "", {}, {}},
        {"Spawner", "Game", {}, {5}},   {"<>c", "", {}, {}},
        {"Inventory", "Game.Core", {}, {}},
        {"Int32", "System", {}, {}, 100}, {"String", "System", {}, {}, 101}, {"Mode", "Game", {}, {}, 102},
        {"IItem", "Game", {}, {}, 103},   {"Object", "System", {}, {}, 104}, {"Money", "Game", {}, {}, 105},
        {"Boolean", "System", {}, {}, 106}, {"Pool`1", "Game", {"T"}, {}}, {"Decimal", "System", {}, {}, 107},
    };
    std::vector<MdMethod> methods = {
        {"MoveNext", 1, {}, 4}, {"MoveNext", 3, {}, 3}, {"Spawn", 4, {}, 5, {100}}, {"Spawn", 4, {}, 1, {101}},
        {"<Start>b__5_0", 5, {}, 6}, {"Dispose", 4, {}, 2},
        {"Add", 6, {}, 2}, {"Remove", 6, {}, 1},
        // 8-13: overloads the C++ signature alone cannot tell apart: an enum (int32_t), an
        // interface (RuntimeObject*), conversion operators differing in their return type.
        {"Place", 4, {}, 0, {100, 200}}, {"Place", 4, {}, 0, {102, 200}},
        {"Give", 4, {}, 0, {103}},        {"Give", 4, {}, 0, {104}},
        {"op_Explicit", 12, {}, 0, {105}, 100}, {"op_Explicit", 12, {}, 0, {105}, 101},
        // 14-19: overloads of a generic type's shared code, which no method pointer table lists.
        {"Resize", 14, {}, 0, {}}, {"Resize", 14, {}, 0, {100, 106}}, {"Take", 14, {}, 0, {}}, {"Take", 14, {}, 0, {100}},
        {"Put", 14, {}, 0, {103}}, {"Put", 14, {}, 0, {104}},
        // 20-23: overloads neither the metadata nor the signature tells apart: `Decimal` and
        // `ref Decimal` (201, an entry of its own that il2cpp writes as Decimal_t*), two generic
        // instances (202, 203: IEnumerable<Exception> and IEnumerable<Object>, both RuntimeObject*).
        {"Truncate", 4, {}, 0, {107}}, {"Truncate", 4, {}, 0, {201}},
        {"Accept", 4, {}, 0, {202}},   {"Accept", 4, {}, 0, {203}},
        // 24-25: shared code's overloads, one of entries the metadata does not name (generic
        // instances), one of an interface and a struct.
        {"Make", 14, {}, 0, {202, 203}}, {"Make", 14, {}, 0, {103, 105}},
        // 26-28: shared code's overloads whose types fit alike (an interface and a generic
        // instance, both RuntimeObject*): their parameter names differ.
        {"Fill", 14, {}, 0, {103}, -1, {"item"}}, {"Fill", 14, {}, 0, {202}, -1, {"items"}},
        {"Fill", 14, {}, 0, {202}, -1, {"items"}},
        // 29-30: alike in types and names, one static (METHOD_ATTRIBUTE_STATIC 0x10), one not.
        {"Sort", 14, {}, 0, {202}, -1, {"keys"}, 0x0096}, {"Sort", 14, {}, 0, {202}, -1, {"keys"}, 0x0086},
    };
    return mt::test::write_global_metadata(layout, types, methods, {{"Assembly-CSharp.dll", 6}, {"Game.Core.dll", 1}});
}

// Assembly-CSharp.cpp as il2cpp writes it without --emit-source-mapping: no index comments, no
// source_info; a value type's method followed by its adjustor thunk, and an `_inline` copy.
std::string generated_cpp() {
    auto fn = [](const std::string &sig, const std::string &body) { return sig + "\n{\n" + body + "\n}\n"; };
    return "#include \"pch-cpp.hpp\"\n\n" +
           fn("IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Enumerator_MoveNext_m" + kHash1 + " (" + kEnumerator +
                  "* __this, const RuntimeMethod* method) ",
              "\treturn false;") +
           fn("IL2CPP_EXTERN_C  bool Enumerator_MoveNext_m" + kHash1 + "_AdjustorThunk (RuntimeObject* __this, const RuntimeMethod* method)",
              "\treturn Enumerator_MoveNext_m" + kHash1 + "(NULL, method);") +
           fn("IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR bool Enumerator_MoveNext_m" + kHash2 + " (" + kEnumerator +
                  "* __this, const RuntimeMethod* method) ",
              "\treturn true;") +
           fn("IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Spawn_m" + kHash3 + " (" + kSpawner +
                  "* __this, int32_t ___0_count, const RuntimeMethod* method) ",
              "\treturn;") +
           fn("IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Spawn_m" + kHash4 + " (" + kSpawner +
                  "* __this, String_t* ___0_name, const RuntimeMethod* method) ",
              "\treturn;") +
           fn("IL2CPP_MANAGED_FORCE_INLINE IL2CPP_METHOD_ATTR void Spawner_Spawn_m" + kHash3 + "_inline (" + kSpawner +
                  "* __this, int32_t ___0_count, const RuntimeMethod* method) ",
              "\treturn;");
}

// Methods 8-13 as il2cpp writes them with source mapping (index comments).
std::string indexed_cpp() {
    const std::string arr = "Int32U5BU5D_tCDB55FE6AB4E3C6E3D5F0F0F0F0F0F0F0F0F0F0F*";
    auto fn = [](int index, const std::string &sig) {
        return "// Method Definition Index: " + std::to_string(index) + "\n" + sig + " \n{\n\treturn;\n}\n";
    };
    return fn(8, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Place_mA000000000000000000000000000000000000000 (" + kSpawner +
                     "* __this, int32_t ___0_x, " + arr + " ___1_xs, const RuntimeMethod* method)") +
           fn(9, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Place_mB000000000000000000000000000000000000000 (" + kSpawner +
                     "* __this, int32_t ___0_mode, " + arr + " ___1_xs, const RuntimeMethod* method)") +
           fn(10, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Give_mC000000000000000000000000000000000000000 (" + kSpawner +
                      "* __this, RuntimeObject* ___0_item, const RuntimeMethod* method)") +
           fn(11, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Give_mD000000000000000000000000000000000000000 (" + kSpawner +
                      "* __this, RuntimeObject* ___0_o, const RuntimeMethod* method)") +
           fn(12, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t Money_op_Explicit_mE000000000000000000000000000000000000000 "
                  "(Money_t0000000000000000000000000000000000000009 ___0_m, const RuntimeMethod* method)") +
           fn(13, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t* Money_op_Explicit_mF000000000000000000000000000000000000000 "
                  "(Money_t0000000000000000000000000000000000000009 ___0_m, const RuntimeMethod* method)") +
           fn(20, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Truncate_m1A00000000000000000000000000000000000000 (" + kSpawner +
                      "* __this, Decimal_tA000000000000000000000000000000000000001 ___0_d, const RuntimeMethod* method)") +
           fn(21, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Truncate_m1B00000000000000000000000000000000000000 (" + kSpawner +
                      "* __this, Decimal_tA000000000000000000000000000000000000001* ___0_d, const RuntimeMethod* method)") +
           fn(22, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Accept_m1C00000000000000000000000000000000000000 (" + kSpawner +
                      "* __this, RuntimeObject* ___0_xs, const RuntimeMethod* method)") +
           fn(23, "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Spawner_Accept_m1D00000000000000000000000000000000000000 (" + kSpawner +
                      "* __this, RuntimeObject* ___0_xs, const RuntimeMethod* method)");
}


}  // namespace

TEST_CASE("symbolizer: sources without index comments - code registration names overloads, inline copies and thunks",
          "[il2cpp][metadata]") {
    for (MetadataLayout layout : {MetadataLayout::V24_2019, MetadataLayout::V29, MetadataLayout::V31}) {
        INFO("layout " << static_cast<int>(layout));
        Il2CppSymbols s;
        s.metadata = Il2CppMetadata::parse(metadata(layout), "global-metadata.dat");
        s.sources.emplace();
        s.sources->add_file("/Users/ci/il2cppOutput/Assembly-CSharp.cpp", generated_cpp());
        REQUIRE(s.sources->functions() == 6);
        // Before the binary is read: the overload whose metadata parameters fit the signature;
        // the two Enumerator types both fit `MoveNext()`, so the metadata gives no name.
        CHECK(s.csharp_name(kSpawn3) == "Game.Spawner.Spawn(Int32)");
        CHECK(s.csharp_name(kMoveNext1).empty());

        CHECK(s.add_code_registration(mt::test::fixture("codereg/x86_64/libil2cpp.so")) == 6);
        CHECK(s.csharp_name(kSpawn3) == "Game.Spawner.Spawn(Int32)");
        CHECK(s.csharp_name(kSpawn4) == "Game.Spawner.Spawn(String)");
        CHECK(s.csharp_name(kMoveNext1) == "Game.Inventory.Enumerator.MoveNext");
        CHECK(s.csharp_name(kMoveNext2) == "Game.Shop.Enumerator.MoveNext");
        // The copies: named as their method, nesting and overload included.
        CHECK(s.csharp_name(kMoveNext1 + "_AdjustorThunk") == "Game.Inventory.Enumerator.MoveNext");
        CHECK(s.csharp_name(kSpawn3 + "_inline") == "Game.Spawner.Spawn(Int32)");
        // As a DWARF backend reports an inlined `_inline` copy (C++ linkage: its mangled name), with
        // Mach-O's extra '_' or demangled.
        const std::string mangled = "_Z62" + kSpawn3 + "_inlineP9Spawner_tiPK13RuntimeMethod";
        CHECK(s.csharp_name(mangled) == "Game.Spawner.Spawn(Int32)");
        CHECK(s.csharp_name("_" + mangled) == "Game.Spawner.Spawn(Int32)");
        CHECK(s.csharp_name(kSpawn3 + "_inline(Spawner_t*, int, RuntimeMethod const*)") == "Game.Spawner.Spawn(Int32)");
        Enricher e(&s);
        CHECK(e.row({mangled, "/Users/ci/il2cppOutput/Assembly-CSharp.cpp", 30, 0}).csharp == "Game.Spawner.Spawn(Int32)");
    }
}

TEST_CASE("symbolizer: sources without index comments, binary and metadata - overloads apart through the command line",
          "[il2cpp][metadata][cli]") {
    namespace fs = std::filesystem;
    const std::string so = mt::test::fixture("codereg/x86_64/libil2cpp.so");
    auto addr = mt::test::symbol_addresses(so);
    const uint64_t load = 0x7f1200000000;
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_X86_64, MT_FILE_FLAG_AGGREGATE);
        w.module(0, MT_MODULE_ELF, "/data/app/com.game/lib/arm64/libil2cpp.so", load, 0x10000, load, 0, mt::test::elf_build_id(so));
        w.thread(0, 1, "main");
        w.klass(0, "Node", "Game");
        w.stack(0, {addr.at(kSpawn3) + 4 + load, addr.at(kSpawn4) + 4 + load, addr.at(kMoveNext2) + 4 + load});
        w.aggregate_frame(0, {{0, 0, 1, 64, 64, 1}});
        w.end();
        w.flush();
    }
    // A Gradle export's layout: generated sources and metadata, no source mapping.
    const std::string main = d.file("unityLibrary/src/main");
    fs::create_directories(main + "/Il2CppOutputProject/Source/il2cppOutput");
    mt::test::write_file(main + "/Il2CppOutputProject/Source/il2cppOutput/Assembly-CSharp.cpp", generated_cpp());
    fs::create_directories(main + "/assets/bin/Data/Managed/Metadata");
    mt::test::write_file(main + "/assets/bin/Data/Managed/Metadata/global-metadata.dat", metadata(MetadataLayout::V31));
    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--elf", so, "--il2cpp-symbols", d.path, "-o", d.file("run.db")}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    auto rows = mt::test::query(d.file("run.db"), "SELECT s.csharp FROM stack_frames f JOIN symbols s USING(addr_id) "
                                                  "WHERE s.depth = 0 ORDER BY f.pos");
    REQUIRE(rows.size() == 3);
    CHECK(rows[0][0] == "Game.Spawner.Spawn(Int32)");
    CHECK(rows[1][0] == "Game.Spawner.Spawn(String)");
    CHECK(rows[2][0] == "Game.Shop.Enumerator.MoveNext");
}

TEST_CASE("symbolizer: overloads told apart by the metadata's parameter types - enums, interfaces, return types",
          "[il2cpp][metadata]") {
    for (MetadataLayout layout : {MetadataLayout::V24_2018, MetadataLayout::V24_2019, MetadataLayout::V27, MetadataLayout::V31}) {
        INFO("layout " << static_cast<int>(layout));
        Il2CppSymbols s;
        s.metadata = Il2CppMetadata::parse(metadata(layout), "global-metadata.dat");
        REQUIRE(s.metadata->parameter_types(8) == std::vector<std::string>{"Int32", ""});
        CHECK(s.metadata->return_type(12) == "Int32");
        CHECK(s.metadata->differs_by_return_only(12));
        CHECK_FALSE(s.metadata->differs_by_return_only(8));
        s.sources.emplace();
        s.sources->add_file("/Users/ci/il2cppOutput/Assembly-CSharp.cpp", indexed_cpp());
        // The signature alone would give Place(Int32, Int32[]) twice and Give(Object) twice.
        CHECK(s.csharp_name("Spawner_Place_mA000000000000000000000000000000000000000") == "Game.Spawner.Place(Int32, Int32[])");
        CHECK(s.csharp_name("Spawner_Place_mB000000000000000000000000000000000000000") == "Game.Spawner.Place(Mode, Int32[])");
        CHECK(s.csharp_name("Spawner_Give_mC000000000000000000000000000000000000000") == "Game.Spawner.Give(IItem)");
        CHECK(s.csharp_name("Spawner_Give_mD000000000000000000000000000000000000000") == "Game.Spawner.Give(Object)");
        CHECK(s.csharp_name("Money_op_Explicit_mE000000000000000000000000000000000000000") == "Game.Money.op_Explicit(Money) : Int32");
        CHECK(s.csharp_name("Money_op_Explicit_mF000000000000000000000000000000000000000") == "Game.Money.op_Explicit(Money) : String");
        // Alike by their parameters in both: told apart by their place among the overloads.
        CHECK(s.metadata->overload_number(8) == 0);
        CHECK(s.metadata->overload_number(12) == 0);
        CHECK(s.csharp_name("Spawner_Truncate_m1A00000000000000000000000000000000000000") == "Game.Spawner.Truncate(Decimal)#1");
        CHECK(s.csharp_name("Spawner_Truncate_m1B00000000000000000000000000000000000000") == "Game.Spawner.Truncate(Decimal)#2");
        CHECK(s.csharp_name("Spawner_Accept_m1C00000000000000000000000000000000000000") == "Game.Spawner.Accept(Object)#1");
        CHECK(s.csharp_name("Spawner_Accept_m1D00000000000000000000000000000000000000") == "Game.Spawner.Accept(Object)#2");

        // Binary and metadata only (no signature): what the metadata names, `?` for the rest.
        Il2CppSymbols bare;
        bare.metadata = s.metadata;
        bare.registered_methods = {{"Spawner_Place_mA000000000000000000000000000000000000000", 8},
                                   {"Spawner_Place_mB000000000000000000000000000000000000000", 9}};
        CHECK(bare.csharp_name("Spawner_Place_mA000000000000000000000000000000000000000") == "Game.Spawner.Place(Int32, ?)");
        CHECK(bare.csharp_name("Spawner_Place_mB000000000000000000000000000000000000000") == "Game.Spawner.Place(Mode, ?)");
        bare.registered_methods = {{"Spawner_Truncate_m1A00000000000000000000000000000000000000", 20},
                                   {"Spawner_Truncate_m1B00000000000000000000000000000000000000", 21}};
        CHECK(bare.csharp_name("Spawner_Truncate_m1A00000000000000000000000000000000000000") == "Game.Spawner.Truncate(Decimal)#1");
        CHECK(bare.csharp_name("Spawner_Truncate_m1B00000000000000000000000000000000000000") == "Game.Spawner.Truncate(?)#2");
    }
}

TEST_CASE("symbolizer: binary and metadata only - overloads get the metadata's parameter types", "[il2cpp][metadata]") {
    Il2CppSymbols s;
    s.metadata = Il2CppMetadata::parse(metadata(MetadataLayout::V29), "global-metadata.dat");
    CHECK(s.add_code_registration(mt::test::fixture("codereg/arm64/libil2cpp.so")) == 6);
    CHECK(s.csharp_name(kSpawn3) == "Game.Spawner.Spawn(Int32)");
    CHECK(s.csharp_name(kSpawn4) == "Game.Spawner.Spawn(String)");
    CHECK(s.csharp_name(kMoveNext1 + "_AdjustorThunk") == "Game.Inventory.Enumerator.MoveNext");
}

TEST_CASE("symbolizer: a DWARF-inlined _inline copy gets its method's full name", "[il2cpp][metadata][elf]") {
    const std::string so = mt::test::fixture("libil2cpp_inline.so");
    ObjectInfo info = inspect_object(so);
    SymbolFile f;
    f.path = so;
    f.kind = info.kind;
    f.slice = info.slices.at(0);
    f.id_verified = true;
    const uint64_t run = mt::test::symbol_addresses(so).at("Spawner_Run_m7777777777777777777777777777777777777777");
    std::vector<uint64_t> addresses;
    for (uint64_t a = run; a < run + 48; ++a) addresses.push_back(a);
    auto records = make_backend({BackendKind::Builtin, 1, "", ""})->symbolize(f, addresses, {nullptr, nullptr});
    Il2CppSymbols s;
    s.metadata = Il2CppMetadata::parse(metadata(MetadataLayout::V31), "global-metadata.dat");
    s.registered_methods = {{kSpawn3, 2}};  // as the binary's code registration lists the method
    Enricher e(&s);
    int inlined = 0;
    for (SymbolRecord &r : records) {
        if (r.frames.size() < 2) continue;
        ++inlined;
        // The backend's name is the mangled linkage name, as on a real export's DWARF.
        CHECK(r.frames[0].function.starts_with("_Z"));
        CHECK(r.frames[0].function.find(kSpawn3 + "_inline") != std::string::npos);
        CHECK(e.row(std::move(r.frames[0])).csharp == "Game.Spawner.Spawn(Int32)");
    }
    CHECK(inlined > 0);
}

TEST_CASE("symbolizer: shared generic code without index comments - the overload whose parameters fit", "[il2cpp][metadata]") {
    Il2CppSymbols s;
    s.metadata = Il2CppMetadata::parse(metadata(MetadataLayout::V31), "global-metadata.dat");
    s.sources.emplace();
    const std::string pool = "Pool_1_t0000000000000000000000000000000000000014";
    auto fn = [&](const std::string &name, const std::string &params) {
        return "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void " + name + " (" + pool + "* __this, " + params +
               "const RuntimeMethod* method) \n{\n\treturn;\n}\n";
    };
    s.sources->add_file("/Users/ci/il2cppOutput/Generics.cpp",
                        fn("Pool_1_Resize_m1000000000000000000000000000000000000000_gshared", "") +
                        fn("Pool_1_Resize_m2000000000000000000000000000000000000000_gshared",
                           "int32_t ___0_newSize, bool ___1_forceNewHashCodes, ") +
                        // Full generic sharing returns its value through a trailing pointer: not a parameter.
                        fn("Pool_1_Take_m3000000000000000000000000000000000000000_gshared", "Il2CppFullySharedGenericAny* il2cppRetVal, ") +
                        // Put(IItem) and Put(Object) fit a fully shared T alike: no guess.
                        fn("Pool_1_Put_m4000000000000000000000000000000000000000_gshared", "Il2CppFullySharedGenericAny ___0_x, ") +
                        // Make(IEnumerable<T>, IEqualityComparer<T>) or Make(IItem, Money): as likely, no guess.
                        fn("Pool_1_Make_m6000000000000000000000000000000000000000_gshared", "RuntimeObject* ___0_a, RuntimeObject* ___1_b, ") +
                        // Shared code is a generic type's: Spawner's Spawn overloads are not candidates.
                        fn("Spawner_Spawn_m5000000000000000000000000000000000000000_gshared", "int32_t ___0_count, "));
    CHECK(s.csharp_name("Pool_1_Resize_m1000000000000000000000000000000000000000_gshared") == "Game.Pool<T>.Resize()");
    CHECK(s.csharp_name("Pool_1_Resize_m2000000000000000000000000000000000000000_gshared") == "Game.Pool<T>.Resize(Int32, Boolean)");
    CHECK(s.csharp_name("Pool_1_Take_m3000000000000000000000000000000000000000_gshared") == "Game.Pool<T>.Take()");
    CHECK(s.csharp_name("Pool_1_Put_m4000000000000000000000000000000000000000_gshared") == "Game.Pool<T>.Put");
    CHECK(s.csharp_name("Pool_1_Make_m6000000000000000000000000000000000000000_gshared") == "Game.Pool<T>.Make");
    CHECK(s.csharp_name("Spawner_Spawn_m5000000000000000000000000000000000000000_gshared") == "Game.Spawner.Spawn");
}

TEST_CASE("symbolizer: shared generic code without index comments - overloads alike in types, apart in parameter names",
          "[il2cpp][metadata]") {
    Il2CppSymbols s;
    s.metadata = Il2CppMetadata::parse(metadata(MetadataLayout::V29), "global-metadata.dat");
    s.sources.emplace();
    const std::string pool = "Pool_1_t0000000000000000000000000000000000000014";
    auto fn = [&](const std::string &name, const std::string &params) {
        return "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void " + name + " (" + pool + "* __this, " + params +
               "const RuntimeMethod* method) \n{\n\treturn;\n}\n";
    };
    const std::string item = "Pool_1_Fill_m7000000000000000000000000000000000000000_gshared",
                      items = "Pool_1_Fill_m8000000000000000000000000000000000000000_gshared",
                      older = "Pool_1_Fill_m9000000000000000000000000000000000000000_gshared",
                      other = "Pool_1_Fill_mA000000000000000000000000000000000000000_gshared";
    s.sources->add_file("/Users/ci/il2cppOutput/Generics.cpp",
                        fn(item, "RuntimeObject* ___0_item, ") + fn(items, "RuntimeObject* ___0_items, ") +
                        // Before 2022.3.2x il2cpp wrote the position after the name.
                        fn(older, "RuntimeObject* ___item1, ") + fn(other, "RuntimeObject* ___0_thing, "));
    CHECK(s.csharp_name(item) == "Game.Pool<T>.Fill(IItem)#1");  // 26 may read like 27 (an unnamed entry)
    CHECK(s.csharp_name(older) == "Game.Pool<T>.Fill(IItem)#1");
    // Two overloads alike in types and names (27, 28), and a name neither has: no guess.
    CHECK(s.csharp_name(items) == "Game.Pool<T>.Fill");
    CHECK(s.csharp_name(other) == "Game.Pool<T>.Fill");
    // Alike but for `static`: a signature without `__this` is the static one's.
    const std::string sort_static = "Pool_1_Sort_mB000000000000000000000000000000000000000_gshared",
                      sort_instance = "Pool_1_Sort_mC000000000000000000000000000000000000000_gshared";
    s.sources->add_file("/Users/ci/il2cppOutput/Generics__1.cpp",
                        "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void " + sort_static +
                            " (RuntimeObject* ___0_keys, const RuntimeMethod* method) \n{\n}\n" + fn(sort_instance, "RuntimeObject* ___0_keys, "));
    CHECK(s.csharp_name(sort_static).starts_with("Game.Pool<T>.Sort(Object)#"));
    CHECK(s.csharp_name(sort_instance).starts_with("Game.Pool<T>.Sort(Object)#"));
    CHECK(s.csharp_name(sort_static) != s.csharp_name(sort_instance));
}
