// ep_flame.cpp — bytes (or counts) by call tree over a frame range: compute for the page's
// flame graph (a nested tree), collapsed-stack text for flamegraph.pl and speedscope's file, and
// their endpoints; render_flame.cpp writes them.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "spec.h"
#include "stacks.h"

namespace mt::viewer {

namespace {
struct Weighted {
    const std::vector<PathFrame> *path;  // outermost first
    const std::string *cls;
    int64_t value;
};

struct Input {
    RunRow run;
    Range range;
    Filter filter;
    Metric by;
    bool csharp_only = false;
    std::unordered_map<int64_t, std::vector<PathFrame>> paths;
    std::unordered_map<int64_t, std::string> class_names;
    std::vector<Weighted> rows;
};

void load(Database &db, const StacksQuery &q, Input &in) {
    in.by = q.by;
    SpecParams sp(q.range, q.filter);
    Scope sc = open_scope(db, q.run, sp);
    in.run = sc.run;
    in.range = sc.range;
    in.filter = sc.filter;
    in.csharp_only = q.csharp_only;
    in.paths = stack_paths_located(db, in.run.id, in.csharp_only);
    for (auto &[id, c] : load_classes(db, in.run.id)) in.class_names[id] = c.full_name.empty() ? c.name : c.full_name;
    static const std::vector<PathFrame> kNoFrames;
    for (const auto &cs : filtered_class_stacks(db, in.run, in.range, in.filter)) {
        int64_t v = cs.t.get(in.by);
        if (v <= 0) continue;
        auto pit = in.paths.find(cs.stack_id);
        auto cit = in.class_names.find(cs.class_id);
        if (cit == in.class_names.end())
            cit = in.class_names.emplace(cs.class_id, "<class " + std::to_string(cs.class_id) + ">").first;
        in.rows.push_back({pit == in.paths.end() ? &kNoFrames : &pit->second, &cit->second, v});
    }
}

struct Node {
    std::string name;
    int64_t value = 0;
    bool is_class = false;
    std::unordered_map<std::string, size_t> kids;
    std::string location;  // of the heaviest stack through this node
    int64_t best = 0;
};

size_t child(std::vector<Node> &t, size_t parent, const std::string &name, bool is_class) {
    auto it = t[parent].kids.find(name);
    if (it != t[parent].kids.end()) return it->second;
    t.push_back({name, 0, is_class, {}, "", 0});
    t[parent].kids.emplace(name, t.size() - 1);
    return t.size() - 1;
}

void add(Node &n, int64_t value, const std::string &location) {
    n.value += value;
    if (value > n.best && !location.empty()) n.best = value, n.location = location;
}

// One weighted row into the tree: outermost frame first, the class last; inverted, the class
// first and then the frames innermost first (who allocates it, who called that, ...).
void insert(std::vector<Node> &t, const Weighted &w, bool classes, bool invert) {
    size_t n = 0;
    t[0].value += w.value;
    if (classes && invert) {
        n = child(t, n, *w.cls, true);
        t[n].value += w.value;
    }
    auto step = [&](const PathFrame &f) {
        n = child(t, n, f.name, false);
        add(t[n], w.value, f.location);
    };
    if (invert)
        std::for_each(w.path->rbegin(), w.path->rend(), step);
    else
        std::for_each(w.path->begin(), w.path->end(), step);
    if (classes && !invert) {
        n = child(t, n, *w.cls, true);
        t[n].value += w.value;
    }
}

// The tree as written: children at or over min_value, heaviest first, until `budget` nodes.
FlameNode written(const std::vector<Node> &t, size_t n, int64_t min_value, int64_t &budget) {
    --budget;
    FlameNode out{t[n].name, t[n].value, t[n].is_class, t[n].location, std::nullopt};
    std::vector<size_t> kids;
    for (auto &[_, k] : t[n].kids)
        if (t[k].value >= min_value) kids.push_back(k);
    std::sort(kids.begin(), kids.end(), [&](size_t a, size_t b) {
        return t[a].value != t[b].value ? t[a].value > t[b].value : t[a].name < t[b].name;
    });
    if (!kids.empty()) {
        out.children.emplace();
        for (size_t k : kids)
            if (budget > 0) out.children->push_back(written(t, k, min_value, budget));
    }
    return out;
}

// Reads the options the three views share, in the endpoints' order.
StacksQuery stacks_query(const Params &p, int64_t run_id) {
    StacksQuery q;
    q.run = run_id;
    q.classes = p.flag("classes", true);
    q.by = metric_param(p);
    q.range = range_spec(p);
    q.filter = filter_spec(p);
    q.csharp_only = p.choice("frames", {"all", "csharp"}, "all") == "csharp";
    return q;
}
}  // namespace

FlameResult compute_flame(Database &db, const FlameQuery &q) {
    Input in;
    load(db, q, in);
    std::vector<Node> t{{"all", 0, false, {}, "", 0}};
    for (const auto &w : in.rows) insert(t, w, q.classes, q.invert);
    FlameResult res;
    res.run_id = in.run.id;
    res.range = in.range;
    res.filter = in.filter;
    res.inverted = q.invert;
    res.csharp_only = in.csharp_only;
    res.by = in.by;
    // Nodes under min_share of the total are left out; their parent's value still counts them,
    // so a renderer shows the gap as the parent's own width.
    res.min_value = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(t[0].value) * q.min_share));
    res.nodes = static_cast<int64_t>(t.size());
    int64_t budget = q.max_nodes;
    res.root = written(t, 0, res.min_value, budget);
    res.truncated = budget <= 0;
    return res;
}

