// real_export_check: how often memtracer's C# file:line for a generated C++ line equals the one
// Unity's own //<source_info> comments give, on a real Unity export given on the command line.
//
//   real_export_check EXPORT_DIR [--cpp-root DIR]
//
// EXPORT_DIR is anything --il2cpp-symbols takes (an iOS Xcode export, its il2cppOutput folder or
// Symbols/). No binary is built: a "frame" is every call statement inside a generated function
// (a line with '(' ending in ';'), looked up as DWARF would name it: the file under --cpp-root
// (default: where it is on this machine, which differs from the build-machine path Unity wrote in
// LineNumberMappings.json). The reference for a line is read from the .cpp text itself, not from
// the JSON: the nearest //<source_info:File.cs:N> comment above it inside its function, else the
// function's first one, else none (a method of an assembly built without PDBs). Printed: per
// category, frames agreeing with LineNumberMappings.json looked up file-wide (memtracer before
// issue 14), the JSON bounded by the function, and what memtracer answers now (the sources' own
// comments when they are at hand). With global-metadata.dat found, the names are checked too.
#include <cctype>
#include <regex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "memtracer/symbolizer/errors.h"
#include "il2cpp_symbols.h"
#include "names.h"

using namespace mt::sym;
namespace fs = std::filesystem;

namespace {

struct Tally {
    uint64_t frames = 0, old_ok = 0, json_ok = 0, new_ok = 0;
};

std::optional<CsLocation> source_info(const std::string &line) {
    size_t at = line.find("//<source_info:");
    if (at == std::string::npos) return std::nullopt;
    size_t end = line.rfind('>');
    size_t colon = line.rfind(':', end);
    if (end == std::string::npos || colon == std::string::npos || colon < at + 15) return std::nullopt;
    return CsLocation{line.substr(at + 15, colon - at - 15),
                      static_cast<uint32_t>(std::stoul(line.substr(colon + 1, end - colon - 1)))};
}

bool is_call(const std::string &line) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line.compare(b, 2, "//") == 0) return false;
    size_t e = line.find_last_not_of(" \t\r");
    return line[e] == ';' && line.find('(') != std::string::npos;
}

const char *category(const std::string &line) {
    if (line.find("il2cpp_codegen_object_new") != std::string::npos) return "il2cpp_codegen_object_new";
    if (line.find("il2cpp_codegen_initialize_runtime_metadata") != std::string::npos)
        return "il2cpp_codegen_initialize_runtime_metadata";
    return "other calls";
}

// How il2cpp writes a metadata name into a C++ identifier: '.' and '`' as '_', other characters
// C++ cannot hold as U<hex>.
std::string cpp_escape(std::string_view s) {
    std::string out;
    char buf[4];
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '_') out += static_cast<char>(c);
        else if (c == '.' || c == '`') out += '_';
        else snprintf(buf, sizeof buf, "U%02X", c), out += buf;
    }
    return out;
}

// The native name before `_m<40 hex>` and, for a generic instance, before `_Tis`.
std::string_view native_body(std::string_view n) {
    for (size_t p = n.rfind("_m"); p != std::string_view::npos && p > 0; p = n.rfind("_m", p - 1)) {
        size_t k = p + 2;
        while (k < n.size() && std::isxdigit(static_cast<unsigned char>(n[k])) && !std::islower(static_cast<unsigned char>(n[k]))) ++k;
        if (k - p - 2 == 40) {
            std::string_view b = n.substr(0, p);
            return b.substr(0, b.find("_Tis"));
        }
    }
    return {};
}

