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
// category, frames agreeing with the file-wide lookup (before the fix) and with the bounded one.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "errors.h"
#include "il2cpp_symbols.h"

using namespace mt::sym;
namespace fs = std::filesystem;

namespace {

struct Tally {
    uint64_t frames = 0, old_ok = 0, new_ok = 0;
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
        if (!s.lines || !s.sources) {
            fprintf(stderr, "%s: needs LineNumberMappings.json and the generated *.cpp\n", argv[1]);
            return 2;
        }
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
                std::optional<CsLocation> old_answer = s.lines->lookup(dwarf_path, no);
                std::optional<CsLocation> new_answer = s.cs_location(dwarf_path, no);
                Tally &t = want ? mapped[category(lines[no])] : unmapped;
                ++t.frames;
                t.old_ok += old_answer == want;
                t.new_ok += new_answer == want;
            }
        }
        printf("export: %s\n  generated files %zu, functions %zu, LineNumberMappings C++ files %zu\n", s.output_dir.c_str(),
               s.sources->files(), s.sources->functions(), s.lines->cpp_files());
        Tally all;
        auto row = [](const char *what, const Tally &t) {
            auto pct = [&](uint64_t n) { return t.frames ? 100.0 * static_cast<double>(n) / static_cast<double>(t.frames) : 0.0; };
            printf("  %-46s %9llu frames  file-wide %6.2f%%  bounded %6.2f%%\n", what,
                   static_cast<unsigned long long>(t.frames), pct(t.old_ok), pct(t.new_ok));
        };
        printf("frames in methods with C# lines (C# file:line equal to Unity's source_info):\n");
        for (const auto &[cat, t] : mapped) {
            row(cat.c_str(), t);
            all.frames += t.frames;
            all.old_ok += t.old_ok;
            all.new_ok += t.new_ok;
        }
        row("all", all);
        printf("frames in methods without C# lines (no PDB; the answer must be none):\n");
        row("all", unmapped);
    } catch (const std::exception &e) {
        fprintf(stderr, "real_export_check: %s\n", e.what());
        return 1;
    }
    return 0;
}
