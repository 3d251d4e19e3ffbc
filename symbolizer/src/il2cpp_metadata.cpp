// global-metadata.dat reading (see il2cpp_metadata.h for the layouts).
#include "il2cpp_metadata.h"

#include <cstring>

#include "memtracer/symbolizer/errors.h"

namespace mt::sym {

namespace {

constexpr uint32_t kSanity = 0xFAB11BAF;

// Where the fields this reader uses sit, per layout (byte offsets inside each record).
struct Layout {
    const char *name;
    uint32_t header_size;
    uint32_t type_size, type_generic_container, type_nested_start, type_nested_count;
    uint32_t method_size, method_generic_container;
    uint32_t method_token;  // 0: not read (2018.x has no per-assembly code registration)
    // Every layout 24-31: byvalTypeIndex at 8 of a type, returnType at 8 of a method,
    // parameterCount in a method's last 2 bytes.
    uint32_t method_parameter_start;
};

// Header int32 slots (offset, size) shared by every version 24-31.
constexpr int kStrings = 6, kMethods = 12, kParameters = 22, kGenericParameters = 26, kGenericContainers = 30, kNestedTypes = 32,
              kTypeDefinitions = 40, kImages = 42;  // images: 2019.1+ (2018.4 has them at 44)
// Il2CppImageDefinition, 2019.1+: nameIndex, assemblyIndex, typeStart, typeCount, ... (40 bytes).
constexpr uint32_t kImageSize = 40;

// Il2CppParameterDefinition, every layout 24-31: nameIndex, token, typeIndex.
constexpr uint32_t kParameterSize = 12;

constexpr Layout kV24Rgctx{"24 (2018.3-2018.4)", 272, 100, 36, 60, 84, 52, 16, 0, 12};
constexpr Layout kV24{"24 (2019.1-2020.1)", 264, 92, 28, 52, 76, 32, 16, 20, 12};
constexpr Layout kV27{"27-29 (2020.2-2022.3.2x)", 256, 88, 24, 48, 72, 32, 16, 20, 12};
constexpr Layout kV31{"31 (2021.3.40+, 2022.3.33+, 6000.x)", 256, 88, 24, 48, 72, 36, 20, 24, 16};

class Reader {
public:
    Reader(std::string_view b, const std::string &name) : b_(b), name_(name) {}
    [[noreturn]] void fail(const std::string &what) const { throw symbols_error(name_ + ": " + what); }
    uint32_t u32(size_t at) const {
        if (at + 4 > b_.size()) fail("truncated at byte " + std::to_string(at));
        uint32_t v;
        std::memcpy(&v, b_.data() + at, 4);  // little-endian on every platform Unity builds for
        return v;
    }
    int32_t i32(size_t at) const { return static_cast<int32_t>(u32(at)); }
    uint16_t u16(size_t at) const {
        if (at + 2 > b_.size()) fail("truncated at byte " + std::to_string(at));
        uint16_t v;
        std::memcpy(&v, b_.data() + at, 2);
        return v;
    }
    // The table of header slot `slot`: its offset and record count, checked against the file.
    std::pair<size_t, size_t> table(int slot, uint32_t record, const char *what) const {
        uint32_t off = u32(static_cast<size_t>(slot) * 4), size = u32(static_cast<size_t>(slot) * 4 + 4);
        if (static_cast<uint64_t>(off) + size > b_.size())
            fail(std::string(what) + " table (" + std::to_string(size) + " bytes at " + std::to_string(off) +
                 ") runs past the end of the file (" + std::to_string(b_.size()) + " bytes)");
        if (record && size % record)
            fail(std::string(what) + " table size " + std::to_string(size) + " is not a multiple of its record size " +
                 std::to_string(record) + " for this layout");
        return {off, record ? size / record : size};
    }
    std::string_view bytes() const { return b_; }

private:
    std::string_view b_;
    const std::string &name_;
};

const Layout &pick_layout(const Reader &r, int version) {
    if (version == 31) return kV31;
    if (version >= 27 && version <= 29) return kV27;
    if (version == 24) {
        // One version number, two layouts: the first table starts right after the header.
        uint32_t first = r.u32(8);
        if (first == kV24Rgctx.header_size) return kV24Rgctx;
        if (first == kV24.header_size) return kV24;
        r.fail("metadata version 24 with a header of " + std::to_string(first) + " bytes: neither the 2018.3-2018.4 (272) "
               "nor the 2019.1-2020.1 (264) layout");
    }
    r.fail("metadata version " + std::to_string(version) +
           " is not supported (24 to 31, 39 and 107: Unity 2018.3 to 6000.5)");
}

}  // namespace

// The images (one per assembly: "Assembly-CSharp.dll") and each method's token, which link a
// method to its slot in the binary's per-assembly method pointer table (il2cpp_code_registration.h).
void Il2CppMetadata::read_images(const void *reader, const void *layout, Il2CppMetadata &m) {
    const Reader &r = *static_cast<const Reader *>(reader);
    const Layout &L = *static_cast<const Layout *>(layout);
    auto [moff, mcount] = r.table(kMethods, L.method_size, "method definition");
    auto [ioff, icount] = r.table(kImages, kImageSize, "image definition");
    std::vector<int32_t> image_of_type(m.types_.size(), -1);
    for (size_t i = 0; i < icount; ++i) {
        size_t at = ioff + i * kImageSize;
        uint32_t name = r.u32(at);
        int32_t start = r.i32(at + 8);
        uint32_t count = r.u32(at + 12);
        if (name >= m.strings_.size() || start < 0 || static_cast<uint64_t>(start) + count > m.types_.size())
            r.fail("image " + std::to_string(i) + ": its name or types lie outside their tables");
        m.image_index_.emplace(std::string(m.str(name)), static_cast<uint32_t>(i));
        for (uint32_t t = 0; t < count; ++t) image_of_type[static_cast<size_t>(start) + t] = static_cast<int32_t>(i);
    }
    for (size_t i = 0; i < mcount; ++i) {
        uint32_t token = r.u32(moff + i * L.method_size + L.method_token);
        int32_t decl = m.methods_[i].declaring_type;
        int32_t image = decl >= 0 && static_cast<size_t>(decl) < image_of_type.size() ? image_of_type[static_cast<size_t>(decl)] : -1;
        // A MethodDef token: table 0x06, row id from 1.
        if (image >= 0 && (token >> 24) == 0x06 && (token & 0xFFFFFF) != 0)
            m.by_token_.emplace((static_cast<uint64_t>(image) << 32) | (token & 0xFFFFFF), static_cast<uint32_t>(i));
    }
}

Il2CppMetadata Il2CppMetadata::parse(std::string_view bytes, const std::string &name) {
    Reader r(bytes, name);
    if (bytes.size() < 8 || r.u32(0) != kSanity)
        r.fail("not a global-metadata.dat (no 0xFAB11BAF at its start" +
               std::string(bytes.starts_with("version https://git-lfs") ? "; this is a Git LFS pointer, not the file" : "") + ")");
    Il2CppMetadata m;
    m.version_ = r.i32(4);
    if (m.version_ == 39 || m.version_ == 107) return parse_v39(bytes, name, m.version_);
    const Layout &L = pick_layout(r, m.version_);
    m.layout_ = L.name;

    auto [soff, ssize] = r.table(kStrings, 0, "string");
    m.strings_.assign(bytes.substr(soff, ssize));

    auto [toff, tcount] = r.table(kTypeDefinitions, L.type_size, "type definition");
    auto [noff, ncount] = r.table(kNestedTypes, 4, "nested type");
    m.types_.resize(tcount);
    for (size_t i = 0; i < tcount; ++i) {
        size_t at = toff + i * L.type_size;
        m.types_[i] = Type{r.u32(at), r.u32(at + 4), r.i32(at + L.type_generic_container), -1, r.i32(at + 8)};
    }
    for (size_t i = 0; i < tcount; ++i) {
        size_t at = toff + i * L.type_size;
        int32_t start = r.i32(at + L.type_nested_start);
        uint16_t count = r.u16(at + L.type_nested_count);
        for (uint16_t k = 0; k < count; ++k) {
            if (start < 0 || static_cast<size_t>(start) + k >= ncount) r.fail("type " + std::to_string(i) + ": nested types out of range");
            int32_t child = r.i32(noff + (static_cast<size_t>(start) + k) * 4);
            if (child < 0 || static_cast<size_t>(child) >= tcount) r.fail("type " + std::to_string(i) + ": nested type index out of range");
            m.types_[static_cast<size_t>(child)].declaring = static_cast<int32_t>(i);
        }
    }

    auto [moff, mcount] = r.table(kMethods, L.method_size, "method definition");
    m.methods_.resize(mcount);
    for (size_t i = 0; i < mcount; ++i) {
        size_t at = moff + i * L.method_size;
        m.methods_[i] = Method{r.u32(at), r.i32(at + 4), r.i32(at + L.method_generic_container), r.i32(at + 8),
                               r.i32(at + L.method_parameter_start), r.u16(at + L.method_size - 2),
                               // flags, iflags, slot, parameterCount end the row in every layout read here.
                               r.u16(at + L.method_size - 8)};
    }
    auto [paroff, parcount] = r.table(kParameters, kParameterSize, "parameter definition");
    m.parameter_types_.resize(parcount);
    m.parameter_name_strings_.resize(parcount);
    for (size_t i = 0; i < parcount; ++i) {
        m.parameter_name_strings_[i] = r.u32(paroff + i * kParameterSize);
        m.parameter_types_[i] = r.i32(paroff + i * kParameterSize + 8);
    }

    auto [coff, ccount] = r.table(kGenericContainers, 16, "generic container");
    for (size_t i = 0; i < ccount; ++i) m.containers_.emplace_back(r.i32(coff + i * 16 + 4), r.i32(coff + i * 16 + 12));
    auto [poff, pcount] = r.table(kGenericParameters, 16, "generic parameter");
    for (size_t i = 0; i < pcount; ++i) m.parameter_names_.push_back(r.u32(poff + i * 16 + 4));
    m.check(name);
    if (L.method_token) read_images(&r, &L, m);  // after the checks: it indexes by declaring type
    m.index();
    return m;
}

// A layout read with the wrong record sizes shows here as indices outside their tables.
void Il2CppMetadata::check(const std::string &name) const {
    auto fail = [&](const std::string &what) { throw symbols_error(name + ": " + what); };
    const size_t tcount = types_.size(), ccount = containers_.size(), pcount = parameter_names_.size();
    for (auto [argc, first] : containers_)
        if (argc < 0 || first < 0 || static_cast<uint64_t>(first) + static_cast<uint64_t>(argc) > pcount)
            fail("a generic container's parameters lie outside the generic parameter table");
    for (uint32_t n : parameter_names_)
        if (n >= strings_.size()) fail("a generic parameter's name lies outside the string table");
    for (const Type &t : types_)
        if (t.name >= strings_.size() || t.ns >= strings_.size()) fail("a type name lies outside the string table");
    for (const Method &x : methods_) {
        if (x.name >= strings_.size()) fail("a method name lies outside the string table");
        if (x.declaring_type < 0 || static_cast<size_t>(x.declaring_type) >= tcount)
            fail("a method's declaring type lies outside the type table");
        if (x.generic_container < -1 || (x.generic_container >= 0 && static_cast<size_t>(x.generic_container) >= ccount))
            fail("a method's generic container lies outside the container table");
    }
}

void Il2CppMetadata::index() {
    std::unordered_map<std::string, uint32_t> same_name;  // "<type index>/<name>" -> methods
    for (const Method &x : methods_) ++same_name[std::to_string(x.declaring_type) + "/" + std::string(str(x.name))];
    for (const Method &x : methods_)
        overloaded_.push_back(same_name[std::to_string(x.declaring_type) + "/" + std::string(str(x.name))] > 1);
    // A type's by-value entry of the binary's type table names that type; an entry two types
    // claim (a file whose indices are not read) names none.
    for (size_t t = 0; t < types_.size(); ++t)
        if (auto [it, fresh] = type_of_byval_.try_emplace(types_[t].byval, static_cast<int32_t>(t)); !fresh) it->second = -1;
    // Overloads alike in their parameters' type entries differ in their return type only
    // (conversion operators).
    std::unordered_map<std::string, uint32_t> same_parameters;
    auto key = [&](const Method &x) {
        std::string k = std::to_string(x.declaring_type) + "/" + std::string(str(x.name)) + "/" + std::to_string(x.generic_container >= 0);
        for (int32_t t : parameter_type_indices(x)) k += "," + std::to_string(t);
        return k;
    };
    for (size_t i = 0; i < methods_.size(); ++i)
        if (overloaded_[i] && parameters_known(methods_[i])) ++same_parameters[key(methods_[i])];
    returns_differ_.assign(methods_.size(), false);
    for (size_t i = 0; i < methods_.size(); ++i)
        if (overloaded_[i] && parameters_known(methods_[i])) returns_differ_[i] = same_parameters[key(methods_[i])] > 1;
    number_overloads_that_may_share();
    for (uint32_t i = 0; i < methods_.size(); ++i)
        by_cpp_name_[cpp_escape(raw_type_name(methods_[i].declaring_type)) + "_" + cpp_escape(str(methods_[i].name))]
            .push_back(i);
}

// Whether the names of two overloads of one type and name may come out alike: the metadata
// tells them apart only where, at some parameter, both entries are types it names and the names
// differ, or both show differing named return types. An entry it does not name (`ref Decimal`,
// `Nullable<Int32>`, an interface passed as RuntimeObject*, a parameter with a default value)
// may be shown as anything, so it matches every other entry; unread parameters match all.
bool Il2CppMetadata::may_share_name(uint32_t a, uint32_t b) const {
    const Method &x = methods_[a], &y = methods_[b];
    if (method_generic_count(a) != method_generic_count(b)) return false;  // `<T>` is shown
    if (!parameters_known(x) || !parameters_known(y)) return true;
    if (x.parameter_count != y.parameter_count) return false;
    std::vector<int32_t> px = parameter_type_indices(x), py = parameter_type_indices(y);
    for (size_t i = 0; i < px.size(); ++i) {
        std::string nx = type_entry_name(px[i]), ny = type_entry_name(py[i]);
        if (!nx.empty() && !ny.empty() && nx != ny) return false;
    }
    std::string rx = type_entry_name(x.return_type), ry = type_entry_name(y.return_type);
    return !(returns_differ_[a] && returns_differ_[b] && !rx.empty() && !ry.empty() && rx != ry);
}

// Overloads whose names may come out alike get `#n`, their place among the methods of that type
// and name in metadata order (declaration order, stable from build to build of the same code), so
// that no two overloads ever share a name.
void Il2CppMetadata::number_overloads_that_may_share() {
    std::unordered_map<std::string, std::vector<uint32_t>> groups;  // "<type>/<name>" -> methods
    for (uint32_t i = 0; i < methods_.size(); ++i)
        if (overloaded_[i]) groups[std::to_string(methods_[i].declaring_type) + "/" + std::string(str(methods_[i].name))].push_back(i);
    overload_number_.assign(methods_.size(), 0);
    for (const auto &[key, members] : groups)
        for (size_t i = 0; i < members.size(); ++i)
            for (size_t j = i + 1; j < members.size(); ++j)
                if (may_share_name(members[i], members[j])) {
                    overload_number_[members[i]] = static_cast<uint32_t>(i + 1);
                    overload_number_[members[j]] = static_cast<uint32_t>(j + 1);
                }
}

std::string_view Il2CppMetadata::str(uint32_t offset) const {
    if (offset >= strings_.size()) return {};
    return std::string_view(strings_.c_str() + offset);
}

// "<T, U>" for the last `own` parameters of a container (a nested type's container repeats its
// declaring types' parameters first).
std::string Il2CppMetadata::generic_params(int32_t container, int own) const {
    if (container < 0 || static_cast<size_t>(container) >= containers_.size()) return "";
    auto [argc, first] = containers_[static_cast<size_t>(container)];
    if (own < 0 || own > argc) own = argc;
    std::string out;
    for (int32_t p = argc - own; p < argc; ++p) {
        int64_t at = static_cast<int64_t>(first) + p;
        std::string_view n = at >= 0 && static_cast<size_t>(at) < parameter_names_.size()
                                 ? str(parameter_names_[static_cast<size_t>(at)])
                                 : std::string_view("T");
        out += (out.empty() ? "<" : ", ") + std::string(n);
    }
    return out.empty() ? "" : out + ">";
}

std::string Il2CppMetadata::type_name(int32_t index) const {
    std::string out;
    // Outermost first; a type's own generic arity is the `N of its metadata name.
    for (int depth = 0; index >= 0 && static_cast<size_t>(index) < types_.size() && depth < 64; ++depth) {
        const Type &t = types_[static_cast<size_t>(index)];
        std::string_view n = str(t.name);
        std::string part;
        size_t tick = n.rfind('`');
        if (tick != std::string_view::npos) {
            int own = std::atoi(std::string(n.substr(tick + 1)).c_str());
            part = std::string(n.substr(0, tick)) + generic_params(t.generic_container, own);
        } else {
            part = std::string(n);
        }
        out = out.empty() ? part : part + "." + out;
        if (t.declaring < 0) {
            std::string_view ns = str(t.ns);
            if (!ns.empty()) out = std::string(ns) + "." + out;
            break;
        }
        index = t.declaring;
    }
    return out;
}

std::string Il2CppMetadata::method_name(int64_t index) const {
    if (index < 0 || static_cast<size_t>(index) >= methods_.size()) return "";
    const Method &m = methods_[static_cast<size_t>(index)];
    return type_name(m.declaring_type) + "." + std::string(str(m.name)) + generic_params(m.generic_container, -1);
}

std::string_view Il2CppMetadata::raw_method_name(int64_t index) const {
    return index < 0 || static_cast<size_t>(index) >= methods_.size() ? std::string_view() : str(methods_[static_cast<size_t>(index)].name);
}

std::string_view Il2CppMetadata::raw_type_name(int32_t index) const {
    return index < 0 || static_cast<size_t>(index) >= types_.size() ? std::string_view() : str(types_[static_cast<size_t>(index)].name);
}

int32_t Il2CppMetadata::declaring_type(int64_t index) const {
    return index < 0 || static_cast<size_t>(index) >= methods_.size() ? -1 : methods_[static_cast<size_t>(index)].declaring_type;
}

std::string Il2CppMetadata::cpp_escape(std::string_view name) {
    std::string out;
    static const char kHex[] = "0123456789ABCDEF";
    for (unsigned char c : name) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') out += static_cast<char>(c);
        else if (c == '.' || c == '`') out += '_';
        else out += {'U', kHex[c >> 4], kHex[c & 15]};
    }
    return out;
}

