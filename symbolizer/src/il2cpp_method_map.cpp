// MethodMap.tsv reading (see il2cpp_symbols.h for the format).
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "memtracer/symbolizer/errors.h"
#include "il2cpp_symbols.h"

#include "il2cpp_code_registration.h"
#include "names.h"
#include "split.h"

namespace mt::sym {

std::optional<std::string> MethodMap::csharp_from_cecil(std::string_view full) {
    size_t colons = full.find("::");
    if (colons == std::string_view::npos || colons == 0) return std::nullopt;
    size_t space = full.rfind(' ', colons);
    size_t type_start = space == std::string_view::npos ? 0 : space + 1;
    std::string type(full.substr(type_start, colons - type_start));
    std::string_view rest = full.substr(colons + 2);
    if (type.empty() || rest.empty() || rest.find('(') == std::string_view::npos) return std::nullopt;
    for (char &c : type)
        if (c == '/') c = '.';  // Cecil writes nested types as Outer/Inner
    return type + "." + std::string(rest);
}

MethodMap MethodMap::parse(std::string_view text, const std::string &name) {
    MethodMap map;
    size_t line_no = 0;
    while (!text.empty()) {
        std::string_view line = take_until(text, '\n');
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        size_t t1 = line.find('\t');
        size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
        auto where = name + ":" + std::to_string(line_no) + ": ";
        if (t2 == std::string_view::npos)
            throw symbols_error(where + "expected 3 tab-separated fields (native name, C# method, assembly)");
        std::string_view native = line.substr(0, t1);
        std::string_view method = line.substr(t1 + 1, t2 - t1 - 1);
        if (native.empty()) throw symbols_error(where + "empty native function name");
        if (native == "NULL") continue;  // a method il2cpp generated no code for
        auto cs = csharp_from_cecil(method);
        if (!cs)
            throw symbols_error(where + "column 2 is not a C# method name ('ReturnType Type::Method(Args)'): " +
                                std::string(method.substr(0, 80)));
        map.by_native_.emplace(std::string(native), std::move(*cs));
    }
    return map;
}

const std::string *MethodMap::csharp_name(std::string_view native) const {
    auto it = by_native_.find(std::string(native));
    // An `_inline` or `_AdjustorThunk` copy is the method itself (il2cpp never lists the copies).
    for (std::string_view n = native; it == by_native_.end() && strip_copy_suffix(n) != n;) {
        n = strip_copy_suffix(n);
        it = by_native_.find(std::string(n));
    }
    return it == by_native_.end() ? nullptr : &it->second;
}

namespace {

namespace fs = std::filesystem;

bool holds_cpp(const fs::path &dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".cpp") return true;
    return false;
}

// Whether `p` is a file to read. Something there that is not a regular file (a FIFO, a device
// such as /dev/zero, a directory, a link to one) is an error naming it, never a silent skip: the
// user would only see C# names missing. Only stat is used, so a FIFO is never opened (no hang).
bool usable_file(const fs::path &p) {
    std::error_code ec;
    fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) return false;
    if (fs::is_regular_file(st)) return true;
    const char *kind = fs::is_directory(st)        ? "a directory"
                       : fs::is_fifo(st)           ? "a FIFO (named pipe)"
                       : fs::is_character_file(st) ? "a character device"
                       : fs::is_block_file(st)     ? "a block device"
                       : fs::is_socket(st)         ? "a socket"
                                                   : "not a regular file";
    throw symbols_error(p.string() + " is " + kind + ", not the regular file Unity writes; give --il2cpp-symbols " +
                        "a folder where " + p.filename().string() + " is the file itself (or remove it)");
}

std::string find_metadata(const fs::path &dir_in, const fs::path &out_in) {
    std::error_code ec;
    fs::path dir = fs::absolute(dir_in, ec), out = fs::absolute(out_in, ec);
    const char *kMetadata = "Data/Managed/Metadata/global-metadata.dat";
    for (fs::path p : {dir / "global-metadata.dat", dir / kMetadata, dir / "assets/bin" / kMetadata,
                       dir / "unityLibrary/src/main/assets/bin" / kMetadata, dir / "src/main/assets/bin" / kMetadata,
                       out.parent_path().parent_path().parent_path() / kMetadata,  // iOS: <export>/Il2CppOutputProject/Source/il2cppOutput
                       out.parent_path().parent_path().parent_path() / "assets/bin" / kMetadata})  // Android: <unityLibrary>/src/main/Il2CppOutputProject/...
        if (usable_file(p)) return p.string();
    return "";
}

