// object_info.h — what the symbolizer needs to know about a symbol file before using it: its
// format, the identity of each architecture slice (GNU build id or LC_UUID), the __TEXT vmaddr
// and whether it carries DWARF or only a symbol table. Reads headers only, through LLVM Object.
#ifndef MEMTRACER_SYM_OBJECT_INFO_H
#define MEMTRACER_SYM_OBJECT_INFO_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "record.h"

namespace mt::sym {

enum class ObjectKind { Elf, MachO };

struct ObjectSlice {
    std::string arch;               // "arm64", "x86_64", ... (LLVM's arch name)
    std::vector<uint8_t> id;        // build id / UUID bytes; empty if the file has none
    uint64_t text_vmaddr = 0;       // Mach-O __TEXT vmaddr, ELF lowest PT_LOAD vaddr
    bool has_debug_info = false;    // a .debug_info / __debug_info section
    bool has_symbols = false;       // a non-empty symbol table
    Quality quality() const {
        return has_debug_info ? Quality::DebugInfo : has_symbols ? Quality::SymbolTable : Quality::None;
    }
};

struct ObjectInfo {
    std::string path;               // the file itself (the DWARF file inside a dSYM bundle)
    ObjectKind kind = ObjectKind::Elf;
    bool universal = false;         // fat Mach-O
    std::vector<ObjectSlice> slices;
};

// True if the first bytes of `path` look like ELF or Mach-O (thin or fat); cheap, for scanning
// directories without parsing every file in them.
bool looks_like_object(const std::string &path);

// Parses the headers of `path`. Throws Error(Symbols) naming the file when it is not a readable
// ELF or Mach-O object.
ObjectInfo inspect_object(const std::string &path);

// The DWARF files of a .dSYM bundle: the Mach-O files (thin or fat, by magic) in
// Contents/Resources/DWARF. Anything else there (Finder's .DS_Store, AppleDouble ._* files a
// copy from a non-Mac volume leaves) goes to *skipped if given. Throws Error(Symbols) if the
// bundle has no Mach-O file.
std::vector<std::string> dsym_dwarf_files(const std::string &bundle, std::vector<std::string> *skipped = nullptr);

// True if `path` starts like a Mach-O file (thin or fat).
bool looks_like_macho(const std::string &path);

// A content hash of the whole file (xxh3, never 0): which file of a build answered an address,
// so the same file is not asked again and another one is. Throws Error(Symbols) if unreadable.
uint64_t file_fingerprint(const std::string &path);

// Lowercase hex of an id ("" for none); the form ids take in the database and in messages.
std::string hex_id(const std::vector<uint8_t> &id);
// Mach-O UUIDs are also shown the way Apple tools print them (8-4-4-4-12, uppercase).
std::string display_id(const std::vector<uint8_t> &id, ObjectKind kind);

}  // namespace mt::sym

#endif
