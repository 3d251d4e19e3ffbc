// modules_apple.cpp — the module table on iOS/macOS through dyld: each image's header, slide,
// LC_UUID and __TEXT segment (macho_parse over the header and load commands in memory).
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <stdint.h>

#include "modules.h"

namespace mt::rt {

uint32_t ModuleTable::scan(trace::ListEncoder &enc) {
    uint32_t count = _dyld_image_count(), added = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t *hdr = reinterpret_cast<const uint8_t *>(_dyld_get_image_header(i));
        if (!hdr) continue;
        uint64_t load = reinterpret_cast<uintptr_t>(hdr);
        if (seen(load)) continue;
        uint32_t sizeofcmds;
        __builtin_memcpy(&sizeofcmds, hdr + 20, 4);
        MachoInfo mi;
        if (!macho_parse(hdr, 32 + static_cast<size_t>(sizeofcmds), &mi)) continue;
        const char *path = _dyld_get_image_name(i);
        uint64_t slide = static_cast<uint64_t>(_dyld_get_image_vmaddr_slide(i));
        trace::ModuleRecord m{0, MT_MODULE_MACHO, path ? path : "", load, mi.image_vmsize ? mi.image_vmsize : mi.text_vmsize,
                       slide, mi.text_vmaddr, mi.uuid, mi.has_uuid ? 16u : 0u};
        add(enc, m);
        ++added;
    }
    last_generation_ = count;
    return added;
}

bool ModuleTable::changed() { return _dyld_image_count() != last_generation_; }

}  // namespace mt::rt
#endif
