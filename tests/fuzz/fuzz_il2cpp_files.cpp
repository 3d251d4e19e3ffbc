// libFuzzer target: Unity's IL2CPP files, MethodMap.tsv, LineNumberMappings.json, the generated
// C++ and global-metadata.dat. The first byte picks the parser; a malformed file must end in mt::sym::Error naming the place,
// never in a crash, and a parsed line map must answer lookups for any line.
#include "memtracer/symbolizer/errors.h"
#include "il2cpp_symbols.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        switch (data[0] & 3) {
        case 1: {
            auto map = mt::sym::MethodMap::parse(text, "fuzz/MethodMap.tsv");
            (void)map.csharp_name("NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12");
            break;
        }
        case 0: {
            auto lines = mt::sym::LineMap::parse(text, "fuzz/LineNumberMappings.json");
            mt::sym::LineBounds b{5, 90};
            for (uint32_t line : {0u, 1u, 7u, 100u, 4000000000u}) {
                (void)lines.lookup("a/b/Assembly-CSharp.cpp", line);
                (void)lines.lookup("a/b/Assembly-CSharp.cpp", line, &b);
            }
            break;
        }
        case 2: {  // generated C++: functions, source_info comments, type names
            mt::sym::GeneratedSources src;
            src.add_file("/b/il2cppOutput/Assembly-CSharp.cpp", text);
            for (uint32_t line : {0u, 1u, 7u, 100u, 4000000000u})
                (void)src.cs_location("/x/Assembly-CSharp.cpp", line);
            (void)src.function_named("Spawner_Spawn_m0123");
            break;
        }
        default: {  // global-metadata.dat: every name it can give
            auto md = mt::sym::Il2CppMetadata::parse(text, "fuzz/global-metadata.dat");
            for (size_t i = 0; i < md.methods() && i < 64; ++i) (void)md.method_name(static_cast<int64_t>(i));
            (void)md.method_name_for("List_1_Add");
            break;
        }
        }
    } catch (const mt::sym::Error &) {
        // Expected for malformed input: the message names file and position.
    }
    return 0;
}