// Full-name exactness per the convention of docs/symbolizer.md, judged per function against
// the metadata without reusing the formatting: the name minus its parameters and its generic
// method arguments must be the metadata's `Namespace.Outer.Inner<T>.Method`; a generic method
// instance must show as many arguments as the method declares, none of them holding il2cpp's
// C++ spelling (`_t<hash>`, `_Tis`, `U3C`, `List_1`) or only an arity (``KeyValuePair`2``: the
// instance's own arguments are not in the native name); the parameters of an overload must be
// free of C++ spelling too (their uniqueness is counted separately). Returns the miss category,
// "" if exact.
std::string inexact(const Il2CppSymbols &s, const GeneratedFunction &f, const std::string &full) {
    static const std::regex cpp_spelling(R"(_t[0-9A-F]{40}|_Tis|_m[0-9A-F]{40}|U[0-9A-F]{2}|[A-Za-z]_[0-9]+(\[|,|>|\)|$))");
    if (full.empty()) return "no name";
    std::string name = full.substr(0, full.find('(')), params = full.substr(name.size());
    std::string decl = s.metadata->method_name(f.method_index);
    int own = s.metadata->method_generic_count(f.method_index);
    bool instance = f.name.find("_Tis") != std::string::npos;
    std::string args;
    if (own > 0) {
        // Strip the method's own "<...>" (the last balanced group) from both.
        auto strip = [](std::string &n) {
            if (n.empty() || n.back() != '>') return std::string();
            int d = 0;
            for (size_t i = n.size(); i-- > 0;) {
                d += n[i] == '>' ? 1 : n[i] == '<' ? -1 : 0;
                if (d == 0) {
                    std::string a = n.substr(i);
                    n.resize(i);
                    return a;
                }
            }
            return std::string();
        };
        args = strip(name);
        strip(decl);
    }
    if (name != decl) return instance ? "generic instance: declaring part differs" : "declaring part differs";
    if (own > 0 && instance) {
        int n = args.size() > 2 ? 1 : 0, d = 0;
        for (size_t i = 1; i + 1 < args.size(); ++i) {
            d += args[i] == '<' ? 1 : args[i] == '>' ? -1 : 0;
            n += d == 0 && args[i] == ',';
        }
        if (n != own) return "generic instance: argument count";
        if (std::regex_search(args, cpp_spelling)) return "generic instance: C++ spelling in an argument";
        if (args.find('`') != std::string::npos) return "generic instance: generic argument shown by arity only";
    }
    if (std::regex_search(params, cpp_spelling)) return "parameters: C++ spelling";
    return "";
}

// Names: the metadata's name against the native name (the reader and the index link checked on a
// real file), and the name-only rule against the metadata's Type.Method.
// Overloaded methods, and those whose shown name no other overload shares (declaring type/name ->
// shown name -> method indices showing it).
std::pair<uint64_t, uint64_t> overload_counts(const std::map<std::string, std::map<std::string, std::set<int64_t>>> &names) {
    uint64_t overloads = 0, told_apart = 0;
    for (const auto &[method, shown_as] : names)
        for (const auto &[text, indices] : shown_as) {
            overloads += indices.size();
            told_apart += indices.size() == 1;
            if (indices.size() > 1 && getenv("MT_SHOW_NAMES")) printf("    same for %zu overloads: %s\n", indices.size(), text.c_str());
        }
    return {overloads, told_apart};
}

