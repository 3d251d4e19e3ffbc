// global-metadata.dat versions 39 (Unity 6000.3) and 107 (6000.5), read from the layout their
// libil2cpp declares: vm/GlobalMetadataFileInternals.h (Il2CppSectionMetadata,
// Il2CppGlobalMetadataHeader), vm/MetadataDeserialization.cpp (each record's serialized fields
// and widths) and vm/GlobalMetadata.cpp (`version == N`, SerializedIndexSizes, GetIndexSize), as
// a 6000.3.3f1 Xcode export and a 6000.5.1f1 Gradle export ship them in their
// Il2CppOutputProject/IL2CPP/libil2cpp (docs/il2cpp-notes.md). 107 adds a section
// (typeInlineArrays), narrows the type definition's starts and the image's entry point by their
// tables' counts, and packs the generic container (int32, uint16, uint8, index).
//
// What changed from 31: the header holds {offset, size, count} per table (31 tables, 380 bytes),
// and four kinds of index are written in 1, 2 or 4 bytes, the smallest holding the table's count
// (<= 0xFF: 1, <= 0xFFFF: 2), all ones meaning -1. Generic containers and nested types keep
// fixed 4-byte fields.
#include "il2cpp_metadata.h"

#include <cstring>

#include "memtracer/symbolizer/errors.h"

namespace mt::sym {

namespace {

// Il2CppGlobalMetadataHeader v39 and v107: the sections this reader uses, by position (107 adds
// typeInlineArrays after typeDefinitions, so its images are one further on).
constexpr int kStringLiterals = 0, kStrings = 2, kEvents = 3, kProperties = 4, kMethods = 5, kDefaultValueData = 8,
              kParameters = 10, kFields = 11, kGenericParameters = 12, kGenericContainers = 14, kNestedTypes = 15,
              kInterfaceOffsets = 18, kTypeDefinitions = 19;

int index_size(uint32_t count) { return count <= 0xFF ? 1 : count <= 0xFFFF ? 2 : 4; }

struct Section {
    size_t offset, size, count;
};

class V39 {
public:
    V39(std::string_view b, const std::string &name) : b_(b), name_(name) {}
    [[noreturn]] void fail(const std::string &what) const { throw symbols_error(name_ + ": " + what); }

