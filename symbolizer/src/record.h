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
    bool operator==(const SourceFrame &) const = default;
};

struct SymbolRecord {
    std::vector<SourceFrame> frames;  // innermost first; empty = unknown
    bool operator==(const SymbolRecord &) const = default;
};

// How much a symbol file can tell: stored with each cached address so a later run with better
// symbols (a dSYM after a stripped binary) symbolizes it again.
enum class Quality : int { None = 0, SymbolTable = 1, DebugInfo = 2 };

}  // namespace mt::sym

#endif
