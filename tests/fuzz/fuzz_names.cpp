// libFuzzer target: the name parsers the symbolizer runs on every symbol it finds — C++
// demangling, IL2CPP generated-name to C# name, and Cecil full names from MethodMap.tsv. A
// symbol table is input from outside (a player's binary), so none of them may crash or hang.
#include "il2cpp_symbols.h"
#include "names.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const std::string demangled = mt::sym::demangle(text);
    const std::string csharp = mt::sym::il2cpp_csharp_name(text);
    (void)mt::sym::MethodMap::csharp_from_cecil(text);
    (void)mt::sym::display_name(std::string(text), demangled, csharp);
    return 0;
}
