// metadata_writer.h — writes a global-metadata.dat in the layout of one Unity version, for the
// tests. Written from libil2cpp's own declarations of each version (Il2CppGlobalMetadataHeader,
// Il2CppTypeDefinition, Il2CppMethodDefinition, Il2CppGenericContainer, Il2CppGenericParameter in
// il2cpp-metadata.h of 2018.4.36 and 2019.4.38, vm/GlobalMetadataFileInternals.h of 2020.3.22,
// 2021.2.1 and 2022.3.33), every field of every record written in declaration order, the fields
// the symbolizer does not read filled with recognizable junk so a wrong offset shows.
#ifndef MEMTRACER_TEST_METADATA_WRITER_H
#define MEMTRACER_TEST_METADATA_WRITER_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mt::test {

enum class MetadataLayout { V24_2018, V24_2019, V27, V29, V31 };

struct MdType {
    std::string name, ns;                 // "List`1", "System.Collections.Generic"
    std::vector<std::string> generic;     // the container's parameters (a nested type repeats its outer ones)
    std::vector<int> nested;              // indices of the types declared inside it
    int byval = -1;                       // its by-value entry of the binary's type table (-1: junk)
};
struct MdMethod {
    std::string name;
    int declaring_type;
    std::vector<std::string> generic;
    uint32_t token_row = 0;  // the MethodDef token's row id (0: junk, no token)
    std::vector<int> params;  // each parameter's entry of the binary's type table
    int ret = -1;             // the return type's entry (-1: junk)
    std::vector<std::string> param_names;  // each parameter's name (default p0, p1, ...)
    uint16_t flags = 0x5A5A;  // METHOD_ATTRIBUTE_* (junk by default: static, 0x10, included)
};
// An image (assembly) and how many of the types, in order from where the previous one ended, it
// holds. Written for 2019.1+ layouts only (2018.x has no per-assembly code registration).
struct MdImage {
    std::string name;  // "Assembly-CSharp.dll"
    uint32_t type_count;
};