// `s` holds the sources with their comments (the reference: each function's method); `namer`
// gives the names judged (`s` itself, or the same export read without the comments). Also judged:
// the functions that are copies of an indexed method (`_inline`, `_AdjustorThunk`), named as a
// DWARF backend reports them.
void check_names(const Il2CppSymbols &s, const Il2CppSymbols &namer, bool brief) {
    uint64_t indexed = 0, consistent = 0, heuristic_ok = 0, typed_ok = 0, full = 0, out_of_range = 0, by_name_ok = 0,
             by_name_none = 0;
    std::vector<std::string> shown;
    uint64_t exact = 0, params_agree = 0, params_loose = 0, params_differ = 0, params_unnamed = 0, params_count_differs = 0;
    std::vector<std::string> param_examples;
    std::map<std::string, uint64_t> misses;
    std::map<std::string, std::vector<std::string>> examples;
    // overloaded method's name -> shown name with parameters -> method indices showing it
    std::map<std::string, std::map<std::string, std::set<int64_t>>> overload_names;
    for (const auto &file : s.sources->all_functions())
        for (const GeneratedFunction &f : file) {
            if (f.method_index < 0) continue;
            ++indexed;
            std::string_view raw_method = s.metadata->raw_method_name(f.method_index);
            if (raw_method.empty()) {
                ++out_of_range;
                continue;
            }
            std::string_view raw_type = s.metadata->raw_type_name(s.metadata->declaring_type(f.method_index));
            std::string expect_native = cpp_escape(raw_type) + "_" + cpp_escape(raw_method);
            bool ok = native_body(f.name) == expect_native;
            consistent += ok;
            if (!ok && shown.size() < 5) shown.push_back(f.name + "  vs  " + expect_native);
            std::string expect = std::string(raw_type) + "." + std::string(raw_method) + il2cpp_generic_arguments(f.name);
            heuristic_ok += il2cpp_csharp_name(f.name) == expect;
            bool t_ok = il2cpp_csharp_name(f.name, &*s.sources) == expect;
            typed_ok += t_ok;
            if (getenv("MT_SHOW_NAMES") && (!t_ok || il2cpp_csharp_name(f.name) != expect))
                printf("    name: %s -> %s / %s, metadata %s\n", f.name.c_str(), il2cpp_csharp_name(f.name).c_str(),
                       il2cpp_csharp_name(f.name, &*s.sources).c_str(), expect.c_str());
            std::string full_name = namer.csharp_name(f.name);
            std::string miss = inexact(s, f, full_name);
            ++(miss.empty() ? exact : misses[miss]);
            if (!miss.empty() && examples[miss].size() < 3) examples[miss].push_back(f.name + " -> " + full_name);
            if (getenv("MT_DUMP_NAMES")) printf("FULL\t%s\t%s\n", f.name.c_str(), full_name.c_str());
            full += !full_name.empty();
            if (s.metadata->overloaded(f.method_index) && f.name.find("_Tis") == std::string::npos &&
                !f.name.ends_with("_inline")) {
                // By declaring type, not by name: assemblies carry same-named types of their own
                // (Mono.Math.BigInteger in mscorlib and Mono.Security), whose methods are not overloads.
                std::string key = std::to_string(s.metadata->declaring_type(f.method_index)) + "/" +
                                  full_name.substr(0, full_name.find('('));
                overload_names[key][full_name].insert(f.method_index);
            }
            // The metadata's parameter types against the signature's C++ types: equal, or the
            // signature's integer (an enum) or Object (an interface, or a class il2cpp passes as
            // RuntimeObject*); anything else would be a misread entry.
            if (auto named = s.metadata->parameter_types(f.method_index); named && !brief) {
                std::vector<std::string> cpp = il2cpp_parameter_list(f.parameters, &*s.sources);
                if (cpp.size() != named->size()) ++params_count_differs;
                else
                    for (size_t i = 0; i < cpp.size(); ++i) {
                        const std::string &m = (*named)[i];
                        if (m.empty()) {
                            ++params_unnamed;
                            continue;
                        }
                        static const std::set<std::string> kLoose = {"Int32", "UInt32", "Int64", "UInt64", "Int16", "UInt16",
                                                                     "Byte", "SByte", "Object", "IntPtr"};
                        bool same = cpp[i] == m || m.starts_with(cpp[i] + "`");
                        bool loose = !same && kLoose.count(cpp[i]);
                        ++(same ? params_agree : loose ? params_loose : params_differ);
                        if (!same && param_examples.size() < 5) param_examples.push_back(f.name + ": " + cpp[i] + " vs " + m);
                    }
            }
            // The binary-and-metadata path: by the name alone, against the index's answer.
            std::string by_name = s.metadata->method_name_for(il2cpp_type_method(f.name));
            if (by_name.empty()) ++by_name_none;
            else if (by_name == s.metadata->method_name(f.method_index)) ++by_name_ok;
            else if (getenv("MT_SHOW_NAMES")) printf("    by name: %s -> %s, index %s\n", f.name.c_str(), by_name.c_str(),
                                                    s.metadata->method_name(f.method_index).c_str());
        }
    // The copies: an `_inline` copy has C++ linkage, so DWARF names its inlined frames by the
    // mangled linkage name (stood in for by `_Z<length><name>v`, which demangles to the same base
    // name); an `_AdjustorThunk` is extern "C", its plain name. Before issue 19 the first went to
    // the name-only rule and the second to the metadata's Type_Method.
    uint64_t copies = 0, copies_exact = 0, copies_exact_before = 0;
    std::map<std::string, uint64_t> copy_misses;
    for (const auto &file : s.sources->all_functions())
        for (const GeneratedFunction &f : file) {
            std::string_view base = strip_copy_suffix(f.name);
            if (base == f.name) continue;
            const GeneratedFunction *m = s.sources->function_named(base);
            while (m && m->method_index < 0 && strip_copy_suffix(m->name) != m->name) m = s.sources->function_named(strip_copy_suffix(m->name));
            if (!m || m->method_index < 0 || s.metadata->raw_method_name(m->method_index).empty()) continue;
            ++copies;
            bool inl = f.name.ends_with("_inline");
            std::string reported = inl ? "_Z" + std::to_string(f.name.size()) + f.name + "v" : f.name;
            std::string miss = inexact(s, *m, namer.csharp_name(reported));
            ++(miss.empty() ? copies_exact : copy_misses[miss]);
            if (!miss.empty() && examples["copy: " + miss].size() < 3) examples["copy: " + miss].push_back(f.name + " -> " + namer.csharp_name(reported));
            std::string before = inl ? il2cpp_csharp_name(f.name, &*s.sources) : s.metadata->method_name_for(il2cpp_type_method(f.name));
            if (before.empty()) before = il2cpp_csharp_name(f.name, &*s.sources);
            copies_exact_before += inexact(s, *m, before).empty();
        }
    auto pct = [&](uint64_t n) { return indexed ? 100.0 * static_cast<double>(n) / static_cast<double>(indexed) : 0.0; };
    if (brief) {
        auto [overloads, told_apart] = overload_counts(overload_names);
        printf("  indexed functions %llu: full name exact %6.2f%%; overloaded methods %llu, told apart %6.2f%%\n",
               static_cast<unsigned long long>(indexed), pct(exact), static_cast<unsigned long long>(overloads),
               overloads ? 100.0 * static_cast<double>(told_apart) / static_cast<double>(overloads) : 0.0);
        for (const auto &[what, n] : misses) {
            printf("    miss: %-52s %6.2f%% (%llu)\n", what.c_str(), pct(n), static_cast<unsigned long long>(n));
            for (const std::string &e : examples[what]) printf("      e.g. %s\n", e.c_str());
        }
    }
    auto all_pct = [&](uint64_t n) { return indexed + copies ? 100.0 * static_cast<double>(n) / static_cast<double>(indexed + copies) : 0.0; };
    printf("  copies (_inline, _AdjustorThunk) of indexed methods %llu: exact %llu (before issue 19: %llu); all functions %llu, "
           "full name exact %6.2f%% (before: %6.2f%%)\n", static_cast<unsigned long long>(copies),
           static_cast<unsigned long long>(copies_exact), static_cast<unsigned long long>(copies_exact_before),
           static_cast<unsigned long long>(indexed + copies), all_pct(exact + copies_exact), all_pct(exact + copies_exact_before));
    for (const auto &[what, n] : copy_misses) {
        printf("    copy miss: %-47s %llu\n", what.c_str(), static_cast<unsigned long long>(n));
        for (const std::string &e : examples["copy: " + what]) printf("      e.g. %s\n", e.c_str());
    }
    if (brief) return;
    printf("names: global-metadata.dat version %d (layout %s): %zu types, %zu methods\n", s.metadata->version(),
           s.metadata->layout(), s.metadata->types(), s.metadata->methods());
    printf("  generated functions with a Method Definition Index  %llu (%llu out of the method table)\n",
           static_cast<unsigned long long>(indexed), static_cast<unsigned long long>(out_of_range));
    printf("  metadata Type_Method, escaped, equals the native name  %6.2f%%\n", pct(consistent));
    printf("  full C# name from the metadata                         %6.2f%%\n", pct(full));
    printf("  full C# name exact (convention of docs/symbolizer.md)   %6.2f%%\n", pct(exact));
    for (const auto &[what, n] : misses) {
        printf("    miss: %-52s %6.2f%% (%llu)\n", what.c_str(), pct(n), static_cast<unsigned long long>(n));
        for (const std::string &e : examples[what]) printf("      e.g. %s\n", e.c_str());
    }
    printf("  without the sources (binary symbols + metadata), by name: same full name %6.2f%%, none (ambiguous) %6.2f%%, "
           "other %6.2f%%\n", pct(by_name_ok), pct(by_name_none), pct(indexed - out_of_range - by_name_ok - by_name_none));
    auto [overloads, told_apart] = overload_counts(overload_names);
    printf("  overloaded methods (with code, not generic instances)  %llu, told apart by parameters %6.2f%%\n",
           static_cast<unsigned long long>(overloads), overloads ? 100.0 * static_cast<double>(told_apart) / static_cast<double>(overloads) : 0.0);
    printf("  parameters the metadata names (by-value type entries): agree with the C++ signature %llu, an integer or Object "
           "there (an enum, interface) %llu, otherwise differ %llu; not named %llu; functions whose parameter count differs %llu\n",
           static_cast<unsigned long long>(params_agree), static_cast<unsigned long long>(params_loose),
           static_cast<unsigned long long>(params_differ),
           static_cast<unsigned long long>(params_unnamed), static_cast<unsigned long long>(params_count_differs));
    for (const std::string &x : param_examples) printf("    param differs: %s\n", x.c_str());
    printf("  name-only rule gives the metadata's Type.Method         %6.2f%%\n", pct(heuristic_ok));
    printf("  same, with the sources' type names                     %6.2f%%\n", pct(typed_ok));
    for (const std::string &x : shown) printf("    differs: %s\n", x.c_str());
}

