// Generic class instances' arguments from Il2CppTypeDefinitions.c and
// Il2CppGenericInstDefinitions.c: `Array.BinarySearch<KeyValuePair<Object, Int32>>`, not
// `Array.BinarySearch<KeyValuePair`2>`. The fixture lines are written in il2cpp's shape (see
// il2cpp_generic_types.h), with made-up hashes.
#include <catch2/catch.hpp>
#include <filesystem>

#include "il2cpp_symbols.h"
#include "names.h"
#include "support.h"

using namespace mt::sym;
using namespace mt::test;

namespace {

#define KVP "KeyValuePair_2_tAAAA000000000000000000000000000000000001"
#define KVP_DEF "KeyValuePair_2_tBBBB000000000000000000000000000000000002"
#define LIST "List_1_tAAAA000000000000000000000000000000000003"
#define INT32 "Int32_t680FF22E76F6EFAD4375103CBBFFA0421349384C"
#define TASK "Task_1_tAAAA000000000000000000000000000000000004"
#define HASH "_m0123456789ABCDEF0123456789ABCDEF01234567"

const char *kTypeDefinitions =
    "extern const Il2CppType " KVP_DEF "_0_0_0;\n"
    "Il2CppGenericClass " KVP "_GenericClass = { &" KVP_DEF "_0_0_0, { &GenInst_RuntimeObject_" INT32 ", NULL }, NULL };\n"
    "Il2CppGenericClass " LIST "_GenericClass = { &List_1_tDEF_0_0_0, { &GenInst_" KVP ", NULL }, NULL };\n"
    "Il2CppGenericClass " TASK "_GenericClass = { &Task_1_tDEF_0_0_0, { &GenInst_TResult_tCCCC, NULL }, NULL };\n";

const char *kGenericInsts =
    "static const Il2CppType* GenInst_RuntimeObject_" INT32 "_Types[] = { (&RuntimeObject_0_0_0), (&" INT32 "_0_0_0) };\n"
    "extern const Il2CppGenericInst GenInst_RuntimeObject_" INT32 ";\n"
    "static const Il2CppType* GenInst_" KVP "_Types[] = { (&" KVP "_0_0_0) };\n"
    // A generic parameter (an open instance): left unresolved.
    "static const Il2CppType* GenInst_TResult_tCCCC_Types[] = { (&Task_1_tDEF_gp_0_0_0_0) };\n";

}  // namespace

TEST_CASE("symbolizer: generic instance table read from il2cpp's two files", "[names][il2cpp]") {
    GenericInstances g;
    g.add_type_definitions(kTypeDefinitions);
    g.add_generic_insts(kGenericInsts);
    REQUIRE(g.arguments(KVP) != nullptr);
    CHECK(*g.arguments(KVP) == std::vector<std::string>{"RuntimeObject", INT32});
    CHECK(*g.arguments(LIST) == std::vector<std::string>{KVP});
    CHECK(g.arguments(TASK) == nullptr);  // its argument is a generic parameter
    CHECK(g.arguments("Unknown_1_t00") == nullptr);
}

TEST_CASE("symbolizer: generic method instances show generic arguments with their own arguments", "[names][il2cpp]") {
    TempDir dir;
    std::string out = dir.path + "/il2cppOutput";
    std::filesystem::create_directories(out);
    write_file(out + "/GenericMethods.cpp",
               "struct " KVP " \n{\n};\n"
               "// Method Definition Index: 7\n"
               "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t Array_BinarySearch_Tis" KVP HASH "_gshared (KeyValuePair_2U5BU5D_tAAAA000000000000000000000000000000000009* ___0_array, " KVP " ___1_value, const RuntimeMethod* method) \n{\n}\n");
    std::string list_add = "Enumerable_ToList_Tis" LIST HASH;
    std::string task = "JitHelpers_UnsafeCast_Tis" TASK HASH;
    std::string kvp = "Array_BinarySearch_Tis" KVP HASH "_gshared";
    // Without the two files: the arity, as before.
    {
        Il2CppSymbols s = Il2CppSymbols::load_dir(out);
        CHECK(il2cpp_csharp_name(kvp, &*s.sources) == "Array.BinarySearch<KeyValuePair`2>");
    }
    write_file(out + "/Il2CppTypeDefinitions.c", kTypeDefinitions);
    write_file(out + "/Il2CppGenericInstDefinitions.c", kGenericInsts);
    Il2CppSymbols s = Il2CppSymbols::load_dir(out);
    CHECK(il2cpp_csharp_name(kvp, &*s.sources) == "Array.BinarySearch<KeyValuePair<Object, Int32>>");
    CHECK(il2cpp_csharp_name(list_add, &*s.sources) == "Enumerable.ToList<List<KeyValuePair<Object, Int32>>>");
    CHECK(il2cpp_csharp_name(task, &*s.sources) == "JitHelpers.UnsafeCast<Task`1>");  // open instance: arity
    CHECK(il2cpp_generic_arguments(kvp, &*s.sources) == "<KeyValuePair<Object, Int32>>");
    // Parameters (overloads) the same way; an array's C++ name holds no element instance hash.
    const GeneratedFunction *f = s.sources->function_named(kvp);
    REQUIRE(f != nullptr);
    CHECK(il2cpp_parameter_types(f->parameters, &*s.sources) == "(KeyValuePair`2[], KeyValuePair<Object, Int32>)");
}
