// metadata_writer_v39.h — writes a global-metadata.dat of version 39 (Unity 6000.3) for the tests.
// Written from the 6000.3.3f1 libil2cpp's declarations: vm/GlobalMetadataFileInternals.h
// (Il2CppGlobalMetadataHeader: sanity, version, 31 {offset, size, count} sections) and
// vm/MetadataDeserialization.cpp (each record's fields in order, TypeIndex, TypeDefinitionIndex,
// GenericContainerIndex and ParameterIndex written in 1, 2 or 4 bytes: GetIndexSize of the
// table's count, all ones for -1). Fields the symbolizer does not read hold junk.
#ifndef MEMTRACER_TEST_METADATA_WRITER_V39_H
#define MEMTRACER_TEST_METADATA_WRITER_V39_H

#include "metadata_writer.h"

namespace mt::test {

struct V39Shape {
    int type_index = 2;           // the binary's Il2CppType table width (not counted in the file)
    size_t filler_types = 0;      // extra type definitions, to widen TypeDefinitionIndex
    size_t parameters = 300;      // parameter definitions: 300 makes ParameterIndex 2 bytes
    size_t filler_containers = 0;  // extra generic containers, to widen GenericContainerIndex
    // Version 107 (6000.5.1f1's MetadataDeserialization.cpp) instead of 39: more indices narrowed
    // by their table's count (these tables are only counted here, not written).
    bool v107 = false;
    size_t fields = 300, events = 10, properties = 70000, interface_offsets = 300;
};

inline int v39_index_size(size_t count) { return count <= 0xFF ? 1 : count <= 0xFFFF ? 2 : 4; }

inline std::string write_global_metadata_v39(std::vector<MdType> types, const std::vector<MdMethod> &methods,
                                             const std::vector<MdImage> &images = {}, V39Shape shape = {}) {
    const int32_t junk = 0x5A5A5A5A;
    for (size_t i = 0; i < shape.filler_types; ++i) types.push_back({"Filler" + std::to_string(i), "", {}, {}});
    size_t ncontainers = shape.filler_containers;
    for (const MdType &t : types) ncontainers += !t.generic.empty();
    for (const MdMethod &m : methods) ncontainers += !m.generic.empty();
    const int T = shape.type_index, D = v39_index_size(types.size()), G = v39_index_size(ncontainers),
              P = v39_index_size(shape.parameters);
    const bool v107 = shape.v107;
    size_t ngparams_total = shape.filler_containers, nnested_total = 0;
    for (const MdType &t : types) ngparams_total += t.generic.size(), nnested_total += t.nested.size();
    for (const MdMethod &m : methods) ngparams_total += m.generic.size();
    auto w107 = [&](size_t count) { return v107 ? v39_index_size(count) : 4; };
    const int F = w107(shape.fields), M = w107(methods.size()), E = w107(shape.events), Pr = w107(shape.properties),
              N = w107(nnested_total), I = w107(shape.interface_offsets), GP = w107(ngparams_total);

    std::string strings(1, '\0');
    auto str = [&](const std::string &s) {
        int32_t at = static_cast<int32_t>(strings.size());
        strings += s;
        strings += '\0';
        return at;
    };
    auto i32 = [](std::string &o, int32_t v) { o.append(reinterpret_cast<const char *>(&v), 4); };
    auto u16 = [](std::string &o, uint16_t v) { o.append(reinterpret_cast<const char *>(&v), 2); };
    auto idx = [](std::string &o, int64_t v, int width) {  // -1: all ones
        uint32_t u = v < 0 ? 0xFFFFFFFFu : static_cast<uint32_t>(v);
        o.append(reinterpret_cast<const char *>(&u), static_cast<size_t>(width));
    };
    std::string gparams, containers, nested, typedefs, methoddefs, params, imagedefs;
    size_t nparams = 0, ngparams = 0, ncontainers_written = 0;
    auto container = [&](const std::vector<std::string> &names, int owner, bool is_method) -> int32_t {
        if (names.empty()) return -1;
        int32_t at = static_cast<int32_t>(ncontainers_written++);
        i32(containers, owner);  // ownerIndex
        if (v107) {
            u16(containers, static_cast<uint16_t>(names.size())), containers += static_cast<char>(is_method);  // type_argc, is_method
        } else {
            i32(containers, static_cast<int32_t>(names.size())), i32(containers, is_method);
        }
        idx(containers, static_cast<int64_t>(nparams), GP);  // genericParameterStart
        for (size_t k = 0; k < names.size(); ++k, ++nparams, ++ngparams) {
            idx(gparams, at, G);                          // ownerIndex
            i32(gparams, str(names[k]));                  // nameIndex
            i32(gparams, junk), u16(gparams, 0);          // constraintsStart, constraintsCount
            u16(gparams, static_cast<uint16_t>(k)), u16(gparams, 0);  // num, flags
        }
        return at;
    };
    for (size_t t = 0; t < types.size(); ++t) {
        const MdType &ty = types[t];
        int32_t nested_start = static_cast<int32_t>(nested.size() / 4);
        for (int n : ty.nested) i32(nested, n);
        i32(typedefs, str(ty.name)), i32(typedefs, str(ty.ns));  // nameIndex, namespaceIndex
        for (int k = 0; k < 3; ++k) idx(typedefs, 0x5A, T);     // byvalTypeIndex, declaringTypeIndex, parentIndex
        idx(typedefs, container(ty.generic, static_cast<int>(t), false), G);  // genericContainerIndex
        i32(typedefs, junk);                                     // flags
        idx(typedefs, 0x5A, F), idx(typedefs, 0x5A, M);         // fieldStart, methodStart
        idx(typedefs, 0x5A, E), idx(typedefs, 0x5A, Pr);        // eventStart, propertyStart
        idx(typedefs, nested_start, N);                          // nestedTypesStart
        idx(typedefs, 0x5A, I), i32(typedefs, junk), idx(typedefs, 0x5A, I);  // interfacesStart, vtableStart, interfaceOffsetsStart
        for (int k = 0; k < 4; ++k) u16(typedefs, 0x5A5A);      // method, property, field, event counts
        u16(typedefs, static_cast<uint16_t>(ty.nested.size())); // nested_type_count
        for (int k = 0; k < 3; ++k) u16(typedefs, 0x5A5A);      // vtable, interfaces, interface_offsets counts
        i32(typedefs, junk), i32(typedefs, junk);               // bitfield, token
    }
    for (size_t m = 0; m < methods.size(); ++m) {
        const MdMethod &me = methods[m];
        i32(methoddefs, str(me.name));                  // nameIndex
        idx(methoddefs, me.declaring_type, D);          // declaringType
        idx(methoddefs, 0x5A, T);                       // returnType
        i32(methoddefs, junk);                          // returnParameterToken
        idx(methoddefs, 0x5A, P);                       // parameterStart
        idx(methoddefs, container(me.generic, static_cast<int>(m), true), G);  // genericContainerIndex
        i32(methoddefs, me.token_row ? static_cast<int32_t>(0x06000000u | me.token_row) : junk);  // token
        for (int k = 0; k < 3; ++k) u16(methoddefs, 0x5A5A);  // flags, iflags, slot
        u16(methoddefs, 0);                                   // parameterCount
    }
    while (ncontainers_written < ncontainers) container({"F"}, 0, false);  // the fillers, last
    for (size_t p = 0; p < shape.parameters; ++p) i32(params, junk), i32(params, junk), idx(params, 0x5A, T);  // name, token, type
    int64_t type_start = 0;
    for (const MdImage &im : images) {
        i32(imagedefs, str(im.name)), i32(imagedefs, junk);          // nameIndex, assemblyIndex
        idx(imagedefs, type_start, D), i32(imagedefs, static_cast<int32_t>(im.type_count));  // typeStart, typeCount
        idx(imagedefs, -1, D), i32(imagedefs, 0);                    // exportedTypeStart, exportedTypeCount
        idx(imagedefs, 0x5A, M), i32(imagedefs, junk);               // entryPointIndex, token
        i32(imagedefs, junk), i32(imagedefs, 0);                     // customAttributeStart, customAttributeCount
        type_start += im.type_count;
    }

    const int kSections = v107 ? 32 : 31, kHeader = 8 + kSections * 12;
    std::vector<int32_t> header(2 + kSections * 3, 0);
    header[0] = static_cast<int32_t>(0xFAB11BAF);
    header[1] = v107 ? 107 : 39;
    for (int s = 0; s < kSections; ++s) header[static_cast<size_t>(2 + s * 3)] = kHeader;  // empty tables
    std::string body;
    auto place = [&](int section, const std::string &table, size_t count) {
        header[static_cast<size_t>(2 + section * 3)] = kHeader + static_cast<int32_t>(body.size());
        header[static_cast<size_t>(3 + section * 3)] = static_cast<int32_t>(table.size());
        header[static_cast<size_t>(4 + section * 3)] = static_cast<int32_t>(count);
        body += table;
    };
    place(0, std::string(), 0);  // stringLiterals first, right after the header
    place(2, strings, strings.size());
    place(5, methoddefs, methods.size());
    place(10, params, shape.parameters);
    place(12, gparams, ngparams);
    place(14, containers, ncontainers_written);
    place(15, nested, nested.size() / 4);
    place(19, typedefs, types.size());
    place(v107 ? 21 : 20, imagedefs, images.size());
    if (v107) {  // counted only: their counts set the index widths
        place(3, std::string(), shape.events), place(4, std::string(), shape.properties);
        place(11, std::string(), shape.fields), place(18, std::string(), shape.interface_offsets);
        place(8, std::string(), 0);
    }
    return std::string(reinterpret_cast<const char *>(header.data()), header.size() * 4) + body;
}

}  // namespace mt::test

#endif
