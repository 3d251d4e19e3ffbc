#include "object_info.h"

#include <llvm/BinaryFormat/Magic.h>
#include <llvm/Object/BuildID.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/MachO.h>
#include <llvm/Object/MachOUniversal.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "memtracer/symbolizer/errors.h"

namespace mt::sym {
namespace obj = llvm::object;
namespace fs = std::filesystem;

namespace {

std::string llvm_message(llvm::Error e) { return llvm::toString(std::move(e)); }

bool has_section(const obj::ObjectFile &o, llvm::StringRef elf_name, llvm::StringRef macho_name) {
    for (const obj::SectionRef &s : o.sections()) {
        llvm::Expected<llvm::StringRef> name = s.getName();
        if (!name) {
            llvm::consumeError(name.takeError());
            continue;
        }
        if (!name->empty() && (*name == elf_name || *name == macho_name)) return true;
    }
    return false;
}

bool has_function_symbols(const obj::ObjectFile &o) {
    for (const obj::SymbolRef &sym : o.symbols()) {
        llvm::Expected<obj::SymbolRef::Type> t = sym.getType();
        if (!t) {
            llvm::consumeError(t.takeError());
            continue;
        }
        if (*t == obj::SymbolRef::ST_Function) return true;
    }
    // ELF files often keep only .dynsym after stripping; those names still symbolize.
    if (auto *elf = llvm::dyn_cast<obj::ELFObjectFileBase>(&o)) {
        for (const obj::ELFSymbolRef &sym : elf->getDynamicSymbolIterators())
            if (sym.getELFType() == llvm::ELF::STT_FUNC) return true;
    }
    return false;
}

uint64_t macho_text_vmaddr(const obj::MachOObjectFile &m) {
    for (const auto &lc : m.load_commands()) {
        if (lc.C.cmd == llvm::MachO::LC_SEGMENT_64) {
            auto seg = m.getSegment64LoadCommand(lc);
            if (llvm::StringRef(seg.segname, strnlen(seg.segname, 16)) == "__TEXT") return seg.vmaddr;
        } else if (lc.C.cmd == llvm::MachO::LC_SEGMENT) {
            auto seg = m.getSegmentLoadCommand(lc);
            if (llvm::StringRef(seg.segname, strnlen(seg.segname, 16)) == "__TEXT") return seg.vmaddr;
        }
    }
    return 0;
}

template <class ELFT>
uint64_t elf_lowest_load(const obj::ELFObjectFile<ELFT> &e) {
    auto phdrs = e.getELFFile().program_headers();
    if (!phdrs) {
        llvm::consumeError(phdrs.takeError());
        return 0;
    }
    uint64_t lowest = UINT64_MAX;
    for (const auto &p : *phdrs)
        if (p.p_type == llvm::ELF::PT_LOAD && p.p_vaddr < lowest) lowest = p.p_vaddr;
    return lowest == UINT64_MAX ? 0 : lowest;
}

uint64_t elf_text_vmaddr(const obj::ObjectFile &o) {
    if (auto *e = llvm::dyn_cast<obj::ELF64LEObjectFile>(&o)) return elf_lowest_load(*e);
    if (auto *e = llvm::dyn_cast<obj::ELF32LEObjectFile>(&o)) return elf_lowest_load(*e);
    if (auto *e = llvm::dyn_cast<obj::ELF64BEObjectFile>(&o)) return elf_lowest_load(*e);
    if (auto *e = llvm::dyn_cast<obj::ELF32BEObjectFile>(&o)) return elf_lowest_load(*e);
    return 0;
}

ObjectSlice describe(const obj::ObjectFile &o) {
    ObjectSlice s;
    s.arch = llvm::Triple::getArchTypeName(o.getArch()).str();
    s.has_debug_info = has_section(o, ".debug_info", "__debug_info") || has_section(o, ".zdebug_info", ".zdebug_info");
    s.has_symbols = has_function_symbols(o);
    if (auto *m = llvm::dyn_cast<obj::MachOObjectFile>(&o)) {
        llvm::ArrayRef<uint8_t> uuid = m->getUuid();
        s.id.assign(uuid.begin(), uuid.end());
        s.text_vmaddr = macho_text_vmaddr(*m);
        // LLVM names Apple's arm64 "aarch64"; keep the Apple spelling, which atos and lipo use.
        if (s.arch == "aarch64") s.arch = "arm64";
    } else {
        obj::BuildIDRef id = obj::getBuildID(&o);
        s.id.assign(id.begin(), id.end());
        s.text_vmaddr = elf_text_vmaddr(o);
    }
    return s;
}

}  // namespace

static llvm::file_magic magic_of(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    char head[64] = {};
    in.read(head, sizeof head);
    if (in.gcount() < 8) return llvm::file_magic::unknown;
    return llvm::identify_magic(llvm::StringRef(head, static_cast<size_t>(in.gcount())));
}

namespace {
using llvm::file_magic;
// The kinds of file a symbol file may be, by their first bytes.
const file_magic kElf[] = {file_magic::elf_relocatable, file_magic::elf_executable, file_magic::elf_shared_object,
                           file_magic::elf_core};
const file_magic kMachO[] = {file_magic::macho_executable, file_magic::macho_dynamically_linked_shared_lib,
                             file_magic::macho_dynamically_linked_shared_lib_stub, file_magic::macho_bundle,
                             file_magic::macho_dsym_companion, file_magic::macho_object,
                             file_magic::macho_universal_binary};

template <size_t N>
bool is_one_of(file_magic m, const file_magic (&kinds)[N]) {
    return std::find(std::begin(kinds), std::end(kinds), m) != std::end(kinds);
}
}  // namespace

bool looks_like_object(const std::string &path) {
    file_magic m = magic_of(path);
    return is_one_of(m, kElf) || is_one_of(m, kMachO);
}

bool looks_like_macho(const std::string &path) { return is_one_of(magic_of(path), kMachO); }

ObjectInfo inspect_object(const std::string &path) {
    auto bin = obj::createBinary(path);
    if (!bin) throw symbols_error(path + ": not a readable object file: " + llvm_message(bin.takeError()));
    ObjectInfo info;
    info.path = path;
    obj::Binary *b = bin->getBinary();
    if (auto *u = llvm::dyn_cast<obj::MachOUniversalBinary>(b)) {
        info.kind = ObjectKind::MachO;
        info.universal = true;
        for (const auto &slice : u->objects()) {
            auto o = slice.getAsObjectFile();
            if (!o) {
                llvm::consumeError(o.takeError());
                continue;
            }
            info.slices.push_back(describe(**o));
        }
        if (info.slices.empty()) throw symbols_error(path + ": universal binary without a readable slice");
        return info;
    }
    auto *o = llvm::dyn_cast<obj::ObjectFile>(b);
    if (!o || !(o->isELF() || o->isMachO()))
        throw symbols_error(path + ": neither an ELF nor a Mach-O file");
    info.kind = o->isMachO() ? ObjectKind::MachO : ObjectKind::Elf;
    info.slices.push_back(describe(*o));
    return info;
}

std::vector<std::string> dsym_dwarf_files(const std::string &bundle, std::vector<std::string> *skipped) {
    fs::path dir = fs::path(bundle) / "Contents" / "Resources" / "DWARF";
    std::error_code ec;
    std::vector<std::string> out, other;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (!it->is_regular_file(fec)) continue;
        (looks_like_macho(it->path().string()) ? out : other).push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
    std::sort(other.begin(), other.end());
    if (out.empty())
        throw symbols_error(bundle + ": not a dSYM bundle (no Mach-O file in " + dir.string() +
                            (other.empty() ? ")" : "; " + std::to_string(other.size()) + " other file(s) there)"));
    if (skipped) skipped->insert(skipped->end(), other.begin(), other.end());
    return out;
}

uint64_t file_fingerprint(const std::string &path) {
    auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buf) throw symbols_error(path + ": cannot read: " + buf.getError().message());
    uint64_t h = llvm::xxh3_64bits((*buf)->getBuffer());
    return h ? h : 1;
}

std::string hex_id(const std::vector<uint8_t> &id) {
    static const char *digits = "0123456789abcdef";
    std::string s;
    s.reserve(id.size() * 2);
    for (uint8_t b : id) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

std::string display_id(const std::vector<uint8_t> &id, ObjectKind kind) {
    if (id.empty()) return "(none)";
    std::string h = hex_id(id);
    if (kind != ObjectKind::MachO || id.size() != 16) return h;
    for (char &c : h) c = static_cast<char>(toupper(static_cast<unsigned char>(c)));
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

}  // namespace mt::sym
