// symbol_locator.h — finds the symbol file for each module of a run. Candidates come from
// --dsym bundles, --elf files and --symbols directories; a module takes the candidate with its
// recorded build id / UUID, or failing that one with its file name, which is a mismatch: refused
// (an error for files named on the command line, a warning and no symbols for directory finds)
// unless --force.
#ifndef MEMTRACER_SYM_SYMBOL_LOCATOR_H
#define MEMTRACER_SYM_SYMBOL_LOCATOR_H

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "memtracer/reader.h"
#include "object_info.h"

namespace mt::sym {

// file_fingerprint(path), hashed when first asked for and then shared by every copy (the
// locator's candidate and each module's SymbolFile). A warm ingest whose cached answers all came
// from debug info never asks (needs_symbolizing looks at it only for weaker answers, and only
// rows a backend answers record it), so it no longer reads and hashes the whole symbol file
// (a 54 MB library: 63M instructions and its pages, every run; docs/benchmarks.md, issue 22,
// eighth session). Default-constructed: no file, value() 0 (unknown). Thread-safe.
class FileFingerprint {
public:
    FileFingerprint() = default;
    explicit FileFingerprint(std::string path);
    uint64_t value() const;  // throws Error(Symbols) if the file cannot be read
    bool computed() const;   // whether value() has hashed the file (tests)

private:
    struct State {
        std::string path;
        std::once_flag once;
        std::atomic<uint64_t> value{0};  // never 0 once hashed (file_fingerprint)
    };
    std::shared_ptr<State> state_;
};

// The symbol file chosen for one module, narrowed to one architecture slice.
struct SymbolFile {
    std::string path;         // file to read (inside the dSYM for bundles)
    std::string origin;       // what the user named: bundle, file or directory
    std::string arch;         // slice to use ("" for ELF)
    ObjectKind kind = ObjectKind::Elf;
    ObjectSlice slice;
    bool id_verified = false; // false when matched by name only (no id recorded, or --force)
    FileFingerprint fingerprint;  // file_fingerprint(path), when asked: which file answered a cached address
};

class SymbolLocator {
public:
    using Warn = std::function<void(const std::string &)>;
    explicit SymbolLocator(Warn warn) : warn_(std::move(warn)) {}

    void add_dsym(const std::string &bundle);  // a .dSYM bundle, or a DWARF file directly
    void add_elf(const std::string &file);     // any ELF or Mach-O file (or an X.framework bundle)
    void add_dir(const std::string &dir);      // scanned recursively, symlinks followed once

    bool empty() const { return candidates_.empty(); }
    size_t size() const { return candidates_.size(); }

    // The file for `m` in a run of `run_arch` (mt_arch), or nothing. Throws Error(Symbols) for a
    // name match with another id when the candidate was named explicitly and !force.
    std::optional<SymbolFile> find(const mt::reader::Module &m, uint32_t run_arch, bool force);

    // Candidates named explicitly (--dsym/--elf) that no module used: worth a warning.
    std::vector<std::string> unused_explicit() const;

    // The name two files must share to be the same module: basename, with the ".debug" and
    // ".sym"/".dbg" decorations of split debug files removed.
    static std::string name_key(const std::string &path);

private:
    struct Candidate {
        ObjectInfo info;
        std::string origin;
        bool explicit_ = false;
        bool used = false;
        FileFingerprint fingerprint;  // hashed when first asked for
    };
    static Candidate candidate(const std::string &path, const std::string &origin, bool explicit_);
    void add(const std::string &path, const std::string &origin, bool explicit_);
    std::vector<std::string> bundle_files(const std::string &bundle);  // dsym_dwarf_files, skips noted
    static std::vector<std::string> sibling_dsyms(const std::string &binary);
    SymbolFile choose(Candidate &c, const ObjectSlice &s, bool verified);

    std::vector<Candidate> candidates_;
    Warn warn_;
};

// The slice of a file that fits a run: the one carrying `id` if any, else the run's arch.
const ObjectSlice *pick_slice(const ObjectInfo &info, const std::vector<uint8_t> &id, uint32_t run_arch);

}  // namespace mt::sym

#endif
