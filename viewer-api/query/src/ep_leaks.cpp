// ep_leaks.cpp — leak candidates (objects still alive at the end of a frame range) and
// temporaries (objects that died within N frames), by class, allocation site or stack.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "endpoints.h"
#include "filter.h"
#include "lifetimes_model.h"
#include "sqlite.h"
#include "stacks.h"

namespace mt::viewer {

namespace {

enum class LMetric { GcBytes, Count, Frames };

struct Row {
    int64_t key = 0;  // class_id, site_id or stack_id
    int64_t count = 0, gc_bytes = 0;
    int64_t oldest_seq = INT64_MAX;  // leaks only
    int64_t frames = 0;              // leaks only: Alive::frames, the most of the group's stacks
    int64_t allocated = 0;           // objects allocated in the range
    std::unordered_map<int64_t, int64_t> class_bytes;  // what a site or stack holds, by class
    int64_t get(LMetric m) const { return m == LMetric::Count ? count : m == LMetric::Frames ? frames : gc_bytes; }
};

struct Grouping {
    std::string_view group;
    std::unordered_map<int64_t, int64_t> stack_site;
    int64_t key(int64_t class_id, int64_t stack_id) const {
        if (group == "class") return class_id;
        if (group == "stack") return stack_id;
        auto it = stack_site.find(stack_id);
        return it == stack_site.end() ? kNoSite : it->second;
    }
};

Grouping grouping(const Params &p, Database &db, int64_t run) {
    Grouping g;
    g.group = p.choice("group", {"class", "site", "stack"}, "class");
    if (g.group == "site") g.stack_site = load_stack_sites(db, run);
    return g;
}

std::vector<Row> sorted(std::unordered_map<int64_t, Row> &groups, LMetric by) {
    std::vector<Row> v;
    v.reserve(groups.size());
    for (auto &[_, r] : groups) v.push_back(std::move(r));
    std::sort(v.begin(), v.end(), [&](const Row &a, const Row &b) {
        if (a.get(by) != b.get(by)) return a.get(by) > b.get(by);
        return a.gc_bytes != b.gc_bytes ? a.gc_bytes > b.gc_bytes : a.key < b.key;
    });
    return v;
}

// The group's identity: a class, a site, or a stack with its site and frames. Leak entries
// carry a `frames` count, so there a stack's frames are `stack_frames` (one key, one meaning).
void write_key(Json &j, Database &db, int64_t run, std::string_view group, int64_t key,
               const std::unordered_map<int64_t, SiteInfo> &sites, bool leaks) {
    if (group == "class") {
        auto c = find_class(db, run, key);
        write_class(j, key, c ? &*c : nullptr);
    } else if (group == "site") {
        auto it = sites.find(key);
        write_site(j, key, it == sites.end() ? nullptr : &it->second);
    } else {
        j.kv("stack_id", key).obj("site");
        write_site(j, find_stack_site(db, run, key));
        j.end_obj().key(leaks ? "stack_frames" : "frames");
        write_frames(j, resolve_stack(db, run, key));
    }
}

// The class holding most bytes of a site or stack (what the row is mostly made of).
void write_main_class(Json &j, Database &db, int64_t run, const Row &r) {
    if (r.class_bytes.empty()) return;
    auto best = std::max_element(r.class_bytes.begin(), r.class_bytes.end(), [](auto &a, auto &b) {
        return a.second != b.second ? a.second < b.second : a.first > b.first;
    });
    auto c = find_class(db, run, best->first);
    j.obj("main_class");
    write_class(j, best->first, c ? &*c : nullptr);
    j.kv("gc_bytes", best->second).kv("class_count", static_cast<int64_t>(r.class_bytes.size())).end_obj();
}

struct PairKeyHash {
    size_t operator()(const std::pair<int64_t, int64_t> &p) const {
        return std::hash<int64_t>()(p.first * 1000003 ^ p.second);
    }
};

struct Common {
    RunRow run;
    Range r;
    LMetric by;
    Page pg;
    Grouping g;
    LifetimeSupport support;
    Filter filter;
    // The (class, stack) pairs the filter keeps, from run_class_stack: lifetimes are kept per
    // (class, stack), so filtering them is filtering these pairs. Unused when the filter is inactive.
    std::unordered_set<std::pair<int64_t, int64_t>, PairKeyHash> keep;
    // `thread`: the allocating thread of a lifetimes row; rows already filtered by thread pass none.
    bool kept(int64_t class_id, int64_t stack_id, std::optional<int64_t> thread = std::nullopt) const {
        return !filter.active() || (keep.count({class_id, stack_id}) > 0 && (!thread || filter.keeps_thread(*thread)));
    }
};

Common common(Database &db, const Params &p, int64_t run_id, bool leaks) {
    Common c{load_run(db, run_id), {}, LMetric::GcBytes, page_params(p, 50, 1000), {}, {}};
    auto by = leaks ? p.choice("by", {"frames", "gc_bytes", "count"}, "frames")
                    : p.choice("by", {"gc_bytes", "count"}, "gc_bytes");
    c.by = by == "count" ? LMetric::Count : by == "frames" ? LMetric::Frames : LMetric::GcBytes;
    c.r = frame_range(p, c.run);
    c.g = grouping(p, db, run_id);
    c.support = lifetime_support(db, run_id);
    c.filter = parse_filter(p, db, c.run);
    if (c.filter.active())
        for (const auto &cs : filtered_class_stacks(db, c.run, Range{0, c.run.frames - 1, true}, c.filter))
            c.keep.emplace(cs.class_id, cs.stack_id);
    return c;
}

void write_head(Json &j, const Common &c, bool available) {
    j.obj().kv("run_id", c.run.id).obj("range").kv("from", c.r.from).kv("to", c.r.to).kv("whole", c.r.whole).end_obj();
    j.kv("by", c.by == LMetric::Count ? "count" : c.by == LMetric::Frames ? "frames" : "gc_bytes");
    j.kv("group", c.g.group);
    j.kv("lifetimes", available).key("note");
    available ? j.null() : j.val(c.support.why);
    write_filter(j, c.filter);
}

void write_rows(Json &j, Database &db, const Common &c, const std::vector<Row> &rows, bool leaks) {
    std::unordered_map<int64_t, SiteInfo> sites;
    if (c.g.group == "site") sites = load_sites(db, c.run.id);
    int64_t total = 0;
    for (const auto &r : rows) total += r.get(c.by);
    j.arr("entries");
    for (int64_t i = c.pg.offset; i < static_cast<int64_t>(rows.size()) && i < c.pg.offset + c.pg.limit; ++i) {
        const Row &r = rows[static_cast<size_t>(i)];
        j.obj().kv("rank", i + 1);
        write_key(j, db, c.run.id, c.g.group, r.key, sites, leaks);
        j.kv("count", r.count).kv("gc_bytes", r.gc_bytes).kv("allocated", r.allocated);
        j.kv("share", total > 0 ? static_cast<double>(r.get(c.by)) / static_cast<double>(total) : 0.0);
        if (leaks) j.kv("oldest_seq", r.oldest_seq).kv("age_frames", c.r.to - r.oldest_seq).kv("frames", r.frames);
        if (c.g.group != "class") write_main_class(j, db, c.run.id, r);
        j.end_obj();
    }
    j.end_arr();
    write_page(j, static_cast<int64_t>(rows.size()), c.pg);
}

}  // namespace

Response leaks(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"group", "by", "from", "to", "limit", "offset", MT_FILTER_PARAMS});
    Common c = common(db, p, run_id, true);
    // Whole-run leaks need only survivors; a range needs death_sites.
    bool available = c.support.recorded && (c.support.per_site || c.r.whole);
    std::unordered_map<int64_t, Row> groups;
    int64_t alive_count = 0, alive_bytes = 0;
    if (available) {
        for (const auto &a : alive_at_end(db, c.run, c.r, c.support, c.filter.threads)) {
            if (!c.kept(a.class_id, a.stack_id)) continue;
            Row &g = groups[c.g.key(a.class_id, a.stack_id)];
            g.key = c.g.key(a.class_id, a.stack_id);
            g.count += a.count;
            g.gc_bytes += a.gc_bytes;
            g.oldest_seq = std::min(g.oldest_seq, a.oldest_seq);
            g.frames = std::max(g.frames, a.frames);
            if (c.g.group != "class") g.class_bytes[a.class_id] += a.gc_bytes;
            alive_count += a.count;
            alive_bytes += a.gc_bytes;
        }
        // Everything the group allocated in the range, not only its stacks with objects alive.
        for (const auto &cs : filtered_class_stacks(db, c.run, c.r, c.filter)) {
            if (!c.kept(cs.class_id, cs.stack_id)) continue;
            if (auto it = groups.find(c.g.key(cs.class_id, cs.stack_id)); it != groups.end())
                it->second.allocated += cs.t.count;
        }
    }
    auto rows = sorted(groups, c.by);
    Json j;
    write_head(j, c, available);
    j.obj("totals").kv("count", alive_count).kv("gc_bytes", alive_bytes).end_obj();
    write_rows(j, db, c, rows, true);
    j.end_obj();
    return ok(j);
}

