// il2cpp_section_image.h — a binary's loaded sections by address, with the pointer slots its
// format rewrites at load time already applied: what the code-registration walk
// (il2cpp_code_registration_walk.h) reads. ELF (relocations, il2cpp_code_registration.cpp) and
// Mach-O (chained fixups or rebased pointers, il2cpp_code_registration_macho.cpp) fill it.
#ifndef MEMTRACER_SYM_IL2CPP_SECTION_IMAGE_H
#define MEMTRACER_SYM_IL2CPP_SECTION_IMAGE_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Object/ObjectFile.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mt::sym {

class SectionImage {
public:
    // The pointer stored at `addr`, its load-time rewrite applied; nullopt outside every section.
    std::optional<uint64_t> pointer(uint64_t addr) const {
        if (auto it = patched_.find(addr); it != patched_.end()) return it->second;
        auto bytes = at(addr, ptr_size_);
        if (!bytes) return std::nullopt;
        uint64_t v = 0;
        std::memcpy(&v, bytes, ptr_size_);  // little-endian: every platform Unity builds for
        return v;
    }
    std::optional<uint32_t> u32(uint64_t addr) const {
        auto bytes = at(addr, 4);
        if (!bytes) return std::nullopt;
        uint32_t v;
        std::memcpy(&v, bytes, 4);
        return v;
    }
    std::optional<std::string> c_string(uint64_t addr) const {
        auto it = section_of(addr, 1);
        if (it == sections_.end()) return std::nullopt;
        llvm::StringRef rest = it->second.substr(addr - it->first);
        size_t nul = rest.find('\0');
        if (nul == llvm::StringRef::npos) return std::nullopt;
        return rest.substr(0, nul).str();
    }
    uint32_t ptr_size() const { return ptr_size_; }

protected:
    std::map<uint64_t, llvm::StringRef>::const_iterator section_of(uint64_t addr, uint64_t n) const {
        auto it = sections_.upper_bound(addr);
        if (it == sections_.begin()) return sections_.end();
        --it;
        return addr - it->first + n <= it->second.size() ? it : sections_.end();
    }
    const char *at(uint64_t addr, uint64_t n) const {
        auto it = section_of(addr, n);
        return it == sections_.end() ? nullptr : it->second.data() + (addr - it->first);
    }

    uint32_t ptr_size_ = 8;
    std::map<uint64_t, llvm::StringRef> sections_;  // loaded sections by address
    std::map<uint64_t, uint64_t> patched_;          // rewritten pointer slots by address
};

// The symbol-table side of both readers: a *_CodeGenModule data symbol is a table to walk, a
// function symbol a name for the pointers in it. `name` as the symbolizer answers (a Mach-O
// name without its leading '_'); a symbol whose name, address or type LLVM cannot read is skipped.
inline void file_symbol(const llvm::object::SymbolRef &sym, bool drop_underscore,
                        std::vector<std::pair<std::string, uint64_t>> &modules,
                        std::multimap<uint64_t, std::string> &functions) {
    auto name = sym.getName();
    auto addr = sym.getAddress();
    auto type = sym.getType();
    if (!name || !addr || !type) {
        if (!name) llvm::consumeError(name.takeError());
        if (!addr) llvm::consumeError(addr.takeError());
        if (!type) llvm::consumeError(type.takeError());
        return;
    }
    llvm::StringRef n = drop_underscore && name->starts_with("_") ? name->drop_front() : *name;
    if (n.ends_with("_CodeGenModule") && *type == llvm::object::SymbolRef::ST_Data)
        modules.emplace_back(n.str(), *addr);
    else if (*type == llvm::object::SymbolRef::ST_Function && *addr != 0)
        functions.emplace(*addr, n.str());
}

}  // namespace mt::sym

#endif
