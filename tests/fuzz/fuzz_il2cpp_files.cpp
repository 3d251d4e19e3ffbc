// libFuzzer target: Unity's IL2CPP side files, MethodMap.tsv and LineNumberMappings.json. The
// first byte picks the parser; a malformed file must end in mt::sym::Error naming the place,
// never in a crash, and a parsed line map must answer lookups for any line.
#include "errors.h"
#include "il2cpp_symbols.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        if (data[0] & 1) {
            auto map = mt::sym::MethodMap::parse(text, "fuzz/MethodMap.tsv");
            (void)map.csharp_name("NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12");
        } else {
            auto lines = mt::sym::LineMap::parse(text, "fuzz/LineNumberMappings.json");
            for (uint32_t line : {0u, 1u, 7u, 100u, 4000000000u}) (void)lines.lookup("a/b/Assembly-CSharp.cpp", line);
        }
    } catch (const mt::sym::Error &) {
        // Expected for malformed input: the message names file and position.
    }
    return 0;
}
