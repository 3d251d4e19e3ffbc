// il2cpp_metadata.h — C# names from Unity's own metadata, global-metadata.dat (every IL2CPP build
// ships it: iOS Data/Managed/Metadata/, Android assets/bin/Data/Managed/Metadata/).
//
// The file starts with Il2CppGlobalMetadataHeader (sanity 0xFAB11BAF, version, then offset/size
// pairs of its tables); libil2cpp declares the layout of each version (il2cpp-metadata.h up to
// 2020.1, vm/GlobalMetadataFileInternals.h after). What is read here, per version:
//
// | metadata version (Unity)              | header | Il2CppTypeDefinition | Il2CppMethodDefinition |
// |---------------------------------------|--------|----------------------|------------------------|
// | 24, rgctx in the tables (2018.3-2018.4) | 272 B | 100 B (byref, rgctx)  | 52 B (methodIndex, invoker, reverse-P/Invoke, rgctx) |
// | 24 (2019.1-2020.1)                    | 264 B  | 92 B (byref)         | 32 B                   |
// | 27, 28, 29 (2020.2-2022.3.2x, 6000.0.0-6) | 256 B | 88 B             | 32 B                   |
// | 31 (2021.3.40+, 2022.3.33+, 6000.0.7-6000.2) | 256 B | 88 B          | 36 B (returnParameterToken) |
// | 39 (6000.3)                           | 380 B  | 68 B + 3 T + G       | 20 B + D + T + P + G   |
// | 107 (6000.5)                          | 392 B  | 40 B + 3 T + G + the starts' widths | 20 B + D + T + P + G |
//
// Versions 39 and 107 (il2cpp_metadata_v39.cpp) give each table's offset, size and record count, and
// writes some indices 1, 2 or 4 bytes wide, the smallest that holds the table's count (T: the
// binary's Il2CppType table, D: type definitions, G: generic containers, P: parameters); T is not
// in the file, so it is what the type definitions' record size leaves.
//
// Tables used: strings (NUL-terminated, by byte offset), type definitions (name, namespace,
// generic container, nested types, by-value type entry), method definitions (name, declaring type,
// generic container, return type and parameters: versions 24-31), parameter definitions (their
// type entry), generic containers and parameters (type parameter names), nested types (to find
// each type's declaring type). The version-24 layouts share one version number and are told apart
// by the header size (the first table starts right after the header).
//
// A method's index in the method table is the `// Method Definition Index: N` of the generated
// sources (il2cpp_sources.h).
#ifndef MEMTRACER_SYM_IL2CPP_METADATA_H
#define MEMTRACER_SYM_IL2CPP_METADATA_H

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <string>
#include <string_view>
#include <vector>

namespace mt::sym {

class Il2CppMetadata {
public:
    // Throws Error(Symbols) "<name>: ..." for a file that is not global-metadata.dat, an
    // unsupported version or a table outside the file.
    static Il2CppMetadata parse(std::string_view bytes, const std::string &name);

    int version() const { return version_; }
    const char *layout() const { return layout_; }
    size_t methods() const { return methods_.size(); }
    size_t types() const { return types_.size(); }

