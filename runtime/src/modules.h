// modules.h — the loaded-image table (MODULES chunk): path, load address, size, bias,
// text_vmaddr and build id of every ELF object (dl_iterate_phdr) or Mach-O image (dyld).
// Internal to the runtime; the Mach-O walk is a pure function so it is testable off-device.
#ifndef MEMTRACER_RT_MODULES_H
#define MEMTRACER_RT_MODULES_H

#include <stddef.h>
#include <stdint.h>

#include "hashmap.h"
#include "memtracer/trace_writer.h"

#if !defined(__APPLE__)
#include <link.h>
#endif

namespace mt::rt {

// What the load commands of one Mach-O image say (macho.cpp). Works on a file or on an image
// mapped by dyld; only the header and load commands are read, every offset bounds-checked.
struct MachoInfo {
    uint32_t cputype = 0;
    uint32_t filetype = 0;
    bool is_64 = false;
    bool has_uuid = false;
    uint8_t uuid[16] = {0};
    bool has_text = false;
    uint64_t text_vmaddr = 0, text_vmsize = 0;
    uint64_t image_vmsize = 0;  // highest segment end - text_vmaddr (segments except __PAGEZERO)
};
// False if buf is not a thin little-endian Mach-O or its load commands run past len.
bool macho_parse(const uint8_t *buf, size_t len, MachoInfo *out);

// ELF: reads the GNU build-id out of a PT_NOTE segment's bytes (elf_modules.cpp).
size_t elf_note_build_id(const uint8_t *note, size_t size, size_t align, uint8_t *out, size_t out_max);

#if !defined(__APPLE__)
// The loaded-image generation as one dl_iterate_phdr pass sees it (modules_elf.cpp): dlpi_adds
// where the loader's dl_phdr_info has it (the callback's size says so), else a hash of the
// images' count and load addresses.
struct PhdrGeneration {
    bool have_adds = false;
    uint64_t adds = 0, mix = 0;
    uint32_t count = 0;
    void add(const dl_phdr_info *info, size_t size);
    uint64_t value() const;
};
bool phdr_has_adds(size_t size);
int phdr_generation_cb(dl_phdr_info *info, size_t size, void *gen);  // ModuleTable::changed's callback
#endif

// The process's images, remembered across rescans so each is written once.
class ModuleTable {
public:
    // Appends images not seen before to enc (ids continue from the last scan). Returns how many.
    uint32_t scan(trace::ListEncoder &enc);
    // Cheap check whether images were loaded since the last scan (dlpi_adds / dyld image count).
    bool changed();
    void reset();

    // Used by the platform scanners.
    bool seen(uint64_t load_address);
    void add(trace::ListEncoder &enc, trace::ModuleRecord &m);

private:
    U64Map known_;
    uint32_t next_id_ = 0;
    uint64_t last_generation_ = 0;
};

}  // namespace mt::rt

#endif  // MEMTRACER_RT_MODULES_H
