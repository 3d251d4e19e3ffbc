// MethodMap.tsv reading (see il2cpp_symbols.h for the format).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "errors.h"
#include "il2cpp_symbols.h"

#include "il2cpp_code_registration.h"
#include "names.h"

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
        size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
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

MethodMap MethodMap::load(const std::string &path) {
    return parse(read_symbols_file(path), path);
}

const std::string *MethodMap::csharp_name(std::string_view native) const {
    auto it = by_native_.find(std::string(native));
    // An `_inline` copy is the method itself, compiled into its callers.
    if (it == by_native_.end() && native.ends_with("_inline")) it = by_native_.find(std::string(native.substr(0, native.size() - 7)));
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
    if (!md.empty()) s.metadata = Il2CppMetadata::load(md);
    if (!mm.empty()) s.methods = MethodMap::load(mm);
    if (!lm.empty()) s.lines = LineMap::load(lm);
    if (sources) {
        s.sources = GeneratedSources::scan_dir(out.string());
        s.output_dir = out.string();
    }
    return s;
}

std::string Il2CppSymbols::csharp_name(std::string_view native) const {
    if (methods)
        if (const std::string *cs = methods->csharp_name(native)) return *cs;
    if (!metadata) return "";
    const GeneratedFunction *fn = sources ? sources->function_named(native) : nullptr;
    // _inline copies carry no index; the method they copy does.
    if ((!fn || fn->method_index < 0) && sources && native.ends_with("_inline"))
        fn = sources->function_named(native.substr(0, native.size() - 7));
    std::string name;
    if (fn && fn->method_index >= 0) {
        name = metadata->method_name(fn->method_index);
        // Overloads told apart by their parameters, read from the generated signature.
        if (!name.empty() && metadata->overloaded(fn->method_index)) name += il2cpp_parameter_types(fn->parameters, &*sources);
    }
    // No index (only the binary and the metadata kept): the binary's method pointer tables,
    // else the name when it is unambiguous.
    else if (auto r = registered_methods.find(std::string(native.ends_with("_inline") ? native.substr(0, native.size() - 7) : native));
             r != registered_methods.end())
        name = metadata->method_name(r->second);
    else name = metadata->method_name_for(il2cpp_type_method(native));
    if (name.empty()) return "";
    std::string params;
    if (size_t paren = name.find('('); paren != std::string::npos) params = name.substr(paren), name.resize(paren);
    const GeneratedSources *types = sources ? &*sources : nullptr;
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
    // The binary was compiled from these sources: their own comments are the mapping of its
    // lines, even where LineNumberMappings.json was written for another edit of the file.
    if (sources && sources->has_source_info(cpp_file)) return sources->cs_location(cpp_file, cpp_line);
    if (!lines) return std::nullopt;
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
