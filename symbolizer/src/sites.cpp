#include "sites.h"

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

const std::vector<SymbolRow> &StackSites::chain(int64_t addr_id) {
    auto [it, fresh] = chains_.try_emplace(addr_id);
    if (fresh) it->second = load_(addr_id);
    return it->second;
}

const std::optional<Site> &StackSites::game_site_memo(int64_t addr_id, bool allow_library) {
    auto &memo = allow_library ? sites_ : own_sites_;
    auto [it, fresh] = memo.try_emplace(addr_id);
    if (fresh) it->second = game_site(chain(addr_id), allow_library);
    return it->second;
}

std::optional<Site> StackSites::site(std::span<const int64_t> stack,
                                     const std::function<std::string(size_t)> &unnamed_label) {
    for (bool allow_library : {false, true})
        for (int64_t id : stack)
            if (id)
                if (const auto &site = game_site_memo(id, allow_library)) return site;
    for (size_t pos = 0; pos < stack.size(); ++pos) {
        if (!stack[pos]) continue;
        bool named = false;
        for (const SymbolRow &row : chain(stack[pos])) named |= !row.function.empty();
        if (!named) return Site{unnamed_label(pos), "", 0};
    }
    std::vector<std::span<const SymbolRow>> all;
    for (int64_t id : stack)
        if (id) all.emplace_back(chain(id));
    return runtime_site(all);
}

uint32_t StackSites::machinery(std::span<const int64_t> stack) {
    MachineryTrim trim;
    for (int64_t id : stack)
        if (!trim.add(id ? std::span<const SymbolRow>(chain(id)) : std::span<const SymbolRow>())) break;
    return trim.done() ? trim.frames() : 0;
}

}  // namespace mt::sym
