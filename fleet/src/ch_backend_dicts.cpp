// ch_backend_dicts.cpp — a run's classes, stacks (frames, addresses, symbols) and sites, read
// once from the exported tables and answered from memory (ch_backend.h); and the allocation and
// lifetime tables, whose (class, stack) filters those dictionaries answer.
#include "ch_backend_impl.h"

#include <memtracer/format.h>

#include <algorithm>
#include <cctype>

namespace mt::fleet {

namespace {
std::string num(int64_t v) { return std::to_string(v); }
std::string range(int64_t from, int64_t to) { return " AND seq >= " + num(from) + " AND seq <= " + num(to); }
uint64_t to_u64(const std::string &s) { return s.empty() ? 0 : std::stoull(s); }

// SQLite's lower(): ASCII only, as the query layer folds the needle.
std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
bool contains(const std::string &hay, const std::string &lower_needle) {
    return ascii_lower(hay).find(lower_needle) != std::string::npos;
}
}  // namespace

const RunDicts &ClickHouseBackend::dicts(int64_t run) {
    if (auto it = dicts_.find(run); it != dicts_.end()) return *it->second;
    auto d = std::make_unique<RunDicts>();
    const std::string w = where_or_none(run);
    for (auto &r : rows("SELECT class_id, name, `namespace`, full_name, flags, element_size FROM classes WHERE " + w))
        d->classes[to_i64(r[0])] = {r[1], r[2], r[3], to_i64(r[4]), to_i64(r[5])};
    for (auto &r : rows("SELECT stack_id, ifNull(site_id, 0), isNull(site_id), site_key, machinery FROM stacks WHERE " + w)) {
        auto &s = d->stacks[to_i64(r[0])];
        s.site_id = r[2] == "1" ? kNoSite : to_i64(r[1]);
        s.site_key = to_u64(r[3]);
        s.machinery = to_i64(r[4]);
    }
    // Sites by content key, named by this run's site ids. ReplacingMergeTree: a key may show twice
    // until merged, with the same content.
    std::unordered_map<uint64_t, int64_t> site_ids;
    for (const auto &[_, s] : d->stacks)
        if (s.site_id != kNoSite) site_ids[s.site_key] = s.site_id;
    const std::string stack_keys = "(SELECT stack_key FROM stacks WHERE " + w + ")";
    for (auto &r : rows("SELECT site_key, function, file, line FROM site_dict WHERE site_key GLOBAL IN "
                        "(SELECT site_key FROM stacks WHERE " + w + ")")) {
        uint64_t k = to_u64(r[0]);
        if (auto it = site_ids.find(k); it != site_ids.end()) d->sites[k] = {it->second, r[1], r[2], to_i64(r[3])};
    }
    // The run's frames (raw addresses are per run), their address keys from the stack's content
    // key, then each address's module and inline chain.
    std::unordered_map<int64_t, uint64_t> stack_key;  // stack_id -> stack_key
    for (auto &r : rows("SELECT stack_id, stack_key FROM stacks WHERE " + w)) stack_key[to_i64(r[0])] = to_u64(r[1]);
    std::map<std::pair<uint64_t, int64_t>, uint64_t> addr_at;  // (stack_key, pos) -> addr_key
    for (auto &r : rows("SELECT DISTINCT stack_key, pos, addr_key FROM stack_frame_dict WHERE stack_key GLOBAL IN " + stack_keys))
        addr_at[{to_u64(r[0]), to_i64(r[1])}] = to_u64(r[2]);
    const std::string addr_keys = "(SELECT addr_key FROM stack_frame_dict WHERE stack_key GLOBAL IN " + stack_keys + ")";
    struct Addr {
        std::string module;
        int64_t file_address = 0;
    };
    std::unordered_map<uint64_t, Addr> addrs;
    for (auto &r : rows("SELECT addr_key, module_path, file_address FROM address_dict WHERE addr_key GLOBAL IN " + addr_keys))
        addrs[to_u64(r[0])] = {r[1], to_i64(r[2])};
    std::unordered_map<uint64_t, std::map<int64_t, SymFrame>> syms;  // addr_key -> depth -> symbol
    for (auto &r : rows("SELECT addr_key, depth, function, demangled, csharp, file, line, cs_file, cs_line FROM symbol_dict "
                        "WHERE addr_key GLOBAL IN " + addr_keys)) {
        SymFrame f;
        f.has_symbol = true;
        f.depth = to_i64(r[1]);
        f.function = r[2], f.demangled = r[3], f.csharp = r[4], f.file = r[5], f.line = to_i64(r[6]);
        f.cs_file = r[7], f.cs_line = to_i64(r[8]);
        syms[to_u64(r[0])].emplace(f.depth, f);
    }
    for (auto &r : rows("SELECT stack_id, pos, address, isNull(addr_id) FROM stack_frames WHERE " + w + " ORDER BY stack_id, pos")) {
        const int64_t id = to_i64(r[0]), pos = to_i64(r[1]);
        SymFrame base;
        base.pos = pos;
        base.address = static_cast<uint64_t>(to_i64(r[2]));
        uint64_t key = 0;
        if (r[3] == "0")
            if (auto it = addr_at.find({stack_key[id], pos}); it != addr_at.end()) key = it->second;
        if (auto a = addrs.find(key); key && a != addrs.end())
            base.module = a->second.module, base.file_address = static_cast<uint64_t>(a->second.file_address);
        auto &out = d->stacks[id].frames;
        auto s = key ? syms.find(key) : syms.end();
        if (s == syms.end()) {
            out.push_back(base);  // no symbol row: SQLite's LEFT JOIN gives one unnamed frame
            continue;
        }
        for (const auto &[_, sym] : s->second) {
            SymFrame f = sym;
            f.pos = base.pos, f.address = base.address, f.module = base.module, f.file_address = base.file_address;
            out.push_back(f);
        }
    }
    if (dicts_.size() >= 4) dicts_.erase(dicts_.begin());
    return *(dicts_[run] = std::move(d));
}

std::vector<std::pair<int64_t, ClassInfo>> ClickHouseBackend::classes(int64_t run) {
    const auto &c = dicts(run).classes;
    return {c.begin(), c.end()};
}

std::optional<ClassInfo> ClickHouseBackend::find_class(int64_t run, int64_t class_id) {
    const auto &c = dicts(run).classes;
    auto it = c.find(class_id);
    return it == c.end() ? std::nullopt : std::optional<ClassInfo>(it->second);
}

std::vector<std::pair<int64_t, ClassInfo>> ClickHouseBackend::classes_matching(int64_t run, const std::string &lower) {
    std::vector<std::pair<int64_t, ClassInfo>> out;
    for (const auto &[id, c] : dicts(run).classes)
        if (contains(c.full_name, lower)) out.emplace_back(id, c);
    return out;
}

std::vector<std::pair<int64_t, int64_t>> ClickHouseBackend::stack_sites(int64_t run) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto &[id, s] : dicts(run).stacks) out.emplace_back(id, s.site_id);
    return out;
}

