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
#include "spec.h"
#include "stacks.h"

namespace mt::viewer {

namespace {

using LMetric = LifetimeMetric;

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
    Group group = Group::Class;
    std::unordered_map<int64_t, int64_t> stack_site;
    int64_t key(int64_t class_id, int64_t stack_id) const {
        if (group == Group::Class) return class_id;
        if (group == Group::Stack) return stack_id;
        auto it = stack_site.find(stack_id);
        return it == stack_site.end() ? kNoSite : it->second;
    }
};

Grouping grouping(Group group, Database &db, int64_t run) {
    Grouping g;
    g.group = group;
    if (g.group == Group::Site) g.stack_site = load_stack_sites(db, run);
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

// The group's identity: a class, a site, or a stack with its site and frames.
void fill_key(LifetimeEntry &e, Database &db, int64_t run, Group group, const std::unordered_map<int64_t, SiteInfo> &sites) {
    if (group == Group::Class) {
        e.cls = find_class(db, run, e.key);
    } else if (group == Group::Site) {
        if (auto it = sites.find(e.key); it != sites.end() && e.key != kNoSite) e.site = it->second;
    } else {
        e.site = find_stack_site(db, run, e.key);
        e.stack_frames = resolve_stack(db, run, e.key);
    }
}

// The class holding most bytes of a site or stack (what the row is mostly made of).
std::optional<MainClass> main_class(Database &db, int64_t run, const Row &r) {
    if (r.class_bytes.empty()) return std::nullopt;
    auto best = std::max_element(r.class_bytes.begin(), r.class_bytes.end(), [](auto &a, auto &b) {
        return a.second != b.second ? a.second < b.second : a.first > b.first;
    });
    return MainClass{best->first, find_class(db, run, best->first), best->second,
                     static_cast<int64_t>(r.class_bytes.size())};
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
    Filter filter{};
    // The (class, stack) pairs the filter keeps, from run_class_stack: lifetimes are kept per
    // (class, stack), so filtering them is filtering these pairs. Unused when the filter is inactive.
    std::unordered_set<std::pair<int64_t, int64_t>, PairKeyHash> keep{};
    // `thread`: the allocating thread of a lifetimes row; rows already filtered by thread pass none.
    bool kept(int64_t class_id, int64_t stack_id, std::optional<int64_t> thread = std::nullopt) const {
        return !filter.active() || (keep.count({class_id, stack_id}) > 0 && (!thread || filter.keeps_thread(*thread)));
    }
};

Common common(Database &db, const LifetimeQuery &q) {
    SpecParams sp(q.range, q.filter, q.page);
    Scope sc = open_scope(db, q.run, sp);
    Common c{std::move(sc.run), sc.range, q.by, checked_page(sp, 50, 1000), {}, {}};
    if (!q.leaks && q.by == LMetric::Frames) lifetime_metric_of("frames", false);  // the endpoint's 400 for by=frames
    c.g = grouping(q.group, db, q.run);
    c.support = lifetime_support(db, q.run);
    c.filter = std::move(sc.filter);
    if (c.filter.active())
        for (const auto &cs : filtered_class_stacks(db, c.run, Range{0, c.run.frames - 1, true}, c.filter))
            c.keep.emplace(cs.class_id, cs.stack_id);
    return c;
}

LifetimeResult head(const Common &c, bool leaks, bool available) {
    LifetimeResult res;
    res.run_id = c.run.id, res.leaks = leaks, res.range = c.r, res.by = c.by, res.group = c.g.group;
    res.available = available;
    if (!available) res.note = c.support.why;
    res.filter = c.filter;
    res.page = c.pg;
    return res;
}

void rows_into(LifetimeResult &res, Database &db, const Common &c, const std::vector<Row> &rows) {
    std::unordered_map<int64_t, SiteInfo> sites;
    if (c.g.group == Group::Site) sites = load_sites(db, c.run.id);
    int64_t total = 0;
    for (const auto &r : rows) total += r.get(c.by);
    res.total = static_cast<int64_t>(rows.size());
    for (int64_t i = c.pg.offset; i < res.total && i < c.pg.offset + c.pg.limit; ++i) {
        const Row &r = rows[static_cast<size_t>(i)];
        LifetimeEntry e;
        e.rank = i + 1, e.key = r.key;
        fill_key(e, db, c.run.id, c.g.group, sites);
        e.count = r.count, e.gc_bytes = r.gc_bytes, e.allocated = r.allocated;
        e.share = total > 0 ? static_cast<double>(r.get(c.by)) / static_cast<double>(total) : 0.0;
        if (res.leaks) e.oldest_seq = r.oldest_seq, e.age_frames = c.r.to - r.oldest_seq, e.frames = r.frames;
        if (c.g.group != Group::Class) e.main_class = main_class(db, c.run.id, r);
        res.entries.push_back(std::move(e));
    }
}

LifetimeResult leaks_of(Database &db, const Common &c) {
    // Whole-run leaks need only survivors; a range needs death_sites.
    bool available = c.support.recorded && (c.support.per_site || c.r.whole);
    LifetimeResult res = head(c, true, available);
    std::unordered_map<int64_t, Row> groups;
    if (available) {
        for (const auto &a : alive_at_end(db, c.run, c.r, c.support, c.filter.threads)) {
            if (!c.kept(a.class_id, a.stack_id)) continue;
            Row &g = groups[c.g.key(a.class_id, a.stack_id)];
            g.key = c.g.key(a.class_id, a.stack_id);
            g.count += a.count;
            g.gc_bytes += a.gc_bytes;
            g.oldest_seq = std::min(g.oldest_seq, a.oldest_seq);
            g.frames = std::max(g.frames, a.frames);
            if (c.g.group != Group::Class) g.class_bytes[a.class_id] += a.gc_bytes;
            res.count += a.count;
            res.gc_bytes += a.gc_bytes;
        }
        // Everything the group allocated in the range, not only its stacks with objects alive.
        for (const auto &cs : filtered_class_stacks(db, c.run, c.r, c.filter)) {
            if (!c.kept(cs.class_id, cs.stack_id)) continue;
            if (auto it = groups.find(c.g.key(cs.class_id, cs.stack_id)); it != groups.end())
                it->second.allocated += cs.t.count;
        }
    }
    rows_into(res, db, c, sorted(groups, c.by));
    return res;
}

LifetimeResult temporaries_of(Database &db, const Common &c, int64_t within) {
    bool available = c.support.recorded && c.support.per_site;
    LifetimeResult res = head(c, false, available);
    res.within = within;
    std::unordered_map<int64_t, Row> groups;
    if (available) {
        for (const auto &t : temporaries_in(db, c.run, c.r, within)) {
            if (!c.kept(t.class_id, t.stack_id, t.thread_id)) continue;
            Row &g = groups[c.g.key(t.class_id, t.stack_id)];
            g.key = c.g.key(t.class_id, t.stack_id);
            g.count += t.count;
            g.gc_bytes += t.gc_bytes;
            if (c.g.group != Group::Class) g.class_bytes[t.class_id] += t.gc_bytes;
            res.count += t.count;
            res.gc_bytes += t.gc_bytes;
        }
        for (const auto &cs : filtered_class_stacks(db, c.run, c.r, c.filter)) {
            if (!c.kept(cs.class_id, cs.stack_id)) continue;
            res.allocated += cs.t.count;
            auto it = groups.find(c.g.key(cs.class_id, cs.stack_id));
            if (it != groups.end()) it->second.allocated += cs.t.count;
        }
    }
    rows_into(res, db, c, sorted(groups, c.by));
    return res;
}

// by, group, page and within as the endpoint reads them (before the run: its order of 400s).
LifetimeQuery lifetime_query(const Params &p, int64_t run, bool leaks) {
    LifetimeQuery q;
    q.run = run;
    q.leaks = leaks;
    q.page = page_params(p, 50, 1000);
    q.by = lifetime_metric_param(p, leaks);
    q.group = group_param(p);
    q.range = range_spec(p);
    q.filter = filter_spec(p);
    if (!leaks) q.within = p.integer("within", 1, 0, 1000000);
    return q;
}

}  // namespace

LifetimeResult compute_lifetimes(Database &db, const LifetimeQuery &q) {
    if (!q.leaks) parse_int(std::to_string(q.within), 0, 1000000, "within");  // the endpoint's check
    Common c = common(db, q);
    return q.leaks ? leaks_of(db, c) : temporaries_of(db, c, q.within);
}

Response leaks(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"group", "by", "from", "to", "limit", "offset", MT_FILTER_PARAMS});
    return Response{200, render_lifetimes(compute_lifetimes(db, lifetime_query(p, run_id, true))), "application/json", ""};
}

Response temporaries(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"group", "by", "from", "to", "limit", "offset", "within", MT_FILTER_PARAMS});
    return Response{200, render_lifetimes(compute_lifetimes(db, lifetime_query(p, run_id, false))), "application/json", ""};
}

}  // namespace mt::viewer
