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
// left out): without them the instance keeps its arity.
#ifndef MEMTRACER_SYM_IL2CPP_GENERIC_TYPES_H
#define MEMTRACER_SYM_IL2CPP_GENERIC_TYPES_H

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mt::sym {

class GenericInstances {
public:
    // The two files of `dir` when there; an empty table otherwise. Throws Error(Symbols) if a
    // file is there but cannot be read.
    static GenericInstances scan_dir(const std::string &dir);
    void add_type_definitions(std::string_view text);
    void add_generic_insts(std::string_view text);

    // The C++ type names of the arguments of generic class instance `cpp_type`
    // (`KeyValuePair_2_tFC32...` -> {"RuntimeObject", "Int32_t680F..."}); nullptr if unknown or
    // an argument is a generic parameter.
    const std::vector<std::string> *arguments(std::string_view cpp_type) const;
    size_t size() const { return class_inst_.size(); }

private:
    std::unordered_map<std::string, std::string> class_inst_;                 // instance -> GenInst name
    std::unordered_map<std::string, std::vector<std::string>> inst_args_;     // GenInst name -> arguments
};

}  // namespace mt::sym

#endif
