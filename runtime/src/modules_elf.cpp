// modules_elf.cpp — the module table on ELF systems (Linux, Android) through dl_iterate_phdr,
// plus the table bookkeeping shared with the Apple scanner.
#include <limits.h>
#include <stddef.h>
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

void ModuleTable::add(trace::ListEncoder &enc, trace::ModuleRecord &m) {
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

// dlpi_adds/dlpi_subs came after the original four fields (glibc 2.4; bionic only from Android
// 11, API 30): the callback's size argument says whether this loader filled them. Without them
// the generation is a hash of the image count and every load address, which changes whenever
// the set of images does (one pass over the list instead of one entry; rescans are rare).
bool phdr_has_adds(size_t size) {
    return size >= offsetof(dl_phdr_info, dlpi_adds) + sizeof(static_cast<dl_phdr_info *>(nullptr)->dlpi_adds);
}

void PhdrGeneration::add(const dl_phdr_info *info, size_t size) {
    if (phdr_has_adds(size)) {
        have_adds = true;
        adds = info->dlpi_adds;
        return;
    }
    ++count;
    uint64_t a = static_cast<uint64_t>(info->dlpi_addr) + 0x9E3779B97F4A7C15ull * count;
    a ^= a >> 33;
    a *= 0xFF51AFD7ED558CCDull;
    mix ^= a ^ (a >> 29);
}

uint64_t PhdrGeneration::value() const { return have_adds ? adds : (mix ^ count) | 1ull << 63; }

int phdr_generation_cb(dl_phdr_info *info, size_t size, void *arg) {
    PhdrGeneration *gen = static_cast<PhdrGeneration *>(arg);
    gen->add(info, size);
    return gen->have_adds ? 1 : 0;  // the counter is the same in every entry: stop at the first
}

namespace {

struct ScanCtx {
    ModuleTable *table;
    trace::ListEncoder *enc;
    uint32_t added;
    PhdrGeneration gen;
};

int scan_one(dl_phdr_info *info, size_t size, void *arg) {
    ScanCtx *ctx = static_cast<ScanCtx *>(arg);
    ctx->gen.add(info, size);
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
    trace::ModuleRecord m{0, MT_MODULE_ELF, path, load, hi - lo, info->dlpi_addr, lo, id, id_size};
    ctx->table->add(*ctx->enc, m);
    ++ctx->added;
    return 0;
}

}  // namespace

uint32_t ModuleTable::scan(trace::ListEncoder &enc) {
    ScanCtx ctx{this, &enc, 0, PhdrGeneration{}};
    dl_iterate_phdr(scan_one, &ctx);
    last_generation_ = ctx.gen.value();
    return ctx.added;
}

bool ModuleTable::changed() {
    PhdrGeneration gen;
    dl_iterate_phdr(phdr_generation_cb, &gen);
    return gen.value() != last_generation_;
}

#endif  // !__APPLE__

}  // namespace mt::rt