Response temporaries(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"group", "by", "from", "to", "limit", "offset", "within", MT_FILTER_PARAMS});
    Common c = common(db, p, run_id, false);
    int64_t within = p.integer("within", 1, 0, 1000000);
    bool available = c.support.recorded && c.support.per_site;
    std::unordered_map<int64_t, Row> groups;
    int64_t temp_count = 0, temp_bytes = 0, alloc_count = 0;
    if (available) {
        for (const auto &t : temporaries_in(db, c.run, c.r, within, c.support)) {
            if (!c.kept(t.class_id, t.stack_id, t.thread_id)) continue;
            Row &g = groups[c.g.key(t.class_id, t.stack_id)];
            g.key = c.g.key(t.class_id, t.stack_id);
            g.count += t.count;
            g.gc_bytes += t.gc_bytes;
            if (c.g.group != "class") g.class_bytes[t.class_id] += t.gc_bytes;
            temp_count += t.count;
            temp_bytes += t.gc_bytes;
        }
        for (const auto &cs : filtered_class_stacks(db, c.run, c.r, c.filter)) {
            if (!c.kept(cs.class_id, cs.stack_id)) continue;
            alloc_count += cs.t.count;
            auto it = groups.find(c.g.key(cs.class_id, cs.stack_id));
            if (it != groups.end()) it->second.allocated += cs.t.count;
        }
    }
    auto rows = sorted(groups, c.by);
    Json j;
    write_head(j, c, available);
    j.kv("within", within).obj("totals").kv("count", temp_count).kv("gc_bytes", temp_bytes);
    j.kv("allocated", alloc_count).end_obj();
    write_rows(j, db, c, rows, false);
    j.end_obj();
    return ok(j);
}

}  // namespace mt::viewer
