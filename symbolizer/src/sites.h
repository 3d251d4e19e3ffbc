// sites.h — which frame of a stack is "the allocation site": the first frame, innermost first
// (inlined frames of an address before the function containing them), whose function is game
// code rather than MemTracer, Boehm GC or il2cpp runtime internals. kInternalRules is the whole
// rule; docs/symbolizer.md lists it.
#ifndef MEMTRACER_SYM_SITES_H
#define MEMTRACER_SYM_SITES_H

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mt::sym {

// One depth of an address's inline chain, as stored in the symbols table.
struct SymbolRow {
    std::string function, demangled, csharp, file;
    uint32_t line = 0, column = 0;
    std::string cs_file;
    uint32_t cs_line = 0;
};

struct InternalRule {
    enum Kind { Prefix, Exact } kind;
    std::string_view text;  // matched against the demangled name (else the raw one); Exact
                            // compares the unqualified function name without parameters
    std::string_view what;
};

inline constexpr InternalRule kInternalRules[] = {
    {InternalRule::Prefix, "mt_", "MemTracer's C API and allocation hook (mt_on_alloc)"},
    {InternalRule::Prefix, "mt::", "MemTracer runtime internals"},
    {InternalRule::Prefix, "GC_", "Boehm GC (GC_malloc, GC_malloc_kind, GC_generic_malloc...)"},
    {InternalRule::Prefix, "il2cpp::vm::", "il2cpp VM: Object::New, Array::New, String::New, Profiler..."},
    {InternalRule::Prefix, "il2cpp::gc::", "il2cpp GC glue (GarbageCollector::Allocate...)"},
    {InternalRule::Prefix, "il2cpp::utils::", "il2cpp runtime utilities"},
    {InternalRule::Prefix, "il2cpp::os::", "il2cpp OS layer"},
    {InternalRule::Prefix, "il2cpp_codegen_", "generated-code helpers (il2cpp_codegen_object_new...)"},
    {InternalRule::Prefix, "il2cpp_", "il2cpp C API (il2cpp_object_new, il2cpp_array_new_specific...)"},
    {InternalRule::Prefix, "Il2Cpp", "il2cpp runtime helpers (Il2CppCodeGenWriteBarrier...)"},
    {InternalRule::Exact, "SZArrayNew", "generated-code array allocation helper"},
    {InternalRule::Exact, "GenArrayNew", "generated-code array allocation helper"},
    {InternalRule::Exact, "Box", "generated-code boxing helper"},
    {InternalRule::Exact, "UnBox", "generated-code unboxing helper"},
};

// True when the frame belongs to the runtime, the GC or MemTracer rather than to the game.
bool is_internal(const SymbolRow &row);

// Library code: C# that ships with the engine or the BCL, compiled by IL2CPP into files named
// after their assembly (mscorlib.cpp, mscorlib12.cpp, System.Core.cpp, UnityEngine.CoreModule.cpp,
// Generics3.cpp...). String.Concat or List`1.Add is where the bytes are allocated but not what a
// game team can change: a site skips these frames when a game frame is further out, and falls
// back to them when the whole stack is library code. Matched on the C++ file's name: the
// assembly prefix, then '.', '_' or a digit.
inline constexpr std::string_view kLibraryFilePrefixes[] = {
    "mscorlib", "netstandard", "System", "Mono", "UnityEngine", "Unity", "Generics", "GenericMethods",
};
bool is_library(const SymbolRow &row);

struct Site {
    std::string function, file;
    uint32_t line = 0;
};

// The site of one address's chain (innermost first): its first non-internal named depth, and with
// allow_library false also not library code.
std::optional<Site> game_site(std::span<const SymbolRow> chain, bool allow_library = true);

// How a frame reads in a site: C# name, else demangled, else raw; C# file:line when mapped.
Site site_of(const SymbolRow &row);

}  // namespace mt::sym

#endif