// The code-registration link on real data: each <Assembly>_CodeGen.c lists the assembly's
// s_methodPointers in the order the binary holds them and names the module; pointer i must be
// the method of that image whose MethodDef token row is i + 1 (Il2CppMetadata::method_by_token),
// checked against the Method Definition Index the generated sources give for the same function.
// Each <Assembly>_CodeGen.c's module name and s_methodPointers, in order (NULL kept).
std::vector<std::pair<std::string, std::vector<std::string>>> code_gen_tables(const std::string &dir) {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const auto &e : fs::directory_iterator(dir)) {
        std::string file = e.path().filename().string();
        if (!file.ends_with("_CodeGen.c")) continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::string module, line;
        std::vector<std::string> table;
        bool inside = false;
        while (std::getline(in, line)) {
            if (line.starts_with("static Il2CppMethodPointer s_methodPointers[")) inside = true;
            else if (inside && line.starts_with("};")) inside = false;
            else if (inside && line.starts_with("\t")) table.push_back(line.substr(1, line.find(',') - 1));
            else if (line.starts_with("const Il2CppCodeGenModule g_")) {
                std::getline(in, line);  // "{"
                std::getline(in, line);  // "\t\"Assembly-CSharp.dll\","
                size_t q = line.find('"');
                module = line.substr(q + 1, line.rfind('"') - q - 1);
            }
        }
        out.emplace_back(module, std::move(table));
    }
    return out;
}

