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

namespace {

// Il2CppGenericInstDefinitions.c with its table (classInst index -> GenInst), in il2cpp's shape.
#define STRING "String_t"
#define KVP2 "KeyValuePair_2_tAAAA000000000000000000000000000000000005"
#define ODD "Pair_2_tAAAA000000000000000000000000000000000006"
const char *kGenericInstsWithTable =
    "static const Il2CppType* GenInst_RuntimeObject_" INT32 "_Types[] = { (&RuntimeObject_0_0_0), (&" INT32 "_0_0_0) };\n"
    "const Il2CppGenericInst GenInst_RuntimeObject_" INT32 " = { 2, GenInst_RuntimeObject_" INT32 "_Types };\n"
    "static const Il2CppType* GenInst_" STRING "_" INT32 "_Types[] = { (&" STRING "_0_0_0), (&" INT32 "_0_0_0) };\n"
    "const Il2CppGenericInst GenInst_" STRING "_" INT32 " = { 2, GenInst_" STRING "_" INT32 "_Types };\n"
    "IL2CPP_EXTERN_C const Il2CppGenericInst* const g_Il2CppGenericInstTable[];\n"
    "const Il2CppGenericInst* const g_Il2CppGenericInstTable[2] = \n{\n"
    "\t&GenInst_RuntimeObject_" INT32 ",\n"
    "\t&GenInst_" STRING "_" INT32 ",\n};\n";
// g_Il2CppMethodSpecTable: { method definition, classInst, methodInst }.
const char *kMethodSpecs =
    "IL2CPP_EXTERN_C const Il2CppMethodSpec g_Il2CppMethodSpecTable[];\n"
    "const Il2CppMethodSpec g_Il2CppMethodSpecTable[3] = \n{\n"
    "{ 10, 0, -1 },\n"
    "{ 11, 1, -1 },\n"
    "{ 12, 0, -1 },\n};\n";
// Encoded tokens: kind 6 (a method spec) << 29 | index << 1 | 1; kind 3 (a method definition) is no spec.
const char *kMetadataUsages =
    "RuntimeMethod* KeyValuePair_2_get_Key_m00000000000000000000000000000000000000A1_RuntimeMethod_var = (RuntimeMethod*)(uintptr_t)3221225477;\n"
    "RuntimeMethod* KeyValuePair_2_get_Value_m00000000000000000000000000000000000000A2_RuntimeMethod_var = (RuntimeMethod*)(uintptr_t)3221225475;\n"
    "RuntimeMethod* Pair_2_get_First_m00000000000000000000000000000000000000A3_RuntimeMethod_var = (RuntimeMethod*)(uintptr_t)3221225473;\n"
    "RuntimeMethod* Pair_2_get_Second_m00000000000000000000000000000000000000A4_RuntimeMethod_var = (RuntimeMethod*)(uintptr_t)3221225475;\n"
    "RuntimeMethod* KeyValuePair_2_ToString_m00000000000000000000000000000000000000A5_RuntimeMethod_var = (RuntimeMethod*)(uintptr_t)1610612739;\n";

// The generated code: the instance's methods (a `_gshared_inline` copy and an adjustor thunk, as
// il2cpp writes them) and generic method instances over the instances.
std::string instance_methods() {
    return "IL2CPP_MANAGED_FORCE_INLINE IL2CPP_METHOD_ATTR RuntimeObject* KeyValuePair_2_get_Key_m00000000000000000000000000000000000000A1_gshared_inline (" KVP "* __this, const RuntimeMethod* method) \n{\n}\n"
           "IL2CPP_EXTERN_C  String_t* KeyValuePair_2_ToString_m00000000000000000000000000000000000000A5_AdjustorThunk (RuntimeObject* __this, const RuntimeMethod* method)\n{\n}\n"
           "inline int32_t KeyValuePair_2_get_Value_m00000000000000000000000000000000000000A2 (" KVP2 "* __this, const RuntimeMethod* method)\n{\n}\n"
           // Two methods of one type linked to two argument lists: neither is believed.
           "inline int32_t Pair_2_get_First_m00000000000000000000000000000000000000A3 (" ODD "* __this, const RuntimeMethod* method)\n{\n}\n"
           "inline int32_t Pair_2_get_Second_m00000000000000000000000000000000000000A4 (" ODD "* __this, const RuntimeMethod* method)\n{\n}\n"
           "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t Array_BinarySearch_Tis" KVP HASH "_gshared (" KVP " ___0_value, const RuntimeMethod* method) \n{\n}\n"
           "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t Array_IndexOf_Tis" KVP2 HASH " (" KVP2 " ___0_value, const RuntimeMethod* method) \n{\n}\n"
           "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t Array_Sort_Tis" ODD HASH " (" ODD " ___0_value, const RuntimeMethod* method) \n{\n}\n";
}

}  // namespace

TEST_CASE("symbolizer: without Il2CppTypeDefinitions.c, instances linked to their arguments by their referenced methods",
          "[names][il2cpp]") {
    TempDir dir;
    std::string out = dir.path + "/il2cppOutput";
    std::filesystem::create_directories(out);
    write_file(out + "/GenericMethods.cpp", instance_methods());
    write_file(out + "/Il2CppGenericInstDefinitions.c", kGenericInstsWithTable);
    std::string kvp = "Array_BinarySearch_Tis" KVP HASH "_gshared", kvp2 = "Array_IndexOf_Tis" KVP2 HASH,
                odd = "Array_Sort_Tis" ODD HASH;
    {  // The GenInst table alone links nothing: arity, as before.
        Il2CppSymbols s = Il2CppSymbols::load_dir(out);
        CHECK(il2cpp_csharp_name(kvp, &*s.sources) == "Array.BinarySearch<KeyValuePair`2>");
    }
    write_file(out + "/Il2CppGenericMethodDefinitions.c", kMethodSpecs);
    write_file(out + "/Il2CppMetadataUsage.c", kMetadataUsages);
    Il2CppSymbols s = Il2CppSymbols::load_dir(out);
    CHECK(il2cpp_csharp_name(kvp, &*s.sources) == "Array.BinarySearch<KeyValuePair<Object, Int32>>");
    CHECK(il2cpp_csharp_name(kvp2, &*s.sources) == "Array.IndexOf<KeyValuePair<String, Int32>>");
    CHECK(il2cpp_csharp_name(odd, &*s.sources) == "Array.Sort<Pair`2>");  // two links disagree
    CHECK(s.sources->generics().linked() == 2);
    // The type table, where there, wins over a link.
    write_file(out + "/Il2CppTypeDefinitions.c",
               "Il2CppGenericClass " KVP2 "_GenericClass = { &" KVP_DEF "_0_0_0, { &GenInst_RuntimeObject_" INT32 ", NULL }, NULL };\n");
    Il2CppSymbols t = Il2CppSymbols::load_dir(out);
    CHECK(il2cpp_csharp_name(kvp2, &*t.sources) == "Array.IndexOf<KeyValuePair<Object, Int32>>");
    CHECK(il2cpp_csharp_name(kvp, &*t.sources) == "Array.BinarySearch<KeyValuePair<Object, Int32>>");
}
