// macho.cpp — the Mach-O load-command walk, over bytes only (no SDK headers): own definitions of
// the few structures read, taken from the Mach-O file format (mach-o/loader.h layouts).
#include <string.h>

#include "modules.h"

namespace mt::rt {

namespace {

constexpr uint32_t kMagic32 = 0xFEEDFACEu;
constexpr uint32_t kMagic64 = 0xFEEDFACFu;
constexpr uint32_t kLcSegment = 0x1;
constexpr uint32_t kLcSegment64 = 0x19;
constexpr uint32_t kLcUuid = 0x1B;

uint32_t rd32(const uint8_t *p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
           static_cast<uint32_t>(p[3]) << 24;
}
uint64_t rd64(const uint8_t *p) { return rd32(p) | static_cast<uint64_t>(rd32(p + 4)) << 32; }

// segment_command(_64): cmd, cmdsize, segname[16], vmaddr, vmsize, ... (32- or 64-bit fields).
void read_segment(const uint8_t *lc, bool is64, MachoInfo *out, uint64_t *lo, uint64_t *hi) {
    char name[17] = {0};
    memcpy(name, lc + 8, 16);
    uint64_t vmaddr = is64 ? rd64(lc + 24) : rd32(lc + 24);
    uint64_t vmsize = is64 ? rd64(lc + 32) : rd32(lc + 28);
    if (strcmp(name, "__PAGEZERO") == 0) return;
    if (strcmp(name, "__TEXT") == 0) {
        out->has_text = true;
        out->text_vmaddr = vmaddr;
        out->text_vmsize = vmsize;
    }
    if (vmaddr < *lo) *lo = vmaddr;
    if (vmaddr + vmsize > *hi) *hi = vmaddr + vmsize;
}

}  // namespace

bool macho_parse(const uint8_t *buf, size_t len, MachoInfo *out) {
    *out = MachoInfo{};
    if (!buf || len < 28) return false;
    uint32_t magic = rd32(buf);
    if (magic != kMagic32 && magic != kMagic64) return false;  // fat or big-endian: not an image
    bool is64 = magic == kMagic64;
    size_t header = is64 ? 32 : 28;
    if (len < header) return false;
    out->is_64 = is64;
    out->cputype = rd32(buf + 4);
    out->filetype = rd32(buf + 12);
    uint32_t ncmds = rd32(buf + 16);
    uint32_t sizeofcmds = rd32(buf + 20);
    if (sizeofcmds > len - header) return false;
    const uint8_t *p = buf + header, *end = p + sizeofcmds;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; i < ncmds; ++i) {
        if (end - p < 8) return false;
        uint32_t cmd = rd32(p), cmdsize = rd32(p + 4);
        if (cmdsize < 8 || cmdsize > static_cast<size_t>(end - p)) return false;
        if (cmd == kLcUuid && cmdsize >= 24) {
            memcpy(out->uuid, p + 8, 16);
            out->has_uuid = true;
        } else if (cmd == kLcSegment64 && is64 && cmdsize >= 72) {
            read_segment(p, true, out, &lo, &hi);
        } else if (cmd == kLcSegment && !is64 && cmdsize >= 56) {
            read_segment(p, false, out, &lo, &hi);
        }
        p += cmdsize;
    }
    if (out->has_text && hi > out->text_vmaddr) out->image_vmsize = hi - out->text_vmaddr;
    return true;
}

}  // namespace mt::rt