std::string Il2CppMetadata::method_name_for(std::string_view type_method) const {
    auto it = by_cpp_name_.find(std::string(type_method));
    if (it == by_cpp_name_.end()) return "";
    std::string name = method_name(it->second.front());
    for (uint32_t i : it->second)
        if (method_name(i) != name) return "";
    return name;
}

int64_t Il2CppMetadata::method_by_token(std::string_view image, uint32_t row) const {
    auto i = image_index_.find(std::string(image));
    if (i == image_index_.end()) return -1;
    auto m = by_token_.find((static_cast<uint64_t>(i->second) << 32) | row);
    return m == by_token_.end() ? int64_t{-1} : static_cast<int64_t>(m->second);  // not -1 as uint32_t
}

int Il2CppMetadata::method_generic_count(int64_t index) const {
    if (index < 0 || static_cast<size_t>(index) >= methods_.size()) return 0;
    int32_t c = methods_[static_cast<size_t>(index)].generic_container;
    return c >= 0 && static_cast<size_t>(c) < containers_.size() ? containers_[static_cast<size_t>(c)].first : 0;
}

bool Il2CppMetadata::parameters_known(const Method &x) const {
    // il2cpp writes parameterStart -1 for a method without parameters (versions 39 and 107 are
    // not read: -1 and 0 for every method).
    if (x.parameter_count == 0 && version_ != 39 && version_ != 107) return true;
    return x.parameter_start >= 0 && static_cast<uint64_t>(x.parameter_start) + x.parameter_count <= parameter_types_.size();
}