    uint32_t u32(size_t at) const { return static_cast<uint32_t>(uint_n(at, 4)); }
    uint16_t u16(size_t at) const { return static_cast<uint16_t>(uint_n(at, 2)); }
    // An index serialized in `width` bytes; all ones is -1 (libil2cpp ReadIndex).
    int64_t index(size_t at, int width) const {
        uint64_t v = uint_n(at, width);
        uint64_t none = width == 4 ? 0xFFFFFFFFu : width == 2 ? 0xFFFFu : 0xFFu;
        return v == none ? -1 : static_cast<int64_t>(v);
    }
    Section section(int i, const char *what) const {
        size_t at = 8 + static_cast<size_t>(i) * 12;
        int32_t off = static_cast<int32_t>(u32(at)), size = static_cast<int32_t>(u32(at + 4)),
                count = static_cast<int32_t>(u32(at + 8));
        if (off < 0 || size < 0 || count < 0 || static_cast<uint64_t>(off) + static_cast<uint64_t>(size) > b_.size())
            fail(std::string(what) + " table (" + std::to_string(size) + " bytes at " + std::to_string(off) +
                 ") runs past the end of the file (" + std::to_string(b_.size()) + " bytes)");
        return {static_cast<size_t>(off), static_cast<size_t>(size), static_cast<size_t>(count)};
    }
    // Checks that the table holds `count` records of `record` bytes.
    void expect(const Section &s, size_t record, const char *what) const {
        if (s.size != s.count * record)
            fail(std::string(what) + " table: " + std::to_string(s.count) + " records in " + std::to_string(s.size) +
                 " bytes, not " + std::to_string(record) + " bytes each as version 39 writes them");
    }

private:
    uint64_t uint_n(size_t at, int width) const {
        if (at + static_cast<size_t>(width) > b_.size()) fail("truncated at byte " + std::to_string(at));
        uint64_t v = 0;
        std::memcpy(&v, b_.data() + at, static_cast<size_t>(width));  // little-endian, as Unity writes it
        return v;
    }
    std::string_view b_;
    const std::string &name_;
};

}  // namespace

Il2CppMetadata Il2CppMetadata::parse_v39(std::string_view bytes, const std::string &name, int version) {
    V39 r(bytes, name);
    Il2CppMetadata m;
    const bool v107 = version == 107;
    m.version_ = version;
    m.layout_ = v107 ? "107 (6000.5)" : "39 (6000.3)";
    const int sections = v107 ? 32 : 31, kImages = v107 ? 21 : 20;
    const uint32_t header_size = 8 + static_cast<uint32_t>(sections) * 12;
    if (r.u32(8 + kStringLiterals * 12) != header_size)
        r.fail("metadata version " + std::to_string(version) + " whose first table starts at byte " + std::to_string(r.u32(8)) +
               ", not right after the " + std::to_string(header_size) + "-byte header " + (v107 ? "6000.5" : "6000.3") + " writes");

    Section strings = r.section(kStrings, "string");
    m.strings_.assign(bytes.substr(strings.offset, strings.size));

    Section types = r.section(kTypeDefinitions, "type definition"), methods = r.section(kMethods, "method definition"),
            params = r.section(kParameters, "parameter"), containers = r.section(kGenericContainers, "generic container"),
            gparams = r.section(kGenericParameters, "generic parameter"), nested = r.section(kNestedTypes, "nested type"),
            images = r.section(kImages, "image definition");
    auto width = [&](int section, const char *what) { return index_size(static_cast<uint32_t>(r.section(section, what).count)); };
    const int D = index_size(static_cast<uint32_t>(types.count)), G = index_size(static_cast<uint32_t>(containers.count)),
              P = index_size(static_cast<uint32_t>(params.count));
    // Version 107 also narrows the type definition's starts (field F, method M, event E, property
    // Pr, nested type N, interfaces I: its count is interfaceOffsets') and the generic container's
    // first parameter (GP); 39 writes them in 4 bytes.
    const int F = v107 ? width(kFields, "field") : 4, M = v107 ? static_cast<int>(index_size(static_cast<uint32_t>(methods.count))) : 4,
              E = v107 ? width(kEvents, "event") : 4, Pr = v107 ? width(kProperties, "property") : 4,
              N = v107 ? static_cast<int>(index_size(static_cast<uint32_t>(nested.count))) : 4,
              I = v107 ? width(kInterfaceOffsets, "interface offset") : 4,
              GP = v107 ? static_cast<int>(index_size(static_cast<uint32_t>(gparams.count))) : 4;
    if (v107) (void)width(kDefaultValueData, "default value data");  // checked like the others, not read
    // The Il2CppType index width follows the binary's type table, which the file does not count:
    // it is what the type definition's record leaves after its other fields.
    const size_t fixed = static_cast<size_t>(40 + G + F + M + E + Pr + N + 2 * I);
    int T = 4;
    if (types.count) {
        size_t rec = types.size / types.count, rest = rec > fixed ? rec - fixed : 0;
        if (rest != 3 && rest != 6 && rest != 12)
            r.fail("type definition records of " + std::to_string(rec) + " bytes fit no index width of version " + std::to_string(version));
        T = static_cast<int>(rest / 3);
    }
    const size_t type_rec = fixed + 3 * static_cast<size_t>(T), method_rec = static_cast<size_t>(20 + D + T + P + G),
                 container_rec = v107 ? static_cast<size_t>(7 + GP) : 16;
    r.expect(types, type_rec, "type definition");
    r.expect(methods, method_rec, "method definition");
    r.expect(containers, container_rec, "generic container");
    r.expect(gparams, static_cast<size_t>(14 + G), "generic parameter");
    r.expect(nested, 4, "nested type");
    r.expect(images, static_cast<size_t>(28 + 2 * D + M), "image definition");

    // Il2CppTypeDefinition: nameIndex, namespaceIndex, byval/declaring/parent TypeIndex (T each),
    // genericContainerIndex (G), flags, fieldStart (F), methodStart (M), eventStart (E),
    // propertyStart (Pr), nestedTypesStart (N), interfacesStart (I), vtableStart (4),
    // interfaceOffsetsStart (I), 8 uint16 counts (nested_type_count the 5th), bitfield, token.
    m.types_.resize(types.count);
    const size_t after_g = 8 + 3 * static_cast<size_t>(T) + static_cast<size_t>(G);
    for (size_t i = 0; i < types.count; ++i) {
        size_t at = types.offset + i * type_rec;
        int64_t gc = r.index(at + 8 + 3 * static_cast<size_t>(T), G);
        m.types_[i] = Type{r.u32(at), r.u32(at + 4), static_cast<int32_t>(gc), -1};
    }
    for (size_t i = 0; i < types.count; ++i) {
        size_t at = types.offset + i * type_rec;
        const size_t starts = at + after_g + 4, nested_at = starts + static_cast<size_t>(F + M + E + Pr);
        int64_t start = N == 4 ? static_cast<int32_t>(r.u32(nested_at)) : r.index(nested_at, N);
        uint32_t count = r.u16(nested_at + static_cast<size_t>(N + I + 4 + I) + 4 * 2);
        for (uint32_t k = 0; k < count; ++k) {
            if (start < 0 || static_cast<size_t>(start) + k >= nested.count)
                r.fail("type " + std::to_string(i) + ": nested types out of range");
            int32_t child = static_cast<int32_t>(r.u32(nested.offset + (static_cast<size_t>(start) + k) * 4));
            if (child < 0 || static_cast<size_t>(child) >= types.count)
                r.fail("type " + std::to_string(i) + ": nested type index out of range");
            m.types_[static_cast<size_t>(child)].declaring = static_cast<int32_t>(i);
        }
    }

    // Il2CppMethodDefinition: nameIndex, declaringType (D), returnType (T), returnParameterToken,
    // parameterStart (P), genericContainerIndex (G), token, flags, iflags, slot, parameterCount.
    m.methods_.resize(methods.count);
    std::vector<uint32_t> tokens(methods.count);
    for (size_t i = 0; i < methods.count; ++i) {
        size_t at = methods.offset + i * method_rec, gc_at = at + 8 + static_cast<size_t>(D + T + P);
        m.methods_[i] = Method{r.u32(at), static_cast<int32_t>(r.index(at + 4, D)), static_cast<int32_t>(r.index(gc_at, G))};
        tokens[i] = r.u32(gc_at + static_cast<size_t>(G));
    }
    // Il2CppGenericContainer: ownerIndex, type_argc, is_method, genericParameterStart (int32 each;
    // 107: int32, uint16, uint8, GP); Il2CppGenericParameter: ownerIndex (G), nameIndex, ...
    for (size_t i = 0; i < containers.count; ++i) {
        size_t at = containers.offset + i * container_rec;
        if (v107)
            m.containers_.emplace_back(static_cast<int32_t>(r.u16(at + 4)), static_cast<int32_t>(r.index(at + 7, GP)));
        else
            m.containers_.emplace_back(static_cast<int32_t>(r.u32(at + 4)), static_cast<int32_t>(r.u32(at + 12)));
    }
    for (size_t i = 0; i < gparams.count; ++i) m.parameter_names_.push_back(r.u32(gparams.offset + i * (14 + G) + G));
    m.check(name);

    // Il2CppImageDefinition: nameIndex, assemblyIndex, typeStart (D), typeCount, ... ; the link to
    // the binary's per-assembly method pointer tables is each method's token, as before.
    std::vector<int32_t> image_of_type(types.count, -1);
    const size_t image_rec = static_cast<size_t>(28 + 2 * D + M);
    for (size_t i = 0; i < images.count; ++i) {
        size_t at = images.offset + i * image_rec;
        uint32_t iname = r.u32(at);
        int64_t start = r.index(at + 8, D);
        uint32_t count = r.u32(at + 8 + static_cast<size_t>(D));
        if (iname >= m.strings_.size() || start < 0 || static_cast<uint64_t>(start) + count > types.count)
            r.fail("image " + std::to_string(i) + ": its name or types lie outside their tables");
        m.image_index_.emplace(std::string(m.str(iname)), static_cast<uint32_t>(i));
        for (uint32_t t = 0; t < count; ++t) image_of_type[static_cast<size_t>(start) + t] = static_cast<int32_t>(i);
    }
    for (size_t i = 0; i < methods.count; ++i) {
        int32_t image = image_of_type[static_cast<size_t>(m.methods_[i].declaring_type)];
        if (image >= 0 && (tokens[i] >> 24) == 0x06 && (tokens[i] & 0xFFFFFF) != 0)
            m.by_token_.emplace((static_cast<uint64_t>(image) << 32) | (tokens[i] & 0xFFFFFF), static_cast<uint32_t>(i));
    }
    m.index();
    return m;
}

}  // namespace mt::sym