std::vector<SiteInfo> ClickHouseBackend::sites(int64_t run) {
    std::vector<SiteInfo> out;
    for (const auto &[_, s] : dicts(run).sites) out.push_back(s);
    return out;
}

std::optional<SiteInfo> ClickHouseBackend::find_stack_site(int64_t run, int64_t stack_id) {
    const RunDicts &d = dicts(run);
    auto st = d.stacks.find(stack_id);
    if (st == d.stacks.end() || st->second.site_id == kNoSite) return std::nullopt;
    auto s = d.sites.find(st->second.site_key);
    return s == d.sites.end() ? std::nullopt : std::optional<SiteInfo>(s->second);
}

std::vector<SymFrame> ClickHouseBackend::stack_frames(int64_t run, int64_t stack_id) {
    const RunDicts &d = dicts(run);
    auto st = d.stacks.find(stack_id);
    return st == d.stacks.end() ? std::vector<SymFrame>{} : st->second.frames;
}

void ClickHouseBackend::all_stack_frames(int64_t run, const std::function<void(int64_t, const SymFrame &)> &fn) {
    for (const auto &[id, s] : dicts(run).stacks)
        for (const SymFrame &f : s.frames) fn(id, f);
}

std::vector<std::pair<int64_t, int64_t>> ClickHouseBackend::machinery(int64_t run) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto &[id, s] : dicts(run).stacks)
        if (s.machinery > 0) out.emplace_back(id, s.machinery);
    return out;
}

