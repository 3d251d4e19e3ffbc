// modules_elf.cpp — the module table on ELF systems (Linux, Android) through dl_iterate_phdr,
// plus the table bookkeeping shared with the Apple scanner.
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "modules.h"

#if !defined(__APPLE__)
#include <link.h>
#endif

namespace mt::rt {

bool ModuleTable::seen(uint64_t load_address) {
    uint32_t v;
    return known_.find(load_address | 1ull << 63, &v);  // never 0 as a key
}

void ModuleTable::add(ListEncoder &enc, ModuleRecord &m) {
    m.id = next_id_++;
    known_.insert(m.load_address | 1ull << 63, m.id);
    enc.add(m);
}

void ModuleTable::reset() {
    known_.clear();
    next_id_ = 0;
    last_generation_ = 0;
}

size_t elf_note_build_id(const uint8_t *note, size_t size, size_t align, uint8_t *out, size_t out_max) {
    if (align < 4) align = 4;
    size_t at = 0;
    while (size - at >= 12 && at < size) {
        uint32_t namesz, descsz, type;
        memcpy(&namesz, note + at, 4);
        memcpy(&descsz, note + at + 4, 4);
        memcpy(&type, note + at + 8, 4);
        size_t name_at = at + 12;
        size_t desc_at = name_at + ((namesz + align - 1) & ~(align - 1));
        size_t next = desc_at + ((descsz + align - 1) & ~(align - 1));
        if (desc_at > size || descsz > size - desc_at) return 0;
        if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && memcmp(note + name_at, "GNU", 4) == 0) {
            size_t n = descsz < out_max ? descsz : out_max;
            memcpy(out, note + desc_at, n);
            return n;
        }
        if (next <= at) return 0;
        at = next;
    }
    return 0;
}

#if !defined(__APPLE__)

namespace {

struct ScanCtx {
    ModuleTable *table;
    ListEncoder *enc;
    uint32_t added;
    uint64_t adds;
};

int scan_one(dl_phdr_info *info, size_t, void *arg) {
    ScanCtx *ctx = static_cast<ScanCtx *>(arg);
    ctx->adds = info->dlpi_adds;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        if (ph.p_vaddr < lo) lo = ph.p_vaddr;
        if (ph.p_vaddr + ph.p_memsz > hi) hi = ph.p_vaddr + ph.p_memsz;
    }
    if (hi == 0) return 0;
    uint64_t load = info->dlpi_addr + lo;
    if (ctx->table->seen(load)) return 0;
    uint8_t id[64];
    size_t id_size = 0;
    for (int i = 0; i < info->dlpi_phnum && id_size == 0; ++i) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE) continue;
        const uint8_t *note = reinterpret_cast<const uint8_t *>(info->dlpi_addr + ph.p_vaddr);
        id_size = elf_note_build_id(note, ph.p_memsz, ph.p_align, id, sizeof id);
    }
    char exe[PATH_MAX];
    const char *path = info->dlpi_name;
    if (!path || !*path) {  // the main program
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        path = exe;
    }
    ModuleRecord m{0, MT_MODULE_ELF, path, load, hi - lo, info->dlpi_addr, lo, id, id_size};
    ctx->table->add(*ctx->enc, m);
    ++ctx->added;
    return 0;
}

int read_adds(dl_phdr_info *info, size_t, void *arg) {
    *static_cast<uint64_t *>(arg) = info->dlpi_adds;
    return 1;  // the counter is the same in every entry: stop at the first
}

}  // namespace

uint32_t ModuleTable::scan(ListEncoder &enc) {
    ScanCtx ctx{this, &enc, 0, 0};
    dl_iterate_phdr(scan_one, &ctx);
    last_generation_ = ctx.adds;
    return ctx.added;
}

bool ModuleTable::changed() {
    uint64_t adds = 0;
    dl_iterate_phdr(read_adds, &adds);
    return adds != last_generation_;
}

#endif  // !__APPLE__

}  // namespace mt::rt
