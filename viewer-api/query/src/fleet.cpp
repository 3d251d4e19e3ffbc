// fleet.cpp — the cross-run answers' compute (fleet.h), once for every backend: the backend sums,
// this file orders, cuts build ranges, divides per frame and builds the trees.
#include "memtracer/viewer/fleet.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "memtracer/viewer/query.h"

namespace mt::viewer {

std::string fleet_site_key(const std::string &function, const std::string &file) {
    return file.empty() ? function : function + " (" + file + ")";
}

bool fleet_site_matches(const std::string &name, const std::string &function, const std::string &file) {
    return name == function || name == fleet_site_key(function, file);
}

BuildRange BuildRange::parse(std::string_view s) {
    auto dots = s.find("..");
    if (dots == std::string_view::npos) return {std::string(s), std::string(s)};
    BuildRange r{std::string(s.substr(0, dots)), std::string(s.substr(dots + 2))};
    if (r.from.empty() || r.to.empty())
        throw ApiError{400, "build range '" + std::string(s) + "': give FROM..TO, one build, or nothing", "builds"};
    return r;
}

namespace {

// Builds in the order they appeared: first night, then name.
std::vector<std::string> build_order(const std::vector<FleetRun> &runs) {
    std::map<std::string, std::string> first;
    for (const FleetRun &r : runs) {
        auto [it, fresh] = first.emplace(r.build, r.night);
        if (!fresh && r.night < it->second) it->second = r.night;
    }
    std::vector<std::string> out;
    for (auto &[b, _] : first) out.push_back(b);
    std::stable_sort(out.begin(), out.end(), [&](const std::string &a, const std::string &b) {
        return first[a] != first[b] ? first[a] < first[b] : a < b;
    });
    return out;
}

int64_t frames_of(const std::vector<FleetRun> &runs) {
    int64_t f = 0;
    for (const FleetRun &r : runs) f += r.frames;
    return f;
}

double per(int64_t v, int64_t d) { return d ? static_cast<double>(v) / static_cast<double>(d) : 0.0; }

void check_limit(int64_t limit) {
    if (limit < 1 || limit > 1000) throw ApiError{400, "limit must be 1..1000", "limit"};
}

std::map<std::string, Totals> grouped(FleetBackend &b, const std::vector<FleetRun> &runs, Group g) {
    if (g == Group::Stack) throw ApiError{400, "group must be class or site across runs", "group"};
    std::map<std::string, Totals> out;
    if (runs.empty()) return out;
    for (const GroupSum &s : b.group_sums(runs, g)) out[s.key].add(s.t);
    return out;
}

}  // namespace

std::vector<FleetRun> fleet_runs(FleetBackend &b, const LabelFilter &labels, const BuildRange &builds) {
    std::vector<FleetRun> runs = b.runs(labels);
    std::vector<std::string> order = build_order(runs);
    std::map<std::string, size_t> rank;
    for (size_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    std::sort(runs.begin(), runs.end(), [&](const FleetRun &x, const FleetRun &y) {
        return std::tie(rank[x.build], x.night, x.device, x.id) < std::tie(rank[y.build], y.night, y.device, y.id);
    });
    if (builds.all()) return runs;
    auto bound = [&](const std::string &name) {
        auto it = rank.find(name);
        if (it == rank.end()) throw ApiError{400, "no run of build '" + name + "' among the runs asked for", "builds"};
        return it->second;
    };
    size_t lo = bound(builds.from), hi = bound(builds.to);
    if (lo > hi) std::swap(lo, hi);
    std::erase_if(runs, [&](const FleetRun &r) { return rank[r.build] < lo || rank[r.build] > hi; });
    return runs;
}

TrendResult compute_trend(FleetBackend &b, const TrendQuery &q) {
    TrendResult res{q, {}};
    std::vector<FleetRun> runs = fleet_runs(b, q.labels, q.builds);
    if (runs.empty()) return res;
    std::vector<Totals> sums = b.run_sums(runs, q.sel);
    std::map<std::string, TrendPoint> by;
    for (size_t i = 0; i < runs.size(); ++i) {
        const std::string &key = q.per == TrendQuery::Per::Build ? runs[i].build : runs[i].night;
        TrendPoint &p = by[key];
        p.key = key;
        if (p.first_night.empty() || runs[i].night < p.first_night) p.first_night = runs[i].night;
        ++p.runs;
        p.frames += runs[i].frames;
        p.t.add(sums[i]);
    }
    for (auto &[_, p] : by) res.points.push_back(p);
    std::stable_sort(res.points.begin(), res.points.end(), [](const TrendPoint &x, const TrendPoint &y) {
        return x.first_night != y.first_night ? x.first_night < y.first_night : x.key < y.key;
    });
    return res;
}

FleetTopResult compute_fleet_top(FleetBackend &b, const FleetTopQuery &q) {
    check_limit(q.limit);
    FleetTopResult res{q, 0, 0, {}, {}, 0};
    std::vector<FleetRun> runs = fleet_runs(b, q.labels, q.builds);
    res.runs = static_cast<int64_t>(runs.size());
    res.frames = frames_of(runs);
    auto groups = grouped(b, runs, q.group);
    for (auto &[k, t] : groups) {
        res.totals.add(t);
        res.entries.push_back({0, k, t, 0, 0});
    }
    std::stable_sort(res.entries.begin(), res.entries.end(), [&](const FleetTopEntry &x, const FleetTopEntry &y) {
        return x.t.get(q.by) != y.t.get(q.by) ? x.t.get(q.by) > y.t.get(q.by) : x.key < y.key;
    });
    res.total = static_cast<int64_t>(res.entries.size());
    if (res.entries.size() > static_cast<size_t>(q.limit)) res.entries.resize(static_cast<size_t>(q.limit));
    for (size_t i = 0; i < res.entries.size(); ++i) {
        FleetTopEntry &e = res.entries[i];
        e.rank = static_cast<int64_t>(i) + 1;
        e.share = per(e.t.get(q.by), res.totals.get(q.by));
        e.per_frame = per(e.t.get(q.by), res.frames);
    }
    return res;
}

GrowthResult compute_growth(FleetBackend &b, const GrowthQuery &q) {
    check_limit(q.limit);
    if (q.a.all() || q.b.all()) throw ApiError{400, "growth needs two build ranges (a and b)", q.a.all() ? "a" : "b"};
    GrowthResult res{q, 0, 0, 0, 0, {}, 0};
    std::vector<FleetRun> ra = fleet_runs(b, q.labels, q.a), rb = fleet_runs(b, q.labels, q.b);
    res.a_runs = static_cast<int64_t>(ra.size()), res.b_runs = static_cast<int64_t>(rb.size());
    res.a_frames = frames_of(ra), res.b_frames = frames_of(rb);
    auto ga = grouped(b, ra, q.group), gb = grouped(b, rb, q.group);
    std::set<std::string> keys;
    for (auto &[k, _] : ga) keys.insert(k);
    for (auto &[k, _] : gb) keys.insert(k);
    for (const std::string &k : keys) {
        GrowthEntry e;
        e.key = k;
        if (auto it = ga.find(k); it != ga.end()) e.a = it->second;
        if (auto it = gb.find(k); it != gb.end()) e.b = it->second;
        e.a_per_frame = per(e.a.get(q.by), res.a_frames);
        e.b_per_frame = per(e.b.get(q.by), res.b_frames);
        e.delta = e.b_per_frame - e.a_per_frame;
        e.change_pct = e.a_per_frame == 0 ? (e.b_per_frame == 0 ? 0.0 : std::numeric_limits<double>::infinity())
                                          : (e.b_per_frame / e.a_per_frame - 1.0) * 100.0;
        res.entries.push_back(e);
    }
    std::stable_sort(res.entries.begin(), res.entries.end(),
                     [](const GrowthEntry &x, const GrowthEntry &y) { return x.delta > y.delta; });
    res.total = static_cast<int64_t>(res.entries.size());
    if (res.entries.size() > static_cast<size_t>(q.limit)) res.entries.resize(static_cast<size_t>(q.limit));
    return res;
}

namespace {

// Adds one path's amounts (already per run) under `root`.
void add_path(DiffNode &root, const std::vector<std::string> &path, double before, double after) {
    root.before += before, root.after += after;
    DiffNode *n = &root;
    for (const std::string &name : path) {
        auto it = std::find_if(n->children.begin(), n->children.end(), [&](const DiffNode &c) { return c.name == name; });
        if (it == n->children.end()) {
            n->children.push_back({name, 0, 0, {}});
            it = std::prev(n->children.end());
        }
        it->before += before, it->after += after;
        n = &*it;
    }
}

void sort_tree(DiffNode &n) {
    std::sort(n.children.begin(), n.children.end(), [](const DiffNode &x, const DiffNode &y) {
        return x.after != y.after ? x.after > y.after : x.name < y.name;
    });
    for (DiffNode &c : n.children) sort_tree(c);
}

// Each side's paths with their sums; the same path from two stacks is one.
std::map<std::vector<std::string>, int64_t> side_paths(FleetBackend &b, const std::vector<FleetRun> &runs, Metric m) {
    std::map<std::vector<std::string>, int64_t> out;
    if (runs.empty()) return out;
    for (const StackSum &s : b.stack_sums(runs)) out[s.path] += s.t.get(m);
    return out;
}

}  // namespace

DiffFlameResult compute_diff_flame(FleetBackend &b, const DiffFlameQuery &q) {
    if (q.a.all() || q.b.all()) throw ApiError{400, "a differential flame graph needs two sides (a and b)", q.a.all() ? "a" : "b"};
    DiffFlameResult res{q, 0, 0, {"all", 0, 0, {}}};
    std::vector<FleetRun> ra = fleet_runs(b, q.labels, q.a), rb = fleet_runs(b, q.labels, q.b);
    res.a_runs = static_cast<int64_t>(ra.size()), res.b_runs = static_cast<int64_t>(rb.size());
    auto pa = side_paths(b, ra, q.by), pb = side_paths(b, rb, q.by);
    std::set<std::vector<std::string>> paths;
    for (auto &[p, _] : pa) paths.insert(p);
    for (auto &[p, _] : pb) paths.insert(p);
    // Means per run, summed up the tree in the paths' order, so every backend adds the same
    // doubles in the same order.
    for (const auto &p : paths) {
        auto a = pa.find(p), bb = pb.find(p);
        add_path(res.root, p, a == pa.end() ? 0.0 : per(a->second, res.a_runs), bb == pb.end() ? 0.0 : per(bb->second, res.b_runs));
    }
    sort_tree(res.root);
    return res;
}

}  // namespace mt::viewer
