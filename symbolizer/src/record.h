// record.h — the normalized answer every backend gives for one address: the chain of source
// frames, innermost (most deeply inlined) first, the last being the function that really holds
// the instruction. An empty chain means the backend knew nothing about the address.
#ifndef MEMTRACER_SYM_RECORD_H
#define MEMTRACER_SYM_RECORD_H

#include <cstdint>
#include <string>
#include <vector>

namespace mt::sym {

struct SourceFrame {
    std::string function;  // raw name as the symbol file has it (mangled C++, IL2CPP C name)
    std::string file;      // absolute path when the debug info has one; "" if unknown
    uint32_t line = 0;
    uint32_t column = 0;
    // The function's declaration line (DW_AT_decl_line of the subprogram, of the inlined one's
    // origin for an inlined frame), 0 if unknown: bounds C# line lookups to the function when the
    // generated sources are not kept (Il2CppSymbols::cs_location).
    uint32_t function_line = 0;
    bool operator==(const SourceFrame &) const = default;
};

struct SymbolRecord {
    std::vector<SourceFrame> frames;  // innermost first; empty = unknown
    bool operator==(const SymbolRecord &) const = default;
};

// How much a symbol file can tell (ObjectSlice::quality) and how much one answer told: stored
// with each cached address, so a later run with a better file of the same build (a dSYM after a
// stripped binary, a complete dSYM after one missing an object file) symbolizes it again.
enum class Quality : int { None = 0, SymbolTable = 1, DebugInfo = 2 };

// The quality of one answer, judged from the answer itself so that every backend is judged
// alike: a file or line came from DWARF (line table or DIE); a bare name from a symbol table
// (or a DIE without line info, which a better file may still improve).
inline Quality answer_quality(const SymbolRecord &r) {
    bool named = false;
    for (const SourceFrame &f : r.frames) {
        if (!f.file.empty() || f.line != 0) return Quality::DebugInfo;
        named |= !f.function.empty();
    }
    return named ? Quality::SymbolTable : Quality::None;
}

}  // namespace mt::sym

#endif
