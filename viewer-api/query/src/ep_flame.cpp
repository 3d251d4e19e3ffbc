// ep_flame.cpp — bytes (or counts) by call tree over a frame range: a nested tree for the
// page's flame graph, and the same as collapsed-stack text for flamegraph.pl / speedscope.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
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

void load(Database &db, const Params &p, int64_t run_id, Input &in) {
    in.by = metric_param(p);
    in.run = load_run(db, run_id);
    in.range = frame_range(p, in.run);
    in.filter = parse_filter(p, db, in.run);
    in.csharp_only = p.choice("frames", {"all", "csharp"}, "all") == "csharp";
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

void write_node(Json &j, const std::vector<Node> &t, size_t n, int64_t min_value, int64_t &budget) {
    --budget;
    j.obj().kv("name", t[n].name).kv("value", t[n].value);
    if (t[n].is_class) j.kv("class", true);
    if (!t[n].location.empty()) j.kv("location", t[n].location);
    std::vector<size_t> kids;
    for (auto &[_, k] : t[n].kids)
        if (t[k].value >= min_value) kids.push_back(k);
    std::sort(kids.begin(), kids.end(), [&](size_t a, size_t b) {
        return t[a].value != t[b].value ? t[a].value > t[b].value : t[a].name < t[b].name;
    });
    if (!kids.empty()) {
        j.arr("children");
        for (size_t k : kids)
            if (budget > 0) write_node(j, t, k, min_value, budget);
        j.end_arr();
    }
    j.end_obj();
}
}  // namespace

Response flame(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", "by", "min_share", "classes", "max_nodes", "invert", "frames", MT_FILTER_PARAMS});
    double min_share = p.opt_real("min_share", 0, 1).value_or(0.001);
    bool classes = p.flag("classes", true);
    bool invert = p.flag("invert", false);
    int64_t max_nodes = p.integer("max_nodes", 20000, 1, 200000);
    Input in;
    load(db, p, run_id, in);
    std::vector<Node> t{{"all", 0, false, {}, "", 0}};
    for (const auto &w : in.rows) insert(t, w, classes, invert);
    // Nodes under min_share of the total are left out; their parent's value still counts them,
    // so a renderer shows the gap as the parent's own width.
    int64_t min_value = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(t[0].value) * min_share));
    Json j;
    j.obj().kv("run_id", in.run.id).obj("range").kv("from", in.range.from).kv("to", in.range.to);
    j.kv("whole", in.range.whole).end_obj();
    write_filter(j, in.filter);
    j.kv("inverted", invert).kv("frames", in.csharp_only ? "csharp" : "all");
    j.kv("by", metric_name(in.by)).kv("min_value", min_value);
    j.kv("nodes", static_cast<int64_t>(t.size())).key("root");
    int64_t budget = max_nodes;
    write_node(j, t, 0, min_value, budget);
    j.kv("truncated", budget <= 0).end_obj();
    return ok(j);
}

Response collapsed(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", "by", "classes", "frames", MT_FILTER_PARAMS});
    bool classes = p.flag("classes", true);
    Input in;
    load(db, p, run_id, in);
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
        if (classes) line += (line.empty() ? "" : ";") + clean(*w.cls);
        if (line.empty()) line = "(no frames)";
        lines[line] += w.value;
    }
    std::string body;
    for (const auto &[l, v] : lines) body += l + " " + std::to_string(v) + "\n";
    return {200, std::move(body), "text/plain; charset=utf-8", "run-" + std::to_string(in.run.id) + ".collapsed.txt"};
}

// speedscope's file format (https://www.speedscope.app/file-format-schema.json): one "sampled"
// profile whose samples are the (class, stack) rows, root first, weighted by the metric.
Response speedscope(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", "by", "classes", "frames", MT_FILTER_PARAMS});
    bool classes = p.flag("classes", true);
    Input in;
    load(db, p, run_id, in);
    std::map<std::pair<std::string, std::string>, int64_t> index;  // (name, location) -> frame
    std::vector<const std::pair<const std::pair<std::string, std::string>, int64_t> *> frames;
    auto frame = [&](const std::string &name, const std::string &loc) {
        auto [it, fresh] = index.try_emplace({name, loc}, static_cast<int64_t>(frames.size()));
        if (fresh) frames.push_back(&*it);
        return it->second;
    };
    std::vector<std::vector<int64_t>> samples;
    int64_t total = 0;
    for (const auto &w : in.rows) {
        auto &s = samples.emplace_back();
        for (const auto &f : *w.path) s.push_back(frame(f.name, f.location));
        if (classes) s.push_back(frame(*w.cls, ""));
        total += w.value;
    }
    Json j;
    j.obj().kv("$schema", "https://www.speedscope.app/file-format-schema.json").kv("exporter", "memtracer-viewer");
    std::string name = "run " + std::to_string(in.run.id) + " " + std::string(metric_name(in.by));
    j.kv("name", name).kv("activeProfileIndex", 0).obj("shared").arr("frames");
    for (const auto *f : frames) {
        const auto &[fname, loc] = f->first;
        j.obj().kv("name", fname);
        auto colon = loc.rfind(':');
        if (colon != std::string::npos) {
            j.kv("file", loc.substr(0, colon));
            int64_t line = 0;
            for (char c : loc.substr(colon + 1)) line = c >= '0' && c <= '9' ? line * 10 + (c - '0') : line;
            j.kv("line", line);
        }
        j.end_obj();
    }
    j.end_arr().end_obj().arr("profiles").obj().kv("type", "sampled").kv("name", name);
    j.kv("unit", in.by == Metric::Count ? "none" : "bytes").kv("startValue", 0).kv("endValue", total).arr("samples");
    for (const auto &s : samples) {
        j.arr();
        for (int64_t k : s) j.val(k);
        j.end_arr();
    }
    j.end_arr().arr("weights");
    for (const auto &w : in.rows) j.val(w.value);
    j.end_arr().end_obj().end_arr().end_obj();
    return {200, j.take(), "application/json", "run-" + std::to_string(in.run.id) + ".speedscope.json"};
}

}  // namespace mt::viewer
