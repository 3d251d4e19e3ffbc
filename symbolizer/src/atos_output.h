// atos_output.h — reading what Apple's atos prints. One line per frame:
//   function (in Binary) (file.cpp:12)     debug info
//   function (in Binary) + 123             symbol table only (decimal offset into the symbol)
//   0x1234 (in Binary) + 12 / 0x1234 (in Binary) / 0x1234     nothing known
// With -i, every address gets its inlined frames innermost first, one line each, and then an
// empty line; without -i exactly one line per address.
#ifndef MEMTRACER_SYM_ATOS_OUTPUT_H
#define MEMTRACER_SYM_ATOS_OUTPUT_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "record.h"

namespace mt::sym {

// One frame line; nullopt when the line names no function (the "0x1234 ..." forms).
std::optional<SourceFrame> parse_atos_line(std::string_view line);

// The whole output for `n` addresses. Throws Error(Symbols) if it does not hold n answers.
std::vector<SymbolRecord> parse_atos_output(std::string_view out, size_t n, bool inlined);

}  // namespace mt::sym

#endif