    // "Namespace.Outer.Inner<T>.Method<U>" for method definition `index`; "" if out of range.
    std::string method_name(int64_t index) const;
    // The declaring type's full name, "Namespace.Outer.Inner<T>".
    std::string type_name(int32_t type_index) const;
    // As the metadata spells them: "List`1", ".ctor", "<Start>b__5_0"; the declaring type (-1 if
    // `index` is out of range).
    std::string_view raw_method_name(int64_t index) const;
    std::string_view raw_type_name(int32_t type_index) const;
    int32_t declaring_type(int64_t index) const;
    // The full name of the method a native name stands for when no Method Definition Index is at
    // hand (only the binary's symbols and this file kept): the methods whose declaring type and
    // name, written the way il2cpp writes them into C++ (`Type_Method`, '.' and '`' as '_', other
    // characters as U<hex>), equal `type_method`; their full name if they all share it (overloads
    // do), "" if none or several types claim it (List`1.Enumerator and Stack`1.Enumerator both
    // make `Enumerator_MoveNext`).
    std::string method_name_for(std::string_view type_method) const;
    // The methods whose `Type_Method`, spelled as il2cpp spells C++, is `type_method` (see
    // method_name_for); nullptr if none.
    const std::vector<uint32_t> *methods_for(std::string_view type_method) const {
        auto it = by_cpp_name_.find(std::string(type_method));
        return it == by_cpp_name_.end() ? nullptr : &it->second;
    }
    // il2cpp's C++ spelling of a metadata name.
    static std::string cpp_escape(std::string_view name);
    // True if its declaring type has another method of the same name.
    bool overloaded(int64_t index) const {
        return index >= 0 && static_cast<size_t>(index) < overloaded_.size() && overloaded_[static_cast<size_t>(index)];
    }
    // The parameter types of method `index` as far as this file names them: each parameter's
    // entry of the binary's type table (Il2CppParameterDefinition.typeIndex) is, when it equals a
    // type's by-value entry (Il2CppTypeDefinition.byvalTypeIndex), that type's name as the CLR
    // spells it ("Int32", "StringComparison", "IDictionary"), else "" (an array, pointer, `ref`,
    // generic instance or parameter, or a parameter with attributes such as a default value: own
    // entries, described only in the binary). nullopt where the parameters are not read
    // (versions 39 and 107).
    std::optional<std::vector<std::string>> parameter_types(int64_t index) const;
    // The parameters' names of method `index` ("count" -> {"count"}), as many as it has; empty
    // where the parameters are not read.
    std::vector<std::string_view> parameter_names(int64_t index) const;
    // True for a static method, false for an instance method; nullopt where the flags are not read.
    std::optional<bool> is_static(int64_t index) const;
    // The return type's name the same way ("" if not named).
    std::string return_type(int64_t index) const;
    // True if an overload of the same type and name has the same parameter type entries: they
    // differ in their return type only (conversion operators, `op_Explicit`).
    bool differs_by_return_only(int64_t index) const {
        return index >= 0 && static_cast<size_t>(index) < returns_differ_.size() && returns_differ_[static_cast<size_t>(index)];
    }
    // An overload whose name may come out like another's (see may_share_name): its place, from 1,
    // among the methods of its type and name in metadata order, shown as `#n`; 0 for the others.
    uint32_t overload_number(int64_t index) const {
        return index >= 0 && static_cast<size_t>(index) < overload_number_.size() ? overload_number_[static_cast<size_t>(index)] : 0;
    }
    // The method's own generic parameters (AddComponent<T>: 1).
    int method_generic_count(int64_t index) const;
    // The method of image `image` ("Assembly-CSharp.dll") whose MethodDef token has row id `row`
    // (from 1): the one whose code is methodPointers[row - 1] of the image's Il2CppCodeGenModule
    // (libil2cpp MetadataCache::GetMethodPointer). -1 if none; always -1 for 2018.x metadata.
    int64_t method_by_token(std::string_view image, uint32_t row) const;
    size_t images() const { return image_index_.size(); }

private:
    struct Type {
        uint32_t name, ns;
        int32_t generic_container, declaring = -1;
        int32_t byval = -1;  // its by-value entry in the binary's type table
    };
    struct Method {
        uint32_t name;
        int32_t declaring_type, generic_container;
        int32_t return_type = -1;      // an entry of the binary's type table
        int32_t parameter_start = -1;  // -1: not read (versions 39 and 107)
        uint16_t parameter_count = 0;
        int32_t flags = -1;  // METHOD_ATTRIBUTE_*; -1: not read (versions 39 and 107)
    };
    bool parameters_known(const Method &x) const;
    std::vector<int32_t> parameter_type_indices(const Method &x) const;
    std::string type_entry_name(int32_t type_index) const;
    std::string_view str(uint32_t offset) const;
    std::string generic_params(int32_t container, int own) const;

    int version_ = 0;
    const char *layout_ = "";
    std::string strings_;
    std::vector<Type> types_;
    std::vector<Method> methods_;
    std::vector<std::pair<int32_t, int32_t>> containers_;  // type_argc, first parameter
    std::vector<uint32_t> parameter_names_;              // generic parameters' names
    std::unordered_map<std::string, std::vector<uint32_t>> by_cpp_name_;  // cpp_escape(Type_Method)
    std::vector<bool> overloaded_;
    std::vector<int32_t> parameter_types_;                // each parameter's type table entry
    std::vector<uint32_t> parameter_name_strings_;        // each parameter's name (Il2CppParameterDefinition.nameIndex)
    std::unordered_map<int32_t, int32_t> type_of_byval_;  // type table entry -> type (-1: claimed twice)
    std::vector<bool> returns_differ_;
    std::vector<uint32_t> overload_number_;
    std::unordered_map<std::string, uint32_t> image_index_;  // image name -> image
    std::unordered_map<uint64_t, uint32_t> by_token_;        // image << 32 | token row -> method
    static void read_images(const void *reader, const void *layout, Il2CppMetadata &m);
    static Il2CppMetadata parse_v39(std::string_view bytes, const std::string &name, int version);  // 39 or 107
    // Throws if an index read points outside its table (a file read with the wrong layout).
    void check(const std::string &name) const;
    // The overload flags and the Type_Method index, once the tables are read.
    void index();
    bool may_share_name(uint32_t a, uint32_t b) const;
    void number_overloads_that_may_share();
};

}  // namespace mt::sym

#endif