std::vector<FunctionMatch> ClickHouseBackend::functions_matching(int64_t run, const std::string &lower) {
    std::vector<FunctionMatch> out;
    std::set<std::tuple<int64_t, std::string, std::string, std::string, std::string, int64_t, std::string, int64_t>> seen;
    for (const auto &[id, s] : dicts(run).stacks)
        for (const SymFrame &f : s.frames) {
            if (!f.has_symbol) continue;  // an inner JOIN on symbols in SQLite
            if (!contains(f.csharp, lower) && !contains(f.demangled, lower) && !contains(f.function, lower)) continue;
            if (!seen.insert({id, f.csharp, f.demangled, f.function, f.file, f.line, f.cs_file, f.cs_line}).second) continue;
            out.push_back({id, f.csharp, f.demangled, f.function, f.file, f.cs_file, f.line, f.cs_line});
        }
    return out;
}

ClickHouseBackend::Keep ClickHouseBackend::keep(int64_t run, const AllocFilter &f) {
    Keep k;
    if (f.cls.empty() && f.kind.empty() && f.function.empty()) return k;
    k.all = false;
    const RunDicts &d = dicts(run);
    if (!f.cls.empty() || !f.kind.empty()) {
        k.cls_filter = true;
        for (const auto &[id, c] : d.classes) {
            if (!f.cls.empty() && !contains(c.full_name, f.cls)) continue;
            if (!f.kind.empty() && ((c.flags & MT_CLASS_NATIVE) != 0) != (f.kind == "native")) continue;
            k.classes.insert(id);
        }
    }
    if (!f.function.empty()) {
        k.stack_filter = true;
        for (const auto &[id, s] : d.stacks)
            for (const SymFrame &fr : s.frames)
                if (fr.has_symbol && (contains(fr.csharp, f.function) || contains(fr.demangled, f.function) ||
                                      contains(fr.function, f.function)))
                    k.stacks.insert(id);
    }
    return k;
}

std::string ClickHouseBackend::thread_sql(const AllocFilter &f) {
    if (f.threads.empty()) return "";
    std::string s = " AND thread_id IN (";
    for (size_t i = 0; i < f.threads.size(); ++i) s += (i ? ", " : "") + num(f.threads[i]);
    return s + ")";
}

void ClickHouseBackend::allocs(int64_t run, int64_t from, int64_t to, const AllocFilter &f, RowFn<AllocRow> fn) {
    Keep k = keep(run, f);
    AllocRow a;
    for (auto &r : rows("SELECT seq, class_id, stack_id, thread_id, `count`, requested_bytes, gc_bytes FROM allocs WHERE " +
                        where_or_none(run) + range(from, to) + thread_sql(f) + " ORDER BY seq, class_id, stack_id, thread_id")) {
        a.seq = to_i64(r[0]), a.class_id = to_i64(r[1]), a.stack_id = to_i64(r[2]), a.thread_id = to_i64(r[3]);
        if (!k(a.class_id, a.stack_id)) continue;
        a.t = {to_i64(r[4]), to_i64(r[5]), to_i64(r[6])};
        fn(a);
    }
}

