// global-metadata.dat version 39 (Unity 6000.3), read from the layout its libil2cpp declares:
// vm/GlobalMetadataFileInternals.h (Il2CppSectionMetadata, Il2CppGlobalMetadataHeader),
// vm/MetadataDeserialization.cpp (each record's serialized fields and widths) and
// vm/GlobalMetadata.cpp (`version == 39`, SerializedIndexSizes, GetIndexSize), as a 6000.3.3f1
// Xcode export ships them in Il2CppOutputProject/IL2CPP/libil2cpp (docs/il2cpp-notes.md).
//
// What changed from 31: the header holds {offset, size, count} per table (31 tables, 380 bytes),
// and four kinds of index are written in 1, 2 or 4 bytes, the smallest holding the table's count
// (<= 0xFF: 1, <= 0xFFFF: 2), all ones meaning -1. Generic containers and nested types keep
// fixed 4-byte fields.
#include "il2cpp_metadata.h"

#include <cstring>

#include "errors.h"

namespace mt::sym {

namespace {

// Il2CppGlobalMetadataHeader v39: the sections this reader uses, by position.
constexpr int kStringLiterals = 0, kStrings = 2, kMethods = 5, kParameters = 10, kGenericParameters = 12,
              kGenericContainers = 14, kNestedTypes = 15, kTypeDefinitions = 19, kImages = 20;
constexpr int kSections = 31;
constexpr uint32_t kHeaderSize = 8 + kSections * 12;

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

Il2CppMetadata Il2CppMetadata::parse_v39(std::string_view bytes, const std::string &name) {
    V39 r(bytes, name);
    Il2CppMetadata m;
    m.version_ = 39;
    m.layout_ = "39 (6000.3)";
    if (r.u32(8 + kStringLiterals * 12) != kHeaderSize)
        r.fail("metadata version 39 whose first table starts at byte " + std::to_string(r.u32(8)) + ", not right after the " +
               std::to_string(kHeaderSize) + "-byte header 6000.3 writes");

    Section strings = r.section(kStrings, "string");
    m.strings_.assign(bytes.substr(strings.offset, strings.size));

    Section types = r.section(kTypeDefinitions, "type definition"), methods = r.section(kMethods, "method definition"),
            params = r.section(kParameters, "parameter"), containers = r.section(kGenericContainers, "generic container"),
            gparams = r.section(kGenericParameters, "generic parameter"), nested = r.section(kNestedTypes, "nested type"),
            images = r.section(kImages, "image definition");
    const int D = index_size(static_cast<uint32_t>(types.count)), G = index_size(static_cast<uint32_t>(containers.count)),
              P = index_size(static_cast<uint32_t>(params.count));
    // The Il2CppType index width follows the binary's type table, which the file does not count:
    // it is what the type definition's record leaves after its fixed fields (68 bytes) and G.
    int T = 4;
    if (types.count) {
        size_t rec = types.size / types.count, rest = rec > static_cast<size_t>(68 + G) ? rec - 68 - G : 0;
        if (rest != 3 && rest != 6 && rest != 12)
            r.fail("type definition records of " + std::to_string(rec) + " bytes fit no index width of version 39");
        T = static_cast<int>(rest / 3);
    }
    const size_t type_rec = static_cast<size_t>(68 + 3 * T + G), method_rec = static_cast<size_t>(20 + D + T + P + G);
    r.expect(types, type_rec, "type definition");
    r.expect(methods, method_rec, "method definition");
    r.expect(containers, 16, "generic container");
    r.expect(gparams, static_cast<size_t>(14 + G), "generic parameter");
    r.expect(nested, 4, "nested type");
    r.expect(images, static_cast<size_t>(32 + 2 * D), "image definition");

    // Il2CppTypeDefinition: nameIndex, namespaceIndex, byval/declaring/parent TypeIndex (T each),
    // genericContainerIndex (G), flags, 8 four-byte starts (nestedTypesStart the 5th), 8 uint16
    // counts (nested_type_count the 5th), bitfield, token.
    m.types_.resize(types.count);
    const size_t after_g = 8 + 3 * static_cast<size_t>(T) + static_cast<size_t>(G);
    for (size_t i = 0; i < types.count; ++i) {
        size_t at = types.offset + i * type_rec;
        int64_t gc = r.index(at + 8 + 3 * static_cast<size_t>(T), G);
        m.types_[i] = Type{r.u32(at), r.u32(at + 4), static_cast<int32_t>(gc), -1};
    }
    for (size_t i = 0; i < types.count; ++i) {
        size_t at = types.offset + i * type_rec;
        int64_t start = static_cast<int32_t>(r.u32(at + after_g + 4 + 4 * 4));
        uint32_t count = r.u16(at + after_g + 4 + 8 * 4 + 4 * 2);
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
    // Il2CppGenericContainer: ownerIndex, type_argc, is_method, genericParameterStart (int32 each);
    // Il2CppGenericParameter: ownerIndex (G), nameIndex, ...
    for (size_t i = 0; i < containers.count; ++i) {
        size_t at = containers.offset + i * 16;
        m.containers_.emplace_back(static_cast<int32_t>(r.u32(at + 4)), static_cast<int32_t>(r.u32(at + 12)));
    }
    for (size_t i = 0; i < gparams.count; ++i) m.parameter_names_.push_back(r.u32(gparams.offset + i * (14 + G) + G));
    m.check(name);

    // Il2CppImageDefinition: nameIndex, assemblyIndex, typeStart (D), typeCount, ... ; the link to
    // the binary's per-assembly method pointer tables is each method's token, as before.
    std::vector<int32_t> image_of_type(types.count, -1);
    const size_t image_rec = static_cast<size_t>(32 + 2 * D);
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
