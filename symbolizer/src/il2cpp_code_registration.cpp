// The per-assembly method pointer tables of an IL2CPP binary (see il2cpp_code_registration.h).
#include "il2cpp_code_registration.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/ObjectFile.h>

#include <cstring>
#include <map>
#include <vector>

#include "memtracer/symbolizer/errors.h"
#include "il2cpp_code_registration_walk.h"
#include "il2cpp_section_image.h"
#include "object_info.h"

namespace mt::sym {

namespace {

namespace obj = llvm::object;

// Reads the file's memory image as the loader would see it before running: section contents,
// patched by the dynamic relocations that write absolute addresses.
class Image : public SectionImage {
public:
    Image(const obj::ELFObjectFileBase &elf, std::string path) : path_(std::move(path)) {
        ptr_size_ = elf.getBytesInAddress();
        arm32_ = elf.getEMachine() == llvm::ELF::EM_ARM;
        for (const obj::SectionRef &s : elf.sections()) {
            if (s.isBSS() || s.getSize() == 0) continue;
            uint64_t addr = s.getAddress();
            if (addr == 0) continue;  // not loaded (.symtab, .debug_*)
            auto contents = s.getContents();
            if (!contents) {
                llvm::consumeError(contents.takeError());
                continue;
            }
            sections_[addr] = *contents;
        }
        for (const obj::SectionRef &s : elf.sections()) {
            uint32_t type = obj::ELFSectionRef(s).getType();
            if (type != llvm::ELF::SHT_RELA && type != llvm::ELF::SHT_REL) continue;
            for (const obj::RelocationRef &r : s.relocations()) relocate(r, type == llvm::ELF::SHT_RELA);
        }
    }

    // Thumb code pointers carry the mode in bit 0; the symbol holds the address without it.
    uint64_t code_address(uint64_t p) const { return arm32_ ? p & ~1ull : p; }

private:
    void relocate(const obj::RelocationRef &r, bool rela) {
        uint64_t type = r.getType();
        bool relative = type == llvm::ELF::R_X86_64_RELATIVE || type == llvm::ELF::R_AARCH64_RELATIVE ||
                        type == llvm::ELF::R_ARM_RELATIVE || type == llvm::ELF::R_386_RELATIVE;
        bool absolute = type == llvm::ELF::R_X86_64_64 || type == llvm::ELF::R_AARCH64_ABS64 ||
                        type == llvm::ELF::R_X86_64_GLOB_DAT || type == llvm::ELF::R_AARCH64_GLOB_DAT ||
                        type == llvm::ELF::R_ARM_ABS32 || type == llvm::ELF::R_ARM_GLOB_DAT;
        if (!relative && !absolute) return;
        // x86_64 and aarch64 share relocation numbers with other meanings on other machines; the
        // file's machine decides, and the values above are distinct for the machines read here.
        int64_t addend = 0;
        if (rela) {
            auto a = obj::ELFRelocationRef(r).getAddend();
            if (!a) {
                llvm::consumeError(a.takeError());
                return;
            }
            addend = *a;
        } else if (auto v = pointer(r.getOffset())) {
            addend = static_cast<int64_t>(*v);  // REL: the addend is stored in place
        }
        uint64_t base = 0;
        if (absolute) {
            auto sym = r.getSymbol();
            if (sym == obj::symbol_iterator(obj::SymbolRef())) return;
            auto a = sym->getAddress();
            if (!a || *a == 0) {
                if (!a) llvm::consumeError(a.takeError());
                return;  // undefined here: not one of this file's methods
            }
            base = *a;
        }
        patched_[r.getOffset()] = base + static_cast<uint64_t>(addend);
    }

    std::string path_;
    bool arm32_ = false;
};

}  // namespace

CodeRegistration read_code_registration(const std::string &path, const Il2CppMetadata &metadata,
                                        const std::vector<std::string> &dsym_files) {
    if (looks_like_macho(path)) {
        std::vector<std::string> symbols = dsym_files;
        try {
            for (std::string &f : macho_dsym_files_beside(path)) symbols.push_back(std::move(f));
        } catch (const Error &) {
            // A damaged dSYM beside it: the binary's own symbols still count.
        }
        return read_code_registration_macho(path, symbols, metadata);
    }
    CodeRegistration out;
    auto bin = obj::createBinary(path);
    if (!bin) {
        llvm::consumeError(bin.takeError());
        return out;
    }
    auto *elf = llvm::dyn_cast<obj::ELFObjectFileBase>(bin->getBinary());
    if (!elf) return out;

    std::vector<std::pair<std::string, uint64_t>> modules;
    std::multimap<uint64_t, std::string> functions;  // address -> names
    for (const obj::SymbolRef &sym : elf->symbols()) file_symbol(sym, false, modules, functions);
    if (modules.empty()) return out;

    Image image(*elf, path);
    walk_code_gen_modules(image, modules, functions, metadata, path, out);
    return out;
}

}  // namespace mt::sym
