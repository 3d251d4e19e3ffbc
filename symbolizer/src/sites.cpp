#include "sites.h"

#include <algorithm>
#include <cstdio>

#include "memtracer/store/writer_sql.h"
#include "names.h"

namespace mt::sym {

namespace {
// Internal: any rule matches (machinery is internal too); Machinery: a Machinery rule matches.
bool matches(const SymbolRow &row, InternalRule::Role role) {
    std::string_view name = row.demangled.empty() ? std::string_view(row.function) : std::string_view(row.demangled);
    // Mach-O symbol tables prefix every C name with '_'.
    std::string_view bare = name.size() > 1 && name[0] == '_' && name[1] != '_' ? name.substr(1) : name;
    // "ns::Cls::fn(int)" -> "fn", for the exact rules.
    std::string_view fn = bare.substr(0, bare.find('('));
    if (size_t colons = fn.rfind("::"); colons != std::string_view::npos) fn = fn.substr(colons + 2);
    for (const InternalRule &r : kInternalRules) {
        if (role == InternalRule::Machinery && r.role != InternalRule::Machinery) continue;
        if (r.kind == InternalRule::Prefix ? name.starts_with(r.text) || bare.starts_with(r.text) : fn == r.text)
            return true;
    }
    return false;
}
}  // namespace

bool is_internal(const SymbolRow &row) { return matches(row, InternalRule::Internal); }

bool is_machinery(const SymbolRow &row) { return !row.function.empty() && matches(row, InternalRule::Machinery); }

bool MachineryTrim::add(std::span<const SymbolRow> chain) {
    if (done_) return false;
    if (chain.empty()) return !(done_ = true);  // no symbols: nothing says it is machinery
    for (const SymbolRow &row : chain) {
        if (!is_machinery(row)) return !(done_ = true);
        ++frames_;
    }
    return true;
}

Site site_of(const SymbolRow &row) {
    Site s;
    s.function = display_name(row.function, row.demangled, row.csharp);
    if (!row.cs_file.empty()) {
        s.file = row.cs_file;
        s.line = row.cs_line;
    } else {
        s.file = row.file;
        s.line = row.line;
    }
    return s;
}

bool is_library(const SymbolRow &row) {
    std::string_view file = row.file;
    if (size_t slash = file.find_last_of("/\\"); slash != std::string_view::npos) file = file.substr(slash + 1);
    for (std::string_view prefix : kLibraryFilePrefixes) {
        if (!file.starts_with(prefix) || file.size() == prefix.size()) continue;
        char next = file[prefix.size()];
        if (next == '.' || next == '_' || (next >= '0' && next <= '9')) return true;
    }
    return false;
}

std::optional<Site> game_site(std::span<const SymbolRow> chain, bool allow_library) {
    for (const SymbolRow &row : chain)
        if (!row.function.empty() && !is_internal(row) && (allow_library || !is_library(row))) return site_of(row);
    return std::nullopt;
}

std::optional<Site> runtime_site(std::span<const std::span<const SymbolRow>> stack) {
    for (bool allow_machinery : {false, true})
        for (std::span<const SymbolRow> chain : stack)
            for (const SymbolRow &row : chain)
                if (!row.function.empty() && (allow_machinery || !is_machinery(row))) return site_of(row);
    return std::nullopt;
}

std::string site_rules_fingerprint() {
    // FNV-1a over every rule and prefix, and the summary's own version: a build whose rules or
    // summary differ gets another fingerprint, and its ingest forgets the stored summaries.
    constexpr int kSummaryVersion = 1;  // raise when summarize() or site_of() changes meaning
    uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::string_view text) {
        for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        h = (h ^ 0xffu) * 1099511628211ull;  // a separator: "ab","c" differs from "a","bc"
    };
    mix(std::to_string(kSummaryVersion));
    for (const InternalRule &r : kInternalRules) {
        mix(r.kind == InternalRule::Prefix ? "prefix" : "exact");
        mix(r.text);
        mix(r.role == InternalRule::Machinery ? "machinery" : "internal");
    }
    for (std::string_view p : kLibraryFilePrefixes) mix(p);
    char out[17];
    snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

void check_site_rules(store::Db &db) {
    const std::string ours = site_rules_fingerprint();
    store::Stmt get = db.prepare(store::sql::kSiteRules);
    std::optional<std::string> theirs;
    if (get.step()) theirs = get.str(0);
    get = store::Stmt();
    if (theirs == ours) return;
    // No fingerprint: no summary was ever stored (a version-3 file, or a new one); another one:
    // summaries of other rules, which would pick other sites than these rules do.
    if (theirs) db.exec(store::sql::kForgetAddressSites);
    store::Stmt set = db.prepare(store::sql::kSetSiteRules);
    set.bind(1, ours).run();
}

int32_t StackSites::intern(Site s) {
    std::string key = s.function + '\n' + s.file + '\n' + std::to_string(s.line);
    auto [it, fresh] = site_index_.try_emplace(std::move(key), static_cast<int32_t>(sites_.size()));
    if (fresh) {
        sites_.push_back(std::move(s));
        site_ids_.push_back(0);
    }
    return it->second;
}

int32_t StackSites::stored_site(int64_t site_id) {
    const int32_t next = static_cast<int32_t>(sites_.size());
    if (site_id > 0 && site_id < kDenseSites) {
        const auto at = static_cast<size_t>(site_id);
        if (at >= stored_dense_.size()) stored_dense_.resize(std::max(at + 1, 2 * stored_dense_.size()), 0);
        int32_t &slot = stored_dense_[at];
        if (slot) return slot - 1;
        slot = next + 1;
    } else {
        auto [it, fresh] = stored_index_.try_emplace(site_id, next);
        if (!fresh) return it->second;
    }
    sites_.emplace_back();
    site_ids_.push_back(site_id);
    return next;
}

AddressFacts StackSites::summarize(std::span<const SymbolRow> chain) {
    // The four sites below are rows of the chain, usually one and the same row: each row's site
    // is built and interned once (building its name and key was most of this function).
    constexpr size_t kNoRow = SIZE_MAX;
    size_t own = kNoRow, any = kNoRow, runtime = kNoRow, runtime_any = kNoRow;
    AddressFacts f;
    f.empty = chain.empty();
    bool leading = true;
    for (size_t i = 0; i < chain.size(); ++i) {
        const SymbolRow &row = chain[i];
        bool machinery = is_machinery(row);
        if (leading && machinery) ++f.machinery;
        else leading = false;
        if (row.function.empty()) continue;
        f.named = true;
        if (runtime_any == kNoRow) runtime_any = i;
        if (runtime == kNoRow && !machinery) runtime = i;
        // game_site(chain, false / true): the first named non-internal row, not library code / any.
        if (own == kNoRow && !is_internal(row)) {
            if (any == kNoRow) any = i;
            if (!is_library(row)) own = i;
        }
    }
    f.all_machinery = !chain.empty() && leading;
    std::pair<size_t, int32_t> built[4];  // row -> interned site, for this chain (at most four rows)
    size_t n_built = 0;
    auto site_at = [&](size_t i) -> int32_t {
        if (i == kNoRow) return AddressFacts::kNone;
        for (size_t k = 0; k < n_built; ++k)
            if (built[k].first == i) return built[k].second;
        built[n_built] = {i, intern(site_of(chain[i]))};
        return built[n_built++].second;
    };
    f.own = site_at(own);
    f.any = site_at(any);
    f.runtime = site_at(runtime);
    f.runtime_any = site_at(runtime_any);
    return f;
}

namespace {
// address_sites.facts' bits (schema.sql).
constexpr int32_t kEmptyBit = 1, kNamedBit = 2, kAllMachineryBit = 4, kMachineryShift = 3;
constexpr uint32_t kMaxMachinery = (INT32_MAX >> kMachineryShift);
}  // namespace

StoredSites StackSites::stored(const AddressFacts &f) const {
    auto id = [&](int32_t i) -> int32_t {
        if (i == AddressFacts::kNone) return 0;
        if (i < 0) return -1;  // kUnknown
        int64_t v = site_ids_[static_cast<size_t>(i)];
        return v > 0 && v <= INT32_MAX ? static_cast<int32_t>(v) : -1;
    };
    StoredSites s;
    s.facts = (f.empty ? kEmptyBit : 0) | (f.named ? kNamedBit : 0) | (f.all_machinery ? kAllMachineryBit : 0) |
              static_cast<int32_t>(std::min(f.machinery, kMaxMachinery) << kMachineryShift);
    s.own = id(f.own);
    s.any = id(f.any);
    s.runtime = id(f.runtime);
    s.runtime_any = id(f.runtime_any);
    return s;
}

AddressFacts StackSites::from_stored(const StoredSites &s) {
    auto index = [&](int32_t id) -> int32_t {
        if (id == 0) return AddressFacts::kNone;
        if (id < 0) return AddressFacts::kUnknown;
        return stored_site(id);
    };
    AddressFacts f;
    f.empty = (s.facts & kEmptyBit) != 0;
    f.named = (s.facts & kNamedBit) != 0;
    f.all_machinery = (s.facts & kAllMachineryBit) != 0;
    f.machinery = static_cast<uint32_t>(s.facts >> kMachineryShift);
    f.own = index(s.own);
    f.any = index(s.any);
    f.runtime = index(s.runtime);
    f.runtime_any = index(s.runtime_any);
    return f;
}

StackSites::Pick StackSites::pick(size_t depth, const FactsAt &at) {
    // One site field of the address at `pos`: the stored facts', or its chain's when they lack it.
    auto site = [&](size_t pos, int32_t AddressFacts::*field) -> int32_t {
        const AddressFacts *f = at(pos, false);
        if (!f) return AddressFacts::kNone;
        if (f->*field == AddressFacts::kUnknown) f = at(pos, true);
        return f->*field;
    };
    for (int32_t AddressFacts::*field : {&AddressFacts::own, &AddressFacts::any})
        for (size_t pos = 0; pos < depth; ++pos)
            if (int32_t i = site(pos, field); i >= 0) return {i, 0};
    for (size_t pos = 0; pos < depth; ++pos)
        if (const AddressFacts *f = at(pos, false); f && !f->named) return {Pick::kUnnamed, pos};
    // runtime_site over the stack's chains: a named non-machinery frame first, else any named one.
    for (int32_t AddressFacts::*field : {&AddressFacts::runtime, &AddressFacts::runtime_any})
        for (size_t pos = 0; pos < depth; ++pos)
            if (int32_t i = site(pos, field); i >= 0) return {i, 0};
    return {};
}

uint32_t StackSites::machinery(size_t depth, const FactsAt &at) {
    // MachineryTrim over the facts: an address outside every module or without rows ends the
    // machinery, as does one whose chain has a frame that is not machinery.
    uint32_t frames = 0;
    for (size_t pos = 0; pos < depth; ++pos) {
        const AddressFacts *f = at(pos, false);
        if (!f || f->empty) return frames;
        frames += f->machinery;
        if (!f->all_machinery) return frames;
    }
    return 0;
}

}  // namespace mt::sym
