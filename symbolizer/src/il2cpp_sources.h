// il2cpp_sources.h — the generated C++ of an IL2CPP build (il2cppOutput/*.cpp), read for what
// neither the binary nor LineNumberMappings.json says: where each generated function begins and
// ends, so a C++ line maps to a C# line of its own method only; the `// Method Definition Index: N`
// comment il2cpp (2022.2+, with --emit-source-mapping) writes above each method; and the C++ names
// of the types (`<Name>_t<40 hex>`), which settle where a function name's type part ends
// (`Session_ME_connect_m...` is Session_ME.connect when Session_ME_t... is a type).
//
// A function definition in generated code is a line at column 0 holding its signature (not a
// comment or preprocessor line, with a '('), the next line a lone '{', and it ends at the next
// lone '}' at column 0; il2cpp writes every method, `_inline` copy and helper that way.
#ifndef MEMTRACER_SYM_IL2CPP_SOURCES_H
#define MEMTRACER_SYM_IL2CPP_SOURCES_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "il2cpp_generic_types.h"
#include "il2cpp_paths.h"

namespace mt::sym {

struct CsLocation {
    std::string file;
    uint32_t line = 0;
    bool operator==(const CsLocation &) const = default;
};

struct GeneratedFunction {
    uint32_t first_line = 0;   // the signature line
    uint32_t last_line = 0;    // the closing '}'
    int64_t method_index = -1;  // from "// Method Definition Index: N" right above; -1 if none
    std::string name;
    std::string parameters;     // the signature's C++ parameters
};

class GeneratedSources {
public:
    // Every *.cpp directly in `dir`. Throws Error(Symbols) if one cannot be read.
    static GeneratedSources scan_dir(const std::string &dir);
    void add_file(std::string_view path, std::string_view text);

    // The generated function whose lines hold `line` of `cpp_file` (path matched as in
    // il2cpp_paths.h); nullptr if none.
    const GeneratedFunction *function_at(std::string_view cpp_file, uint32_t line) const;
    bool has_file(std::string_view cpp_file) const { return paths_.find(cpp_file) >= 0; }
    const GeneratedFunction *function_named(std::string_view native) const;
    // The C# location of `line` from the //<source_info:File.cs:N> comments il2cpp writes in the
    // generated code (--emit-source-mapping; LineNumberMappings.json is made from the same
    // comments): the nearest one above it inside its function, else the function's first one.
    // nullopt if the file is not among the sources, holds no such comment, or the function none.
    std::optional<CsLocation> cs_location(std::string_view cpp_file, uint32_t line) const;
    bool has_source_info(std::string_view cpp_file) const;
    // True if `<cpp_name>_t<40 hex>` occurs in the sources.
    bool is_type(std::string_view cpp_name) const { return types_.count(std::string(cpp_name)) != 0; }

    // The generic class instances' arguments (il2cpp_generic_types.h), empty without the files.
    const GenericInstances &generics() const { return generics_; }
    void set_generics(GenericInstances g) { generics_ = std::move(g); }

    size_t files() const { return paths_.size(); }
    const std::vector<std::vector<GeneratedFunction>> &all_functions() const { return functions_; }
    size_t functions() const;

private:
    PathIndex paths_;
    std::vector<std::vector<GeneratedFunction>> functions_;  // per file, by first_line
    std::unordered_map<std::string, std::pair<uint32_t, uint32_t>> by_name_;  // file, index
    std::unordered_set<std::string> types_;
    GenericInstances generics_;
    struct Mapping {
        uint32_t cpp_line, cs_file, cs_line;
    };
    std::vector<std::vector<Mapping>> mappings_;  // per file, by cpp_line
    std::vector<std::string> cs_files_;
    std::unordered_map<std::string, uint32_t> cs_file_ids_;
};

}  // namespace mt::sym

#endif