std::vector<int32_t> Il2CppMetadata::parameter_type_indices(const Method &x) const {
    if (!parameters_known(x) || x.parameter_count == 0) return {};
    auto first = parameter_types_.begin() + x.parameter_start;
    return {first, first + x.parameter_count};
}

std::string Il2CppMetadata::type_entry_name(int32_t type_index) const {
    auto it = type_of_byval_.find(type_index);
    return it == type_of_byval_.end() || it->second < 0 ? "" : std::string(str(types_[static_cast<size_t>(it->second)].name));
}

std::optional<std::vector<std::string>> Il2CppMetadata::parameter_types(int64_t index) const {
    if (index < 0 || static_cast<size_t>(index) >= methods_.size() || !parameters_known(methods_[static_cast<size_t>(index)]))
        return std::nullopt;
    std::vector<std::string> out;
    for (int32_t t : parameter_type_indices(methods_[static_cast<size_t>(index)])) out.push_back(type_entry_name(t));
    return out;
}

std::vector<std::string_view> Il2CppMetadata::parameter_names(int64_t index) const {
    if (index < 0 || static_cast<size_t>(index) >= methods_.size()) return {};
    const Method &x = methods_[static_cast<size_t>(index)];
    if (!parameters_known(x) || x.parameter_count == 0 ||
        static_cast<uint64_t>(x.parameter_start) + x.parameter_count > parameter_name_strings_.size())
        return {};
    std::vector<std::string_view> out;
    for (uint16_t i = 0; i < x.parameter_count; ++i)
        out.push_back(str(parameter_name_strings_[static_cast<size_t>(x.parameter_start) + i]));  // "" if outside
    return out;
}

std::optional<bool> Il2CppMetadata::is_static(int64_t index) const {
    if (index < 0 || static_cast<size_t>(index) >= methods_.size() || methods_[static_cast<size_t>(index)].flags < 0) return std::nullopt;
    constexpr int kStatic = 0x0010;  // METHOD_ATTRIBUTE_STATIC (il2cpp-tabledefs.h)
    return (methods_[static_cast<size_t>(index)].flags & kStatic) != 0;
}

std::string Il2CppMetadata::return_type(int64_t index) const {
    if (index < 0 || static_cast<size_t>(index) >= methods_.size()) return "";
    return type_entry_name(methods_[static_cast<size_t>(index)].return_type);
}

}  // namespace mt::sym