inline std::string write_global_metadata(MetadataLayout layout, const std::vector<MdType> &types,
                                         const std::vector<MdMethod> &methods, const std::vector<MdImage> &images = {}) {
    const bool v24_2018 = layout == MetadataLayout::V24_2018, v24 = v24_2018 || layout == MetadataLayout::V24_2019;
    const int version = v24 ? 24 : layout == MetadataLayout::V27 ? 27 : layout == MetadataLayout::V29 ? 29 : 31;
    const int header_ints = v24_2018 ? 68 : v24 ? 66 : 64;
    const int32_t junk = 0x5A5A5A5A;

    std::string strings(1, '\0');  // offset 0: ""
    auto str = [&](const std::string &s) {
        int32_t at = static_cast<int32_t>(strings.size());
        strings += s;
        strings += '\0';
        return at;
    };
    std::string gparams, containers, nested, typedefs, methoddefs, paramdefs;
    auto i32 = [](std::string &o, int32_t v) { o.append(reinterpret_cast<const char *>(&v), 4); };
    auto u16 = [](std::string &o, uint16_t v) { o.append(reinterpret_cast<const char *>(&v), 2); };
    int32_t nparams = 0;
    auto container = [&](const std::vector<std::string> &names, int owner, bool is_method) -> int32_t {
        if (names.empty()) return -1;
        int32_t idx = static_cast<int32_t>(containers.size() / 16);
        i32(containers, owner);                           // ownerIndex
        i32(containers, static_cast<int32_t>(names.size()));  // type_argc
        i32(containers, is_method);                       // is_method
        i32(containers, nparams);                         // genericParameterStart
        for (size_t k = 0; k < names.size(); ++k) {
            i32(gparams, idx);                  // ownerIndex
            i32(gparams, str(names[k]));        // nameIndex
            u16(gparams, 0), u16(gparams, 0);   // constraintsStart, constraintsCount
            u16(gparams, static_cast<uint16_t>(k));  // num
            u16(gparams, 0);                    // flags
            ++nparams;
        }
        return idx;
    };
    for (size_t t = 0; t < types.size(); ++t) {
        const MdType &ty = types[t];
        int32_t nested_start = static_cast<int32_t>(nested.size() / 4);
        for (int n : ty.nested) i32(nested, n);
        i32(typedefs, str(ty.name));       // nameIndex
        i32(typedefs, str(ty.ns));         // namespaceIndex
        i32(typedefs, ty.byval >= 0 ? ty.byval : junk);  // byvalTypeIndex
        if (v24) i32(typedefs, junk);      // byrefTypeIndex (up to 2020.1)
        i32(typedefs, junk);               // declaringTypeIndex (an Il2CppType index: in the binary)
        i32(typedefs, junk);               // parentIndex
        i32(typedefs, junk);               // elementTypeIndex
        if (v24_2018) i32(typedefs, junk), i32(typedefs, 7);  // rgctxStartIndex, rgctxCount
        i32(typedefs, container(ty.generic, static_cast<int>(t), false));  // genericContainerIndex
        i32(typedefs, junk);               // flags
        for (int k = 0; k < 4; ++k) i32(typedefs, junk);  // fieldStart, methodStart, eventStart, propertyStart
        i32(typedefs, nested_start);       // nestedTypesStart
        for (int k = 0; k < 3; ++k) i32(typedefs, junk);  // interfacesStart, vtableStart, interfaceOffsetsStart
        for (int k = 0; k < 4; ++k) u16(typedefs, 0x5A5A);  // method, property, field, event counts
        u16(typedefs, static_cast<uint16_t>(ty.nested.size()));  // nested_type_count
        for (int k = 0; k < 3; ++k) u16(typedefs, 0x5A5A);  // vtable, interfaces, interface_offsets counts
        i32(typedefs, junk);               // bitfield
        i32(typedefs, junk);               // token
    }
    for (size_t m = 0; m < methods.size(); ++m) {
        const MdMethod &me = methods[m];
        i32(methoddefs, str(me.name));     // nameIndex
        i32(methoddefs, me.declaring_type);  // declaringType
        i32(methoddefs, me.ret >= 0 ? me.ret : junk);  // returnType
        if (version == 31) i32(methoddefs, junk);  // returnParameterToken
        // parameterStart: -1 for a method without parameters, as il2cpp writes it.
        i32(methoddefs, me.params.empty() ? -1 : static_cast<int32_t>(paramdefs.size() / 12));
        for (size_t k = 0; k < me.params.size(); ++k) {
            i32(paramdefs, str(k < me.param_names.size() ? me.param_names[k] : "p" + std::to_string(k)));  // nameIndex
            i32(paramdefs, junk);                          // token
            i32(paramdefs, me.params[k]);                  // typeIndex
        }
        i32(methoddefs, container(me.generic, static_cast<int>(m), true));  // genericContainerIndex
        if (v24_2018) for (int k = 0; k < 5; ++k) i32(methoddefs, junk);  // methodIndex, invokerIndex, reversePInvokeWrapperIndex, rgctxStartIndex, rgctxCount
        i32(methoddefs, me.token_row ? static_cast<int32_t>(0x06000000u | me.token_row) : junk);  // token
        u16(methoddefs, me.flags);  // flags
        for (int k = 0; k < 2; ++k) u16(methoddefs, 0x5A5A);  // iflags, slot
        u16(methoddefs, static_cast<uint16_t>(me.params.size()));  // parameterCount
    }

    std::string imagedefs;
    int32_t type_start = 0;
    for (const MdImage &im : images) {
        i32(imagedefs, str(im.name));      // nameIndex
        i32(imagedefs, junk);              // assemblyIndex
        i32(imagedefs, type_start);        // typeStart
        i32(imagedefs, static_cast<int32_t>(im.type_count));  // typeCount
        i32(imagedefs, junk), i32(imagedefs, 0);  // exportedTypeStart, exportedTypeCount
        i32(imagedefs, junk), i32(imagedefs, junk);  // entryPointIndex, token
        i32(imagedefs, junk), i32(imagedefs, 0);  // customAttributeStart, customAttributeCount
        type_start += static_cast<int32_t>(im.type_count);
    }

    std::vector<int32_t> header(static_cast<size_t>(header_ints), 0);
    header[0] = static_cast<int32_t>(0xFAB11BAF);
    header[1] = version;
    std::string body;
    const int32_t base = header_ints * 4;
    for (int slot = 2; slot + 1 < header_ints; slot += 2) header[static_cast<size_t>(slot)] = base;  // empty tables
    auto place = [&](int slot, const std::string &table) {
        header[static_cast<size_t>(slot)] = base + static_cast<int32_t>(body.size());
        header[static_cast<size_t>(slot) + 1] = static_cast<int32_t>(table.size());
        body += table;
    };
    // Slots (int32 index of the offset): stringLiteral 2 first, as il2cpp writes it, then the rest.
    place(2, std::string());
    place(6, strings);
    place(12, methoddefs);
    place(22, paramdefs);
    place(26, gparams);
    place(30, containers);
    place(32, nested);
    place(40, typedefs);
    if (!v24_2018) place(42, imagedefs);
    std::string out(reinterpret_cast<const char *>(header.data()), header.size() * 4);
    return out + body;
}

}  // namespace mt::test

#endif
