// il2cpp_generic_types.h — the arguments of the generic class instances an IL2CPP build uses,
// read from two files of the il2cpp output folder, for names a C# developer reads:
// `Array.BinarySearch<KeyValuePair<Int32, String>>` rather than `Array.BinarySearch<KeyValuePair`2>`.
//
// A native name holds a generic instance only as `KeyValuePair_2_t<40 hex>` (a hash of the
// instance); which arguments it has is written where il2cpp registers the instance:
//   Il2CppTypeDefinitions.c:
//     Il2CppGenericClass KeyValuePair_2_tFC32..._GenericClass = { &KeyValuePair_2_t5D..._0_0_0,
//         { &GenInst_RuntimeObject_RuntimeObject, NULL }, NULL };
//   Il2CppGenericInstDefinitions.c:
//     static const Il2CppType* GenInst_RuntimeObject_RuntimeObject_Types[] = { (&RuntimeObject_0_0_0),
//         (&RuntimeObject_0_0_0) };
// An Il2CppType's C++ name is the type's C++ name followed by `_<attrs>_<byref>_<pinned>`
// (`Int32_t680F..._0_0_0`); a generic parameter's is `<Owner>_gp_<n>_0_0_0` (left unresolved).
// Both files are optional (Il2CppTypeDefinitions.c is often the largest file of the folder and
// left out). Without Il2CppTypeDefinitions.c an instance is linked to its arguments through the
// methods of it the code references, from three more tables of the same folder:
//   Il2CppMetadataUsage.c: `RuntimeMethod* KeyValuePair_2_get_Key_m<h>_RuntimeMethod_var =
//       (RuntimeMethod*)(uintptr_t)3221227699;` (the encoded token libil2cpp decodes in
//       GlobalMetadata::InitializeRuntimeMetadata: kind = token >> 29, 6 = a method spec;
//       index = (token & 0x1FFFFFFE) >> 1);
//   Il2CppGenericMethodDefinitions.c: g_Il2CppMethodSpecTable rows `{ method, classInst, methodInst }`;
//   Il2CppGenericInstDefinitions.c: g_Il2CppGenericInstTable, the GenInst of each classInst index;
// and the generated function of that name, whose first parameter `KeyValuePair_2_tFC32...* __this`
// names the instance. A type two such links give different arguments stays unresolved; an
// instance no referenced method links keeps its arity.
#ifndef MEMTRACER_SYM_IL2CPP_GENERIC_TYPES_H
#define MEMTRACER_SYM_IL2CPP_GENERIC_TYPES_H

#include <string>
#include <string_view>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mt::sym {

class GenericInstances {
public:
    // The two files of `dir` when there; an empty table otherwise. Throws Error(Symbols) if a
    // file is there but cannot be read.
    static GenericInstances scan_dir(const std::string &dir);
    void add_type_definitions(std::string_view text);
    void add_generic_insts(std::string_view text);
    void add_method_specs(std::string_view text);     // Il2CppGenericMethodDefinitions.c
    void add_metadata_usages(std::string_view text);  // Il2CppMetadataUsage.c
    // A generated function (its name and C++ parameters): when it is a referenced method of a
    // generic class instance, the instance gets that method spec's class arguments. Call after
    // the three add_ above; Il2CppTypeDefinitions.c's entries win over these links.
    void add_instance_method(std::string_view function, std::string_view parameters);

    // The C++ type names of the arguments of generic class instance `cpp_type`
    // (`KeyValuePair_2_tFC32...` -> {"RuntimeObject", "Int32_t680F..."}); nullptr if unknown or
    // an argument is a generic parameter.
    const std::vector<std::string> *arguments(std::string_view cpp_type) const;
    size_t size() const { return class_inst_.size(); }
    size_t linked() const { return linked_.size(); }  // of size(): those from method links

private:
    std::unordered_map<std::string, std::string> class_inst_;                 // instance -> GenInst name
    std::unordered_map<std::string, std::vector<std::string>> inst_args_;     // GenInst name -> arguments
    std::vector<std::string> inst_table_;                                      // classInst index -> GenInst name
    std::vector<int32_t> spec_class_inst_;                                     // method spec -> classInst index
    std::unordered_map<std::string, uint32_t> method_specs_;                   // function name -> method spec
    std::unordered_map<std::string, std::string> linked_;                      // instance -> GenInst, by its methods
    std::unordered_set<std::string> defined_, ambiguous_;                      // from the type table; links that disagree
};

}  // namespace mt::sym

#endif
