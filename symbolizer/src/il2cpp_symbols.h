// il2cpp_symbols.h — Unity's IL2CPP files (--il2cpp-symbols DIR): MethodMap.tsv and
// LineNumberMappings.json (here), the generated sources (il2cpp_sources.h) and
// global-metadata.dat (il2cpp_metadata.h), found from an export root, the il2cpp output folder
// or its Symbols/, and what they give together: a function's full C# name and a C++ line's C#
// file:line bounded by its generated function.
//
// MethodMap.tsv (il2cpp --emit-method-map): one line per method,
//   <native function name> TAB <Mono.Cecil MethodReference.FullName> TAB <assembly name>
//   e.g. "NodeFactory_CreateNode_m5E30...\tGame.Node Game.NodeFactory::CreateNode(System.Int32)\tAssembly-CSharp"
//   (native name "NULL" for methods without code). The full C# name kept is the declaring type
//   and method with parameters, nested types joined by '.': "Game.NodeFactory.CreateNode(System.Int32)".
//
// Symbols/LineNumberMappings.json (il2cpp --emit-source-mapping):
//   {"<cpp path>": {"<cs path>": {"<cppLine>": csLine, ...}, ...}, ...}
//   Its keys are the lines of the //<source_info:File.cs:N> comments of the generated code. A C++
//   line maps to the greatest key at or below it inside its generated function (LineBounds), or
//   without the function's lines across all C# files of that C++ file. C++ paths are those of
//   the machine that ran il2cpp (il2cpp_paths.h).
#ifndef MEMTRACER_SYM_IL2CPP_SYMBOLS_H
#define MEMTRACER_SYM_IL2CPP_SYMBOLS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "il2cpp_metadata.h"
#include "il2cpp_paths.h"
#include "il2cpp_sources.h"

namespace mt::sym {

class MethodMap {
public:
    // Throws Error(Symbols) "<name>:<line>: ..." for a malformed line.
    static MethodMap parse(std::string_view text, const std::string &name);
    const std::string *csharp_name(std::string_view native) const;
    size_t size() const { return by_native_.size(); }

    // "System.Void Game.Outer/Inner::Run(System.Int32)" -> "Game.Outer.Inner.Run(System.Int32)";
    // nullopt if it is not a Cecil method full name.
    static std::optional<std::string> csharp_from_cecil(std::string_view full_name);

private:
    std::unordered_map<std::string, std::string> by_native_;
};

struct LineBounds {
    uint32_t first = 0, last = 0;  // a generated function's first and last C++ line
};

class LineMap {
public:
    // Throws Error(Symbols) "<name>:<line>:<column>: ..." for malformed JSON or a bad entry.
    static LineMap parse(std::string_view text, const std::string &name);
    // With `function` (the generated function's lines, il2cpp_sources.h): the nearest mapping at or
    // above `cpp_line` inside the function, else the function's first mapping, else none.
    // Without: the nearest mapping at or above it anywhere in the file.
    std::optional<CsLocation> lookup(std::string_view cpp_file, uint32_t cpp_line,
                                     const LineBounds *function = nullptr) const;
    size_t cpp_files() const { return paths_.size(); }
    bool has_file(std::string_view cpp_file) const { return paths_.find(cpp_file) >= 0; }

private:
    friend class LineMapParser;
    struct Entry {
        uint32_t cpp_line, cs_file, cs_line;
    };
    std::vector<std::string> cs_files_;
    PathIndex paths_;                                // the C++ files, as the build machine named them
    std::vector<std::vector<Entry>> entries_;        // per C++ file, sorted by cpp_line
};

struct Il2CppSymbols {
    std::optional<MethodMap> methods;
    std::optional<LineMap> lines;
    std::optional<GeneratedSources> sources;  // the generated *.cpp, when the folder holds them
    std::optional<Il2CppMetadata> metadata;   // global-metadata.dat, when found (see load_dir)
    std::string output_dir;                   // the il2cpp output folder found ("" if only Symbols/)
    // Native function name -> metadata method, from binaries' code registration
    // (il2cpp_code_registration.h): the names when no generated sources were kept.
    std::unordered_map<std::string, int64_t> registered_methods;

    // Reads the code registration of `binary` (an ELF or Mach-O file; anything else is skipped)
    // into registered_methods, a Mach-O binary's symbols from `dsym_files` (and the dSYMs beside
    // it). Returns how many functions it named. Needs the metadata.
    size_t add_code_registration(const std::string &binary, const std::vector<std::string> &dsym_files = {});

    // DIR may be the il2cpp output folder (il2cppOutput, or Library/Bee/artifacts/<platform>/
    // il2cppOutput/cpp), its Symbols/ folder, an iOS Xcode export (Il2CppOutputProject/Source/
    // il2cppOutput) or an Android Gradle export (unityLibrary/src/main/Il2CppOutputProject/...).
    // MethodMap.tsv and LineNumberMappings.json are taken from the output folder or its Symbols/,
    // the generated sources from the output folder, global-metadata.dat from DIR, the export's
    // Data/Managed/Metadata/ (iOS) or unityLibrary/src/main/assets/bin/Data/Managed/Metadata/
    // (Android Gradle export) or assets/bin/Data/Managed/Metadata/ (an unpacked APK). Throws Error(Symbols) if none of them is
    // there or a file is malformed.
    static Il2CppSymbols load_dir(const std::string &dir);

    // The full C# name of a generated function, named as a backend reports it (plain, mangled or
    // demangled): MethodMap.tsv's, else the metadata's through the function's Method Definition
    // Index, else through the binaries' code registration, else by its `Type_Method` when that is
    // unambiguous; an `_inline` or `_AdjustorThunk` copy gets the name of the method it copies.
    // Overloads get their parameter types from the generated signature when the sources define
    // the function; generic method instances get their arguments from the native name
    // (GameObject.AddComponent<AudioSource>). "" if nothing knows it.
    std::string csharp_name(std::string_view reported) const;

    // The C# file:line of a C++ location: LineNumberMappings.json's (the sources' own
    // //<source_info> comments for a file it does not hold), bounded by its generated function
    // when the sources are known (il2cpp_sources.h). Without them, `function_line` (the function's declaration
    // line from DWARF, SourceFrame::function_line) bounds it from above: the nearest mapping
    // between that line and `cpp_line`, never one of the function before; 0 = unknown, the nearest
    // mapping anywhere above in the file.
    std::optional<CsLocation> cs_location(std::string_view cpp_file, uint32_t cpp_line, uint32_t function_line = 0) const;
};

}  // namespace mt::sym

#endif