// The il2cpp output folder DIR stands for (see load_dir), or DIR itself.
fs::path output_folder(const fs::path &dir) {
    std::error_code ec;
    if (dir.filename() == "Symbols" && fs::is_regular_file(dir / "LineNumberMappings.json", ec)) return dir.parent_path();
    for (const char *sub : {"Il2CppOutputProject/Source/il2cppOutput",
                            "unityLibrary/src/main/Il2CppOutputProject/Source/il2cppOutput",
                            "src/main/Il2CppOutputProject/Source/il2cppOutput"})
        if (fs::is_directory(dir / sub, ec)) return dir / sub;
    return dir;
}

}  // namespace

Il2CppSymbols Il2CppSymbols::load_dir(const std::string &dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw symbols_error(dir + ": --il2cpp-symbols needs a directory");
    fs::path out = output_folder(fs::path(dir));
    auto locate = [&](const char *file) -> std::string {
        for (fs::path p : {out / file, out / "Symbols" / file, fs::path(dir) / file})
            if (usable_file(p)) return p.string();
        return "";
    };
    Il2CppSymbols s;
    std::string mm = locate("MethodMap.tsv"), lm = locate("LineNumberMappings.json");
    bool sources = holds_cpp(out);
    std::string md = find_metadata(fs::path(dir), out);
    if (mm.empty() && lm.empty() && !sources && md.empty())
        throw symbols_error(dir + ": no MethodMap.tsv, LineNumberMappings.json, generated *.cpp or global-metadata.dat found "
                                  "(looked in it, its Symbols/, an export's Il2CppOutputProject/Source/il2cppOutput and "
                                  "Data/Managed/Metadata)");
    if (!md.empty()) s.metadata = load_symbols_file<Il2CppMetadata>(md);
    if (!mm.empty()) s.methods = load_symbols_file<MethodMap>(mm);
    if (!lm.empty()) s.lines = load_symbols_file<LineMap>(lm);
    if (sources) {
        s.sources = GeneratedSources::scan_dir(out.string());
        s.output_dir = out.string();
    }
    return s;
}