// The export as one made without source mapping reads: the sources without their Method
// Definition Index comments, the methods from the code registration (the binary's tables, read
// here from their *_CodeGen.c source).
Il2CppSymbols without_index_comments(const Il2CppSymbols &s) {
    Il2CppSymbols bare;
    bare.metadata = s.metadata;
    bare.lines = s.lines;
    bare.output_dir = s.output_dir;
    bare.sources.emplace();
    for (const auto &e : fs::directory_iterator(s.output_dir)) {
        if (e.path().extension() != ".cpp") continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::string text, line;
        while (std::getline(in, line))
            if (!line.starts_with("// Method Definition Index: ")) text += line + "\n";
        bare.sources->add_file(e.path().string(), text);
    }
    bare.sources->set_generics(s.sources->generics());
    for (const auto &[module, table] : code_gen_tables(s.output_dir))
        for (size_t i = 0; i < table.size(); ++i)
            if (table[i] != "NULL")
                if (int64_t m = s.metadata->method_by_token(module, static_cast<uint32_t>(i + 1)); m >= 0)
                    bare.registered_methods.emplace(table[i], m);
    return bare;
}

void check_code_registration(const Il2CppSymbols &s) {
    uint64_t pointers = 0, indexed = 0, same = 0, no_method = 0, spelled = 0, by_name_same = 0, by_name_none = 0;
    std::vector<std::string> shown;
    for (const auto &[module, table] : code_gen_tables(s.output_dir)) {
        for (size_t i = 0; i < table.size(); ++i) {
            if (table[i] == "NULL") continue;
            ++pointers;
            int64_t by_token = s.metadata->method_by_token(module, static_cast<uint32_t>(i + 1));
            if (by_token < 0) {
                ++no_method;
                continue;
            }
            // The method the token names, spelled as il2cpp spells it in C++, is the function's name.
            std::string cpp = Il2CppMetadata::cpp_escape(s.metadata->raw_type_name(s.metadata->declaring_type(by_token))) + "_" +
                              Il2CppMetadata::cpp_escape(s.metadata->raw_method_name(by_token));
            spelled += il2cpp_type_method(table[i]) == cpp;
            if (il2cpp_type_method(table[i]) != cpp && shown.size() < 5) shown.push_back(table[i] + " vs token's " + cpp);
            std::string by_name = s.metadata->method_name_for(il2cpp_type_method(table[i]));
            by_name_same += by_name == s.metadata->method_name(by_token);
            by_name_none += by_name.empty();
            const GeneratedFunction *f = s.sources->function_named(table[i]);
            if (!f || f->method_index < 0) continue;
            ++indexed;
            same += f->method_index == by_token;
            if (f->method_index != by_token && shown.size() < 5)
                shown.push_back(module + "[" + std::to_string(i) + "] " + table[i] + ": token gives " + std::to_string(by_token) +
                                ", index comment " + std::to_string(f->method_index));
        }
    }
    printf("code registration (*_CodeGen.c method pointer tables, %zu images in the metadata): %llu pointers, %llu without a "
           "method of that token; of %llu with a Method Definition Index, the token gives the same method for %.2f%%\n",
           s.metadata->images(), static_cast<unsigned long long>(pointers), static_cast<unsigned long long>(no_method),
           static_cast<unsigned long long>(indexed), indexed ? 100.0 * static_cast<double>(same) / static_cast<double>(indexed) : 0.0);
    auto pct = [&](uint64_t n) { return pointers ? 100.0 * static_cast<double>(n) / static_cast<double>(pointers) : 0.0; };
    printf("  the token's method, spelled as C++, is the pointer's function name: %.2f%%; its full name by Type_Method alone: "
           "same %.2f%%, none (ambiguous) %.2f%%\n", pct(spelled), pct(by_name_same), pct(by_name_none));
    for (const std::string &x : shown) printf("    differs: %s\n", x.c_str());
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: real_export_check EXPORT_DIR [--cpp-root DIR]\n");
        return 2;
    }
    std::string cpp_root;
    for (int i = 2; i + 1 < argc; i += 2)
        if (std::string(argv[i]) == "--cpp-root") cpp_root = argv[i + 1];
    try {
        Il2CppSymbols s = Il2CppSymbols::load_dir(argv[1]);
        if (!s.sources) {
            fprintf(stderr, "%s: needs the generated *.cpp\n", argv[1]);
            return 2;
        }
        if (!s.lines) printf("no LineNumberMappings.json: lines not checked\n");
        std::map<std::string, Tally> mapped;  // frames in functions with source_info
        Tally unmapped;                       // frames in functions without: the answer must be none
        std::vector<fs::path> files;
        for (const auto &e : fs::directory_iterator(s.output_dir))
            if (e.path().extension() == ".cpp") files.push_back(e.path());
        for (const fs::path &p : files) {
            std::string dwarf_path = cpp_root.empty() ? p.string() : (fs::path(cpp_root) / p.filename()).string();
            std::ifstream in(p, std::ios::binary);
            std::vector<std::string> lines(1);
            for (std::string l; std::getline(in, l);) lines.push_back(std::move(l));
            const GeneratedFunction *fn = nullptr;
            std::optional<CsLocation> first, current;
            for (uint32_t no = 1; no < lines.size(); ++no) {
                const GeneratedFunction *f = s.sources->function_at(dwarf_path, no);
                if (f != fn) {
                    fn = f;
                    first = current = std::nullopt;
                    for (uint32_t k = f ? f->first_line : 0; f && k <= f->last_line && !first; ++k) first = source_info(lines[k]);
                }
                if (!fn) continue;
                if (auto si = source_info(lines[no])) current = si;
                if (!is_call(lines[no])) continue;
                std::optional<CsLocation> want = current ? current : first;
                if (!s.lines) break;
                std::optional<CsLocation> old_answer = s.lines->lookup(dwarf_path, no);
                std::optional<CsLocation> new_answer = s.cs_location(dwarf_path, no);
                LineBounds bounds{fn->first_line, fn->last_line};
                std::optional<CsLocation> json_answer = s.lines->lookup(dwarf_path, no, &bounds);
                Tally &t = want ? mapped[category(lines[no])] : unmapped;
                ++t.frames;
                t.old_ok += old_answer == want;
                t.json_ok += json_answer == want;
                t.new_ok += new_answer == want;
                if (getenv("MT_SHOW_LINES") && new_answer != want)
                    printf("    line %s:%u: %s:%u, want %s:%u\n", p.filename().c_str(), no, new_answer ? new_answer->file.c_str() : "-",
                           new_answer ? new_answer->line : 0, want ? want->file.c_str() : "-", want ? want->line : 0);
            }
        }
        printf("export: %s\n  generated files %zu, functions %zu, LineNumberMappings C++ files %zu\n", s.output_dir.c_str(),
               s.sources->files(), s.sources->functions(), s.lines ? s.lines->cpp_files() : 0);
        Tally all;
        auto row = [](const char *what, const Tally &t) {
            auto pct = [&](uint64_t n) { return t.frames ? 100.0 * static_cast<double>(n) / static_cast<double>(t.frames) : 0.0; };
            printf("  %-44s %8llu frames  json file-wide %6.2f%%  json bounded %6.2f%%  memtracer %6.2f%%\n", what,
                   static_cast<unsigned long long>(t.frames), pct(t.old_ok), pct(t.json_ok), pct(t.new_ok));
        };
        printf("frames in methods with C# lines (C# file:line equal to Unity's source_info):\n");
        for (const auto &[cat, t] : mapped) {
            row(cat.c_str(), t);
            all.frames += t.frames;
            all.old_ok += t.old_ok;
            all.json_ok += t.json_ok;
            all.new_ok += t.new_ok;
        }
        row("all", all);
        printf("frames in methods without C# lines (no PDB; the answer must be none):\n");
        row("all", unmapped);
        {
            // Generic method instances whose arguments are generic class instances: shown with
            // their own arguments (the generic instance table, il2cpp_generic_types.h) or by arity.
            uint64_t instances = 0, by_arity_before = 0, by_arity_now = 0;
            for (const auto &file : s.sources->all_functions())
                for (const GeneratedFunction &f : file) {
                    if (f.name.find("_Tis") == std::string::npos || il2cpp_generic_arguments(f.name).empty()) continue;
                    ++instances;
                    by_arity_before += il2cpp_generic_arguments(f.name).find('`') != std::string::npos;
                    by_arity_now += il2cpp_generic_arguments(f.name, &*s.sources).find('`') != std::string::npos;
                }
            printf("generic method instances %llu (generic instance table: %zu classes, %zu of them linked by their "
                   "referenced methods); an argument shown by arity only: %llu before, %llu now\n",
                   static_cast<unsigned long long>(instances), s.sources->generics().size(), s.sources->generics().linked(),
                   static_cast<unsigned long long>(by_arity_before), static_cast<unsigned long long>(by_arity_now));
        }
        if (s.metadata) {
            check_names(s, s, false);
            check_code_registration(s);
            printf("names without the Method Definition Index comments (an export made without source mapping), methods from the "
                   "code registration:\n");
            Il2CppSymbols bare = without_index_comments(s);
            check_names(s, bare, true);
        } else {
            // No metadata: how often the name alone agrees with the name the sources' type names give.
            uint64_t named = 0, agree = 0;
            for (const auto &file : s.sources->all_functions())
                for (const GeneratedFunction &f : file) {
                    std::string typed = il2cpp_csharp_name(f.name, &*s.sources);
                    if (typed.empty() || f.method_index < 0) continue;
                    ++named;
                    // Type.Method only: generic instance arguments differ by design (the sources'
                    // generic instance table resolves them, il2cpp_generic_types.h).
                    auto strip = [](std::string n, const std::string &args) {
                        if (!args.empty() && n.ends_with(args)) n.resize(n.size() - args.size());
                        return n;
                    };
                    agree += strip(il2cpp_csharp_name(f.name), il2cpp_generic_arguments(f.name)) ==
                             strip(typed, il2cpp_generic_arguments(f.name, &*s.sources));
                }
            printf("names (no global-metadata.dat): %llu indexed functions, the name alone agrees with the sources' type names "
                   "for %.2f%%\n", static_cast<unsigned long long>(named),
                   named ? 100.0 * static_cast<double>(agree) / static_cast<double>(named) : 0.0);
        }
    } catch (const std::exception &e) {
        fprintf(stderr, "real_export_check: %s\n", e.what());
        return 1;
    }
    return 0;
}
