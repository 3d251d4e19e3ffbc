// static_dlsym.cpp — dlsym(RTLD_DEFAULT, name) for a statically linked executable
// (MEMTRACER_STATIC_EXES, the arm64 stage under qemu-user). The runtime finds il2cpp_class_get_name
// & co. with dlsym(RTLD_DEFAULT), as in a real player where they are exports of libil2cpp.so; a
// static executable has no dynamic symbol table, so glibc's dlsym finds nothing there. Every
// static executable links with -Wl,--wrap=dlsym and this file, which looks the name up among the
// executable's own global symbols (.symtab of /proc/self/exe, the guest binary under qemu too) and
// otherwise asks glibc. It stands in for the dynamic linker's global scope, nothing more.
// mt_static_exe_function_at does for dladdr what tests need: the function at an address.
#include "static_exe.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

extern "C" void *__real_dlsym(void *handle, const char *name);

namespace {

struct Symbols {
    std::map<std::string, uintptr_t, std::less<>> by_name;  // global functions and objects
    std::map<uintptr_t, std::pair<uintptr_t, std::string>> functions;  // start -> (size, name)
};

Symbols read_exe_symbols() {
    Symbols out;
    std::ifstream in("/proc/self/exe", std::ios::binary);
    std::string elf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (elf.size() < sizeof(Elf64_Ehdr) || elf.compare(0, SELFMAG, ELFMAG) != 0) return out;
    auto eh = reinterpret_cast<const Elf64_Ehdr *>(elf.data());
    if (eh->e_shoff + uint64_t(eh->e_shnum) * sizeof(Elf64_Shdr) > elf.size()) return out;
    auto sh = reinterpret_cast<const Elf64_Shdr *>(elf.data() + eh->e_shoff);
    uintptr_t bias = 0;  // 0 when static non-PIE; the load address when static-pie
    dl_iterate_phdr([](dl_phdr_info *i, size_t, void *b) { *static_cast<uintptr_t *>(b) = i->dlpi_addr; return 1; },
                    &bias);
    for (unsigned s = 0; s < eh->e_shnum; ++s) {
        if (sh[s].sh_type != SHT_SYMTAB || sh[s].sh_link >= eh->e_shnum) continue;
        if (sh[s].sh_offset + sh[s].sh_size > elf.size()) continue;
        const Elf64_Shdr &strtab = sh[sh[s].sh_link];
        auto sym = reinterpret_cast<const Elf64_Sym *>(elf.data() + sh[s].sh_offset);
        for (size_t k = 0; k < sh[s].sh_size / sizeof(Elf64_Sym); ++k) {
            unsigned bind = ELF64_ST_BIND(sym[k].st_info), type = ELF64_ST_TYPE(sym[k].st_info);
            if (sym[k].st_shndx == SHN_UNDEF || sym[k].st_name >= strtab.sh_size) continue;
            const char *name = elf.data() + strtab.sh_offset + sym[k].st_name;
            uintptr_t address = sym[k].st_value + bias;
            if (type == STT_FUNC && sym[k].st_size) out.functions.emplace(address, std::make_pair(sym[k].st_size, name));
            if ((bind == STB_GLOBAL || bind == STB_WEAK) && (type == STT_FUNC || type == STT_OBJECT))
                out.by_name.emplace(name, address);
        }
    }
    return out;
}

const Symbols &exe_symbols() {
    static const Symbols symbols = read_exe_symbols();
    return symbols;
}

}  // namespace

extern "C" void *__wrap_dlsym(void *handle, const char *name) {
    if (handle == RTLD_DEFAULT && name) {
        auto it = exe_symbols().by_name.find(name);
        if (it != exe_symbols().by_name.end()) return reinterpret_cast<void *>(it->second);
    }
    return __real_dlsym(handle, name);
}

extern "C" const char *mt_static_exe_function_at(uintptr_t address) {
    const auto &functions = exe_symbols().functions;
    auto it = functions.upper_bound(address);
    if (it == functions.begin()) return nullptr;
    --it;
    return address - it->first < it->second.first ? it->second.second.c_str() : nullptr;
}
