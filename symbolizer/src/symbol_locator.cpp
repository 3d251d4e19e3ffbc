#include "symbol_locator.h"

#include <filesystem>

#include "memtracer/symbolizer/errors.h"
#include "memtracer/format.h"

namespace mt::sym {
namespace fs = std::filesystem;

namespace {

const char *arch_name(uint32_t run_arch) {
    switch (run_arch) {
    case MT_ARCH_ARM64: return "arm64";
    case MT_ARCH_X86_64: return "x86_64";
    default: return "";
    }
}

bool ends_with(const std::string &s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Same architecture, allowing LLVM's and Apple's spellings of arm64.
bool same_arch(const std::string &slice_arch, const char *want) {
    if (!*want) return true;
    if (slice_arch == want) return true;
    return std::string_view(want) == "arm64" && (slice_arch == "aarch64" || slice_arch == "arm64");
}

}  // namespace

FileFingerprint::FileFingerprint(std::string path) : state_(std::make_shared<State>()) { state_->path = std::move(path); }

uint64_t FileFingerprint::value() const {
    if (!state_) return 0;
    std::call_once(state_->once, [&] { state_->value.store(file_fingerprint(state_->path), std::memory_order_release); });
    return state_->value.load(std::memory_order_acquire);
}

bool FileFingerprint::computed() const { return state_ && state_->value.load(std::memory_order_acquire) != 0; }

std::string SymbolLocator::name_key(const std::string &path) {
    std::string n = fs::path(path).filename().string();
    if (ends_with(n, ".debug")) n.resize(n.size() - 6);
    for (std::string_view deco : {".sym.so", ".dbg.so"})
        if (ends_with(n, deco)) n.replace(n.size() - deco.size(), deco.size(), ".so");
    return n;
}

const ObjectSlice *pick_slice(const ObjectInfo &info, const std::vector<uint8_t> &id, uint32_t run_arch) {
    if (!id.empty())
        for (const ObjectSlice &s : info.slices)
            if (s.id == id) return &s;
    for (const ObjectSlice &s : info.slices)
        if (same_arch(s.arch, arch_name(run_arch))) return &s;
    return info.slices.size() == 1 ? &info.slices[0] : nullptr;
}

std::vector<std::string> SymbolLocator::bundle_files(const std::string &bundle) {
    std::vector<std::string> skipped;
    std::vector<std::string> files = dsym_dwarf_files(bundle, &skipped);
    for (const std::string &f : skipped) warn_("skipping " + f + " in the dSYM: not a Mach-O file");
    return files;
}

// Where Xcode and Unity put the dSYM of a Mach-O binary: `X.dSYM` beside the binary X, and for
// a framework or app bundle `UnityFramework.framework.dSYM` beside `UnityFramework.framework`
// (what an Xcode build or archive writes next to the bundle).
std::vector<std::string> SymbolLocator::sibling_dsyms(const std::string &binary) {
    std::vector<std::string> out;
    fs::path p = fs::absolute(binary).lexically_normal();
    out.push_back(p.string() + ".dSYM");
    fs::path bundle = p.parent_path();
    std::string ext = bundle.extension().string();
    if (ext == ".framework" || ext == ".app" || ext == ".appex" || ext == ".bundle") out.push_back(bundle.string() + ".dSYM");
    std::error_code ec;
    std::erase_if(out, [&](const std::string &d) { return !fs::is_directory(d, ec); });
    return out;
}

SymbolLocator::Candidate SymbolLocator::candidate(const std::string &path, const std::string &origin, bool explicit_) {
    Candidate c{inspect_object(path), origin, explicit_, false, {}};
    // Not hashed here: only when an answer needs it (FileFingerprint). One per candidate, shared
    // by the modules it serves, so a file is hashed once at most.
    c.fingerprint = FileFingerprint(c.info.path);
    return c;
}

void SymbolLocator::add(const std::string &path, const std::string &origin, bool explicit_) {
    candidates_.push_back(candidate(path, origin, explicit_));
    // A Mach-O binary keeps its DWARF in a dSYM; LLVM's symbolizer would read the one beside
    // it anyway, so take it as a candidate of its own (its debug info wins the id match).
    const ObjectInfo &info = candidates_.back().info;
    bool has_dwarf = false;
    for (const ObjectSlice &s : info.slices) has_dwarf |= s.has_debug_info;
    if (info.kind != ObjectKind::MachO || has_dwarf) return;
    for (const std::string &sibling : sibling_dsyms(path))
        for (const std::string &f : bundle_files(sibling)) candidates_.push_back(candidate(f, sibling, false));
}

void SymbolLocator::add_dsym(const std::string &bundle) {
    std::error_code ec;
    if (fs::is_directory(bundle, ec)) {
        for (const std::string &f : bundle_files(bundle)) add(f, bundle, true);
    } else if (fs::exists(bundle, ec)) {
        add(bundle, bundle, true);
    } else {
        throw symbols_error(bundle + ": no such dSYM bundle");
    }
}

void SymbolLocator::add_elf(const std::string &file) {
    std::error_code ec;
    std::string path = file;
    // A framework bundle stands for its binary: UnityFramework.framework/UnityFramework.
    if (fs::path p(file); fs::is_directory(p, ec) && p.extension() == ".framework")
        path = (p / p.stem()).string();
    if (!fs::is_regular_file(path, ec)) throw symbols_error(file + ": no such file");
    add(path, file, true);
}

void SymbolLocator::add_dir(const std::string &dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw symbols_error(dir + ": not a directory");
    size_t before = candidates_.size();
    auto opts = fs::directory_options::follow_directory_symlink | fs::directory_options::skip_permission_denied;
    for (fs::recursive_directory_iterator it(dir, opts, ec), end; !ec && it != end; it.increment(ec)) {
        if (it.depth() > 8) it.disable_recursion_pending();
        if (!it->is_regular_file(ec) || !looks_like_object(it->path().string())) continue;
        try {
            add(it->path().string(), dir, false);
        } catch (const Error &e) {
            warn_(std::string("skipping ") + e.what());
        }
    }
    if (candidates_.size() == before) warn_(dir + ": no ELF or Mach-O file found");
}

SymbolFile SymbolLocator::choose(Candidate &c, const ObjectSlice &s, bool verified) {
    c.used = true;
    SymbolFile f;
    f.path = c.info.path;
    f.origin = c.origin;
    f.kind = c.info.kind;
    f.arch = c.info.kind == ObjectKind::MachO ? s.arch : "";
    f.slice = s;
    f.id_verified = verified;
    f.fingerprint = c.fingerprint;
    return f;
}

std::optional<SymbolFile> SymbolLocator::find(const mt::reader::Module &m, uint32_t run_arch, bool force) {
    // By id: several files may carry it (a stripped .so and its .debug); the best one wins.
    Candidate *best = nullptr;
    const ObjectSlice *best_slice = nullptr;
    if (!m.build_id.empty()) {
        for (Candidate &c : candidates_)
            for (const ObjectSlice &s : c.info.slices)
                if (s.id == m.build_id && (!best_slice || s.quality() > best_slice->quality())) {
                    best = &c;
                    best_slice = &s;
                }
        if (best) {
            // Every file with the module's id served it, not only the best one: a binary given
            // with --elf whose dSYM won is not "unused".
            for (Candidate &c : candidates_)
                for (const ObjectSlice &s : c.info.slices) c.used |= s.id == m.build_id;
            return choose(*best, *best_slice, true);
        }
    }
    // By name.
    std::string key = name_key(m.path);
    for (Candidate &c : candidates_) {
        if (name_key(c.info.path) != key) continue;
        const ObjectSlice *s = pick_slice(c.info, m.build_id, run_arch);
        if (!s) continue;
        c.used = true;  // it names this module, even if refused below
        if (m.build_id.empty()) {
            warn_(m.path + ": the run recorded no build id; using " + c.info.path + " by its name, unverified");
            return choose(c, *s, false);
        }
        ObjectKind kind = m.kind == MT_MODULE_MACHO ? ObjectKind::MachO : ObjectKind::Elf;
        std::string msg = "symbol file " + c.info.path + " does not match module " + m.path +
                          ": the run recorded id " + display_id(m.build_id, kind) + ", the file" +
                          (s->arch.empty() ? "" : " (" + s->arch + " slice)") + " has " + display_id(s->id, c.info.kind);
        if (force) {
            warn_(msg + "; used anyway (--force)");
            return choose(c, *s, false);
        }
        if (c.explicit_) throw symbols_error(msg + " (--force uses it anyway)");
        warn_(msg + "; module left unsymbolized (--force uses it anyway)");
    }
    return std::nullopt;
}

std::vector<std::string> SymbolLocator::unused_explicit() const {
    std::vector<std::string> out;
    for (const Candidate &c : candidates_)
        if (c.explicit_ && !c.used) out.push_back(c.info.path);
    return out;
}

}  // namespace mt::sym