Response flame(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", "by", "min_share", "classes", "max_nodes", "invert", "frames", MT_FILTER_PARAMS});
    FlameQuery q;
    q.min_share = p.opt_real("min_share", 0, 1).value_or(0.001);
    q.invert = p.flag("invert", false);
    q.max_nodes = p.integer("max_nodes", 20000, 1, 200000);
    static_cast<StacksQuery &>(q) = stacks_query(p, run_id);
    return Response{200, render_flame(compute_flame(db, q)), "application/json", ""};
}

CollapsedResult compute_collapsed(Database &db, const StacksQuery &q) {
    Input in;
    load(db, q, in);
    // flamegraph.pl splits frames on ';' and the count off the last space.
    auto clean = [](std::string s) {
        for (char &c : s)
            if (c == ';' || c == '\n' || c == '\r') c = ':';
        return s;
    };
    std::map<std::string, int64_t> lines;
    for (const auto &w : in.rows) {
        std::string line;
        for (const auto &f : *w.path) line += (line.empty() ? "" : ";") + clean(f.name);
        if (q.classes) line += (line.empty() ? "" : ";") + clean(*w.cls);
        if (line.empty()) line = "(no frames)";
        lines[line] += w.value;
    }
    return {in.run.id, {lines.begin(), lines.end()}};
}

Response collapsed(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", "by", "classes", "frames", MT_FILTER_PARAMS});
    CollapsedResult r = compute_collapsed(db, stacks_query(p, run_id));
    return {200, render_collapsed(r), "text/plain; charset=utf-8", "run-" + std::to_string(r.run_id) + ".collapsed.txt"};
}

// speedscope's file format (https://www.speedscope.app/file-format-schema.json): one "sampled"
// profile whose samples are the (class, stack) rows, root first, weighted by the metric.
SpeedscopeResult compute_speedscope(Database &db, const StacksQuery &q) {
    Input in;
    load(db, q, in);
    SpeedscopeResult res;
    res.run_id = in.run.id;
    res.by = in.by;
    std::map<std::pair<std::string, std::string>, int64_t> index;  // (name, location) -> frame
    auto frame = [&](const std::string &name, const std::string &loc) {
        auto [it, fresh] = index.try_emplace({name, loc}, static_cast<int64_t>(res.frames.size()));
        if (fresh) res.frames.push_back({name, loc});
        return it->second;
    };
    for (const auto &w : in.rows) {
        auto &s = res.samples.emplace_back();
        for (const auto &f : *w.path) s.push_back(frame(f.name, f.location));
        if (q.classes) s.push_back(frame(*w.cls, ""));
        res.weights.push_back(w.value);
        res.total += w.value;
    }
    return res;
}

Response speedscope(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", "by", "classes", "frames", MT_FILTER_PARAMS});
    SpeedscopeResult r = compute_speedscope(db, stacks_query(p, run_id));
    return {200, render_speedscope(r), "application/json", "run-" + std::to_string(r.run_id) + ".speedscope.json"};
}

}  // namespace mt::viewer
