// il2cpp_symbols.h — Unity's IL2CPP symbol side files (--il2cpp-symbols DIR).
//
// MethodMap.tsv (il2cpp --emit-method-map): one line per method,
//   <native function name> TAB <Mono.Cecil MethodReference.FullName> TAB <assembly name>
//   e.g. "NodeFactory_CreateNode_m5E30...\tGame.Node Game.NodeFactory::CreateNode(System.Int32)\tAssembly-CSharp"
//   (native name "NULL" for methods without code). The full C# name kept is the declaring type
//   and method with parameters, nested types joined by '.': "Game.NodeFactory.CreateNode(System.Int32)".
//
// Symbols/LineNumberMappings.json (il2cpp --emit-source-mapping):
//   {"<cpp path>": {"<cs path>": {"<cppLine>": csLine, ...}, ...}, ...}
//   A C++ line maps to the entry with the greatest C++ line at or below it, across all C# files
//   of that C++ file. C++ paths are those of the machine that ran il2cpp, so a lookup that finds
//   no exact path uses the entry with the same file name and the longest common path suffix.
#ifndef MEMTRACER_SYM_IL2CPP_SYMBOLS_H
#define MEMTRACER_SYM_IL2CPP_SYMBOLS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mt::sym {

class MethodMap {
public:
    // Throws Error(Symbols) "<path>:<line>: ..." for a malformed line.
    static MethodMap load(const std::string &path);
    static MethodMap parse(std::string_view text, const std::string &name);
    const std::string *csharp_name(std::string_view native) const;
    size_t size() const { return by_native_.size(); }

    // "System.Void Game.Outer/Inner::Run(System.Int32)" -> "Game.Outer.Inner.Run(System.Int32)";
    // nullopt if it is not a Cecil method full name.
    static std::optional<std::string> csharp_from_cecil(std::string_view full_name);

private:
    std::unordered_map<std::string, std::string> by_native_;
};

struct CsLocation {
    std::string file;
    uint32_t line = 0;
    bool operator==(const CsLocation &) const = default;
};

class LineMap {
public:
    // Throws Error(Symbols) "<path>:<line>:<column>: ..." for malformed JSON or a bad entry.
    static LineMap load(const std::string &path);
    static LineMap parse(std::string_view text, const std::string &name);
    std::optional<CsLocation> lookup(std::string_view cpp_file, uint32_t cpp_line) const;
    size_t cpp_files() const { return cpp_paths_.size(); }

private:
    friend class LineMapParser;
    struct Entry {
        uint32_t cpp_line, cs_file, cs_line;
    };
    int find_cpp(std::string_view path) const;

    std::vector<std::string> cs_files_;
    std::vector<std::string> cpp_paths_;             // normalized to '/'
    std::vector<std::vector<Entry>> entries_;        // per cpp path, sorted by cpp_line
    std::unordered_map<std::string, int> by_path_;
    std::unordered_map<std::string, std::vector<int>> by_basename_;
};

struct Il2CppSymbols {
    std::optional<MethodMap> methods;
    std::optional<LineMap> lines;
    // Finds MethodMap.tsv and LineNumberMappings.json in DIR or DIR/Symbols. Throws
    // Error(Symbols) if neither is there or one is malformed.
    static Il2CppSymbols load_dir(const std::string &dir);
};

}  // namespace mt::sym

#endif