void ClickHouseBackend::grouped(const std::string &table, int64_t run, const std::string &extra, const AllocFilter &f,
                                RowFn<AllocRow> fn) {
    Keep k = keep(run, f);
    for (auto &r : rows("SELECT class_id, stack_id, sum(`count`), sum(requested_bytes), sum(gc_bytes) FROM " + table +
                        " WHERE " + where_or_none(run) + extra + thread_sql(f) +
                        " GROUP BY class_id, stack_id ORDER BY class_id, stack_id")) {
        AllocRow a{-1, to_i64(r[0]), to_i64(r[1]), -1, {to_i64(r[2]), to_i64(r[3]), to_i64(r[4])}};
        if (k(a.class_id, a.stack_id)) fn(a);
    }
}

void ClickHouseBackend::frame_class_stacks(int64_t run, int64_t seq, const AllocFilter &f, RowFn<AllocRow> fn) {
    grouped("allocs", run, " AND seq = " + num(seq), f, [&](const AllocRow &a) {
        AllocRow b = a;
        b.seq = seq;
        fn(b);
    });
}

void ClickHouseBackend::run_class_stacks(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) {
    grouped("run_class_stack", run, "", f, fn);
}

void ClickHouseBackend::run_class_stack_rows(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) {
    Keep k = keep(run, f);
    for (auto &r : rows("SELECT class_id, stack_id, `count`, requested_bytes, gc_bytes FROM run_class_stack WHERE " +
                        where_or_none(run) + thread_sql(f) + " ORDER BY class_id, stack_id, thread_id")) {
        AllocRow a{-1, to_i64(r[0]), to_i64(r[1]), -1, {to_i64(r[2]), to_i64(r[3]), to_i64(r[4])}};
        if (k(a.class_id, a.stack_id)) fn(a);
    }
}

std::vector<std::pair<int64_t, Totals>> ClickHouseBackend::thread_totals(int64_t run) {
    std::vector<std::pair<int64_t, Totals>> out;
    for (auto &r : rows("SELECT thread_id, sum(`count`), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack WHERE " +
                        where_or_none(run) + " GROUP BY thread_id ORDER BY thread_id"))
        out.push_back({to_i64(r[0]), {to_i64(r[1]), to_i64(r[2]), to_i64(r[3])}});
    return out;
}

void ClickHouseBackend::survivors(int64_t run, RowFn<SurvivorRow> fn) {
    for (auto &r : rows("SELECT class_id, stack_id, `count`, gc_bytes, first_seq, frames, thread_id, all_frames FROM survivors "
                        "WHERE " + where_or_none(run) + " ORDER BY class_id, stack_id, thread_id"))
        fn({to_i64(r[0]), to_i64(r[1]), to_i64(r[2]), to_i64(r[3]), to_i64(r[4]), to_i64(r[5]), to_i64(r[6]), to_i64(r[7])});
}

void ClickHouseBackend::death_sites(int64_t run, int64_t from, int64_t to, RowFn<DeathSiteRow> fn) {
    DeathSiteRow d;
    for (auto &r : rows("SELECT seq, class_id, stack_id, thread_id, ages FROM death_sites WHERE " + where_or_none(run) +
                        range(from, to) + " ORDER BY seq, class_id, stack_id, thread_id")) {
        d.seq = to_i64(r[0]), d.class_id = to_i64(r[1]), d.stack_id = to_i64(r[2]), d.thread_id = to_i64(r[3]);
        d.ages = std::move(r[4]);
        fn(d);
    }
}

std::optional<int64_t> ClickHouseBackend::last_death_seq(int64_t run, int64_t from, int64_t to) {
    auto r = rows("SELECT count(), max(seq) FROM death_sites WHERE " + where_or_none(run) + range(from, to)).at(0);
    if (r[0] == "0") return std::nullopt;
    return to_i64(r[1]);
}

}  // namespace mt::fleet