namespace {

// A function name and the names of the methods it copies (strip_copy_suffix), the name first.
std::vector<std::string_view> with_copied(std::string_view name) {
    std::vector<std::string_view> out{name};
    for (std::string_view s = strip_copy_suffix(name); s != out.back(); s = strip_copy_suffix(s)) out.push_back(s);
    return out;
}

// An overload's parameter list: a parameter by the metadata's name of its type where the
// metadata names it (an enum or interface, which the C++ signature writes as `int32_t` or
// `RuntimeObject*`, included), else as the generated signature writes it, else `?`; the return
// type after " : " where only it differs (conversion operators). "" if neither source is there.
std::string overload_signature(const Il2CppMetadata &md, int64_t index, const GeneratedFunction *signature,
                               const GeneratedSources *types) {
    std::optional<std::vector<std::string>> named = md.parameter_types(index);
    std::vector<std::string> cpp;
    if (signature) cpp = il2cpp_parameter_list(signature->parameters, types);
    std::vector<std::string> shown;
    if (named && (!signature || cpp.size() == named->size())) {
        for (size_t i = 0; i < named->size(); ++i) shown.push_back(!(*named)[i].empty() ? (*named)[i] : signature ? cpp[i] : "?");
    } else if (signature) {
        shown = std::move(cpp);
    } else {
        uint32_t n = md.overload_number(index);
        return n ? "#" + std::to_string(n) : "";
    }
    std::string out;
    for (const std::string &p : shown) out += (out.empty() ? "" : ", ") + p;
    out = "(" + out + ")";
    if (md.differs_by_return_only(index))
        if (std::string r = md.return_type(index); !r.empty()) out += " : " + r;
    if (uint32_t n = md.overload_number(index)) out += "#" + std::to_string(n);
    return out;
}

// How well a metadata parameter type fits the signature's: 2 the same name, 1 an integer for
// a type that is not a primitive (an enum), Object for one that is not a primitive (an interface
// or class il2cpp passes as RuntimeObject*) or full generic sharing's T, and a type the metadata
// does not name (as likely: a shared generic instance is RuntimeObject* too, and ranking it lower
// gave another HashSet<T> constructor the name of ..ctor(SerializationInfo, StreamingContext)
// on a real export); -1 not at all.
int fit(const std::string &named, const std::string &cpp) {
    static const std::set<std::string, std::less<>> kPrimitive = {"Boolean", "Char", "SByte", "Byte", "Int16", "UInt16", "Int32",
                                                                  "UInt32", "Int64", "UInt64", "Single", "Double", "IntPtr",
                                                                  "UIntPtr", "String", "Object"};
    static const std::set<std::string, std::less<>> kInteger = {"SByte", "Byte", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64"};
    if (named.empty()) return 1;
    if (named == cpp) return 2;
    if (cpp == "T" || ((kInteger.count(cpp) || cpp == "Object") && !kPrimitive.count(named))) return 1;
    return -1;
}

// True if a type's full name ("System.Collections.Generic.List<T>.Enumerator") has a generic
// component: the nested types of a generic type share its code as well.
bool generic_type(std::string_view full) {
    for (size_t dot = full.find('.'); ; dot = full.find('.', dot + 1)) {
        std::string_view head = full.substr(0, dot);
        if (head.ends_with('>')) return true;
        if (dot == std::string_view::npos) return false;
    }
}

// The C# names of a generated signature's parameters, as il2cpp writes them: `___0_count`
// (2022.3.2x+) or `___count0` (before) -> "count"; `__this`, `method` and a returned value's
// pointer are not parameters. A name il2cpp had to escape keeps its escapes (it then matches no
// metadata name, which only loses the tie-break below).
std::vector<std::string_view> cpp_parameter_names(std::string_view parameters) {
    std::vector<std::string_view> out;
    while (!parameters.empty()) {
        std::string_view p = take_until(parameters, ',');
        while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
        size_t b = p.size();
        while (b > 0 && (std::isalnum(static_cast<unsigned char>(p[b - 1])) || p[b - 1] == '_')) --b;
        std::string_view id = p.substr(b);
        if (!id.starts_with("___")) continue;
        id.remove_prefix(3);
        size_t digits = 0;
        while (digits < id.size() && std::isdigit(static_cast<unsigned char>(id[digits]))) ++digits;
        if (digits > 0 && digits < id.size() && id[digits] == '_') {
            id.remove_prefix(digits + 1);
        } else {
            while (!id.empty() && std::isdigit(static_cast<unsigned char>(id.back()))) id.remove_suffix(1);
        }
        out.push_back(id);
    }
    return out;
}

// The method of those il2cpp spells `Type_Method` of `native` whose parameters fit the generated
// signature's best: as many, each fitting, the highest total, alone; -1 if none or a tie. Of
// overloads that fit alike (Dictionary<TKey, TValue>..ctor(IDictionary<TKey, TValue> dictionary)
// and ..ctor(IEqualityComparer<TKey> comparer), both `RuntimeObject*`), the one whose parameter
// names are the signature's wins, and then the one static where the signature has no `__this`
// (ArraySortHelper<T>.Sort(T[], Int32, Int32, IComparer<T>) and static Sort(..., Comparison<T>)). Only
// generic methods of as many parameters for a generic method instance (`_Tis<Arg>` per
// argument), only non-generic ones otherwise, and for shared code (`_gshared`) only a generic
// type's. For a function no index comment or method pointer table names: a generic type's shared
// code, whose overloads (Dictionary<TKey, TValue>.Resize() and Resize(Int32, Boolean)) share
// `Type_Method`.
int64_t method_fitting(const Il2CppMetadata &md, std::string_view native, const GeneratedFunction &signature,
                       const GeneratedSources *types) {
    const std::vector<uint32_t> *candidates = md.methods_for(il2cpp_type_method(native));
    if (!candidates) return -1;
    int instance_arguments = 0;
    for (size_t at = native.find("_Tis"); at != std::string_view::npos; at = native.find("_Tis", at + 4)) ++instance_arguments;
    bool shared = native.ends_with("_gshared") && instance_arguments == 0;
    std::vector<std::string> cpp = il2cpp_parameter_list(signature.parameters, types);
    std::vector<std::string_view> cpp_names = cpp_parameter_names(signature.parameters);
    if (cpp_names.size() != cpp.size()) cpp_names.clear();
    const bool has_this = signature.parameters.find("* __this") != std::string::npos;
    int64_t found = -1;
    int best = -1;
    bool tie = false;
    for (uint32_t m : *candidates) {
        std::optional<std::vector<std::string>> named = md.parameter_types(m);
        if (!named || named->size() != cpp.size() || md.method_generic_count(m) != instance_arguments) continue;
        if (shared && !generic_type(md.type_name(md.declaring_type(m)))) continue;
        int score = 0;
        for (size_t i = 0; i < cpp.size() && score >= 0; ++i) {
            int f = fit((*named)[i], cpp[i]);
            score = f < 0 ? -1 : score + f;
        }
        if (score < 0) continue;
        // The types first, then the names: a name alike counts less than any type point.
        score *= static_cast<int>(cpp.size()) + 2;
        if (!cpp_names.empty()) {
            std::vector<std::string_view> names = md.parameter_names(m);
            for (size_t i = 0; i < names.size() && i < cpp_names.size(); ++i) score += !names[i].empty() && names[i] == cpp_names[i];
        }
        std::optional<bool> is_static = md.is_static(m);
        score += is_static && *is_static != has_this;
        if (score < best) continue;
        tie = score == best;
        if (score > best) found = m, best = score;
    }
    return tie ? -1 : found;
}

std::string_view strip_copies(std::string_view name) {
    for (std::string_view s = strip_copy_suffix(name); s != name; s = strip_copy_suffix(name)) name = s;
    return name;
}

}  // namespace

std::string Il2CppSymbols::csharp_name(std::string_view reported) const {
    // Backends report C++-linkage functions (the `_inline` copies) by their mangled name.
    const std::string native = plain_function_name(reported);
    if (methods)
        if (const std::string *cs = methods->csharp_name(native)) return *cs;
    if (!metadata) return "";
    const GeneratedSources *types = sources ? &*sources : nullptr;
    // The method: the Method Definition Index of the function or of the method it copies (an
    // `_inline` or `_AdjustorThunk` carries none), else the binary's code registration, which
    // lists the method itself. The signature: the first of them the sources define.
    int64_t index = -1;
    const GeneratedFunction *signature = nullptr;
    for (std::string_view n : with_copied(native)) {
        const GeneratedFunction *fn = types ? types->function_named(n) : nullptr;
        if (fn && !signature) signature = fn;
        if (fn && fn->method_index >= 0) {
            index = fn->method_index;
            break;
        }
    }
    for (std::string_view n : with_copied(native)) {
        if (index >= 0) break;
        if (auto r = registered_methods.find(std::string(n)); r != registered_methods.end()) index = r->second;
    }
    if (index < 0 && signature) index = method_fitting(*metadata, strip_copies(native), *signature, types);
    std::string name;
    if (index >= 0) {
        name = metadata->method_name(index);
        if (!name.empty() && metadata->overloaded(index)) name += overload_signature(*metadata, index, signature, types);
    } else {
        // Only the names (a generic method instance, which no per-assembly table lists): the
        // metadata's full name when it is unambiguous.
        name = metadata->method_name_for(il2cpp_type_method(native));
    }
    if (name.empty()) return "";
    std::string params;
    if (size_t paren = name.find_first_of("(#"); paren != std::string::npos) params = name.substr(paren), name.resize(paren);
    if (name.back() == '>' && !il2cpp_generic_arguments(native, types).empty())
        name = name.substr(0, name.rfind('<')) + il2cpp_generic_arguments(native, types);
    return name + params;
}

size_t Il2CppSymbols::add_code_registration(const std::string &binary, const std::vector<std::string> &dsym_files) {
    if (!metadata) return 0;
    CodeRegistration r = read_code_registration(binary, *metadata, dsym_files);
    size_t before = registered_methods.size();
    registered_methods.merge(r.method_of_symbol);
    return registered_methods.size() - before;
}

std::optional<CsLocation> Il2CppSymbols::cs_location(std::string_view cpp_file, uint32_t cpp_line, uint32_t function_line) const {
    // LineNumberMappings.json is what Unity's own tools read, so where it and the sources'
    // //<source_info> comments disagree (a real 2022.3.31f1 export's JSON is one line off them
    // for 104 entries of one file) the JSON wins; the comments answer for files it lacks.
    if (!lines || !lines->has_file(cpp_file)) {
        if (sources && sources->has_source_info(cpp_file)) return sources->cs_location(cpp_file, cpp_line);
        if (!lines) return std::nullopt;
    }
    if (!sources || !sources->has_file(cpp_file)) {
        // Only the binary and LineNumberMappings.json: the function starts at its DWARF
        // declaration line, so a mapping above it is another method's. A line before the
        // function's first mapping (its metadata setup) gets none rather than the previous
        // method's last line: the function's end is not known here to look past `cpp_line`.
        if (function_line != 0 && function_line <= cpp_line) {
            LineBounds b{function_line, cpp_line};
            return lines->lookup(cpp_file, cpp_line, &b);
        }
        return lines->lookup(cpp_file, cpp_line);
    }
    const GeneratedFunction *fn = sources->function_at(cpp_file, cpp_line);
    if (!fn) return std::nullopt;  // between functions: no method's line
    LineBounds b{fn->first_line, fn->last_line};
    return lines->lookup(cpp_file, cpp_line, &b);
}

}  // namespace mt::sym
