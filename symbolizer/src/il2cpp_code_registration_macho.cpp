// The per-assembly method pointer tables of an iOS IL2CPP binary (UnityFramework), read from the
// Mach-O file (il2cpp_code_registration.h). What differs from ELF:
// - the data's pointers: with LC_DYLD_CHAINED_FIXUPS (ld64 for iOS 15+ and macOS 12+ targets)
//   each pointer slot holds a chain entry, decoded by LLVM's fixup table (DYLD_CHAINED_PTR_64:
//   the target's address, DYLD_CHAINED_PTR_64_OFFSET: its offset from the image base); with the
//   older rebase opcodes (LC_DYLD_INFO) a slot holds the target's unslid address as is;
// - the symbols: Xcode strips the binary, so they come from its dSYM (the DWARF file's symbol
//   table, whose sections carry no data), matched to the binary by LC_UUID; Mach-O names carry a
//   leading '_' the symbolizer's answers do not.
#include <llvm/Object/MachO.h>
#include <llvm/Object/MachOUniversal.h>
#include <llvm/Object/ObjectFile.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include "il2cpp_code_registration.h"
#include "il2cpp_code_registration_walk.h"
#include "il2cpp_section_image.h"
#include "object_info.h"

namespace mt::sym {

namespace {

namespace obj = llvm::object;

class MachOImage : public SectionImage {
public:
    explicit MachOImage(const obj::MachOObjectFile &o) {
        ptr_size_ = o.is64Bit() ? 8 : 4;
        for (const obj::SectionRef &s : o.sections()) {
            if (s.isBSS() || s.getSize() == 0) continue;
            // A dSYM keeps the binary's section headers with no contents (file offset 0).
            uint32_t offset = o.is64Bit() ? o.getSection64(s.getRawDataRefImpl()).offset : o.getSection(s.getRawDataRefImpl()).offset;
            if (offset == 0) continue;
            auto contents = s.getContents();
            if (!contents) {
                llvm::consumeError(contents.takeError());
                continue;
            }
            sections_[s.getAddress()] = *contents;
        }
        llvm::Error err = llvm::Error::success();
        for (const obj::MachOChainedFixupEntry &f : const_cast<obj::MachOObjectFile &>(o).fixupTable(err))
            patched_[f.address()] = f.isRebase() ? f.pointerValue() : 0;  // a bind: another image's symbol
        if (err) problem_ = llvm::toString(std::move(err));
    }

    uint64_t code_address(uint64_t p) const { return p; }
    const std::string &problem() const { return problem_; }

private:
    std::string problem_;
};

// One slice of a Mach-O file, kept alive with its file: `uuid` empty to take arm64 (else the
// first slice), else the slice with that LC_UUID.
struct Slice {
    obj::OwningBinary<obj::Binary> file;
    std::unique_ptr<obj::MachOObjectFile> owned;  // a slice of a fat file
    const obj::MachOObjectFile *macho = nullptr;
};

std::optional<Slice> open_slice(const std::string &path, llvm::ArrayRef<uint8_t> uuid) {
    auto bin = obj::createBinary(path);
    if (!bin) {
        llvm::consumeError(bin.takeError());
        return std::nullopt;
    }
    Slice s{std::move(*bin), nullptr, nullptr};
    auto fits = [&](const obj::MachOObjectFile &o) { return uuid.empty() || o.getUuid() == uuid; };
    if (auto *m = llvm::dyn_cast<obj::MachOObjectFile>(s.file.getBinary())) {
        if (!fits(*m)) return std::nullopt;
        s.macho = m;
        return s;
    }
    auto *fat = llvm::dyn_cast<obj::MachOUniversalBinary>(s.file.getBinary());
    if (!fat) return std::nullopt;
    std::unique_ptr<obj::MachOObjectFile> first;
    for (const auto &o : fat->objects()) {
        auto m = o.getAsObjectFile();
        if (!m) {
            llvm::consumeError(m.takeError());
            continue;
        }
        if (!fits(**m)) continue;
        if (uuid.empty() && o.getArchFlagName() != "arm64") {
            if (!first) first = std::move(*m);
            continue;
        }
        s.owned = std::move(*m);
        break;
    }
    if (!s.owned) s.owned = std::move(first);
    if (!s.owned) return std::nullopt;
    s.macho = s.owned.get();
    return s;
}

// The *_CodeGenModule data symbols and the functions of one Mach-O symbol table.
void collect_symbols(const obj::MachOObjectFile &o, std::vector<std::pair<std::string, uint64_t>> &modules,
                     std::multimap<uint64_t, std::string> &functions) {
    for (const obj::SymbolRef &sym : o.symbols()) {
        if (o.getSymbolTableEntry(sym.getRawDataRefImpl()).n_type & llvm::MachO::N_STAB) continue;  // debug map entries
        file_symbol(sym, true, modules, functions);
    }
}

}  // namespace

CodeRegistration read_code_registration_macho(const std::string &binary, const std::vector<std::string> &symbol_files,
                                              const Il2CppMetadata &metadata) {
    CodeRegistration out;
    auto bin = open_slice(binary, {});
    if (!bin) return out;
    std::vector<std::pair<std::string, uint64_t>> modules;
    std::multimap<uint64_t, std::string> functions;
    collect_symbols(*bin->macho, modules, functions);
    // The dSYM's symbol table, when it is this binary's (same LC_UUID).
    llvm::ArrayRef<uint8_t> uuid = bin->macho->getUuid();
    if (!uuid.empty())
        for (const std::string &f : symbol_files)
            if (f != binary)
                if (auto dsym = open_slice(f, uuid)) collect_symbols(*dsym->macho, modules, functions);
    std::sort(modules.begin(), modules.end());
    modules.erase(std::unique(modules.begin(), modules.end()), modules.end());
    if (modules.empty()) return out;
    // Both files name the same functions: keep one name per address and name.
    std::multimap<uint64_t, std::string> unique;
    for (const auto &[a, n] : functions) {
        auto [b, e] = unique.equal_range(a);
        if (std::none_of(b, e, [&](const auto &x) { return x.second == n; })) unique.emplace(a, n);
    }
    MachOImage image(*bin->macho);
    if (!image.problem().empty()) out.problem = binary + ": its chained fixups cannot be read: " + image.problem();
    walk_code_gen_modules(image, modules, unique, metadata, binary, out);
    return out;
}

std::vector<std::string> macho_dsym_files_beside(const std::string &binary) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    fs::path p = fs::absolute(binary).lexically_normal();
    std::vector<std::string> bundles = {p.string() + ".dSYM"};
    fs::path parent = p.parent_path();
    std::string ext = parent.extension().string();
    if (ext == ".framework" || ext == ".app" || ext == ".appex" || ext == ".bundle") bundles.push_back(parent.string() + ".dSYM");
    std::error_code ec;
    for (const std::string &b : bundles)
        if (fs::is_directory(b, ec))
            for (const std::string &f : dsym_dwarf_files(b)) out.push_back(f);
    return out;
}

}  // namespace mt::sym
