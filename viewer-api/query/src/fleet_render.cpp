// fleet_render.cpp — the cross-run answers as JSON (/api/trend, /api/fleet/*), and the
// differential flame graph as collapsed stacks and speedscope.
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "memtracer/json.h"
#include "memtracer/viewer/fleet.h"

namespace mt::viewer {

namespace {

void write_totals(Json &j, const char *key, const Totals &t) {
    j.obj(key).kv("count", t.count).kv("requested_bytes", t.requested_bytes).kv("gc_bytes", t.gc_bytes).end_obj();
}

void write_labels(Json &j, const LabelFilter &f) {
    j.obj("filter").kv("project", f.project).kv("platform", f.platform).kv("device", f.device).end_obj();
}

const char *what_name(Selection::What w) {
    return w == Selection::What::Class ? "class" : w == Selection::What::Site ? "site" : "total";
}

}  // namespace

std::string render_trend(const TrendResult &r) {
    Json j;
    j.obj().kv("what", what_name(r.q.sel.what)).kv("name", r.q.sel.name);
    j.kv("per", r.q.per == TrendQuery::Per::Build ? "build" : "night").kv("builds", r.q.builds.text());
    write_labels(j, r.q.labels);
    j.arr("points");
    for (const TrendPoint &p : r.points) {
        j.obj().kv("key", p.key).kv("first_night", p.first_night).kv("runs", p.runs).kv("frames", p.frames);
        write_totals(j, "totals", p.t);
        j.key("bytes_per_frame").val(p.bytes_per_frame(), 3).end_obj();
    }
    j.end_arr().end_obj();
    return j.take();
}

std::string render_fleet_top(const FleetTopResult &r) {
    Json j;
    j.obj().kv("group", group_name(r.q.group)).kv("by", metric_name(r.q.by)).kv("builds", r.q.builds.text());
    write_labels(j, r.q.labels);
    j.kv("runs", r.runs).kv("frames", r.frames);
    write_totals(j, "totals", r.totals);
    j.kv("total", r.total).arr("entries");
    for (const FleetTopEntry &e : r.entries) {
        j.obj().kv("rank", e.rank).kv("key", e.key);
        write_totals(j, "totals", e.t);
        j.key("share").val(e.share, 6).key("per_frame").val(e.per_frame, 3).end_obj();
    }
    j.end_arr().end_obj();
    return j.take();
}

std::string render_growth(const GrowthResult &r) {
    Json j;
    j.obj().kv("group", group_name(r.q.group)).kv("by", metric_name(r.q.by));
    write_labels(j, r.q.labels);
    j.obj("a").kv("builds", r.q.a.text()).kv("runs", r.a_runs).kv("frames", r.a_frames).end_obj();
    j.obj("b").kv("builds", r.q.b.text()).kv("runs", r.b_runs).kv("frames", r.b_frames).end_obj();
    j.kv("total", r.total).arr("entries");
    for (const GrowthEntry &e : r.entries) {
        j.obj().kv("key", e.key);
        write_totals(j, "a", e.a);
        write_totals(j, "b", e.b);
        j.key("a_per_frame").val(e.a_per_frame, 3).key("b_per_frame").val(e.b_per_frame, 3);
        j.key("delta_per_frame").val(e.delta, 3).key("change_pct").val(e.change_pct, 2).end_obj();  // new: null
    }
    j.end_arr().end_obj();
    return j.take();
}

namespace {
void write_node(Json &j, const DiffNode &n) {
    j.obj().kv("name", n.name).key("value").val(n.after, 3).key("before").val(n.before, 3);
    j.key("delta").val(n.after - n.before, 3);
    if (!n.children.empty()) {
        j.arr("children");
        for (const DiffNode &c : n.children) write_node(j, c);
        j.end_arr();
    }
    j.end_obj();
}

// Leaves' own amounts (a node's minus its children's), outermost first, as flame graph tools
// take them; `fn(path, before, after)`.
void walk_self(const DiffNode &n, std::vector<std::string> &path,
               const std::function<void(const std::vector<std::string> &, double, double)> &fn) {
    double b = n.before, a = n.after;
    for (const DiffNode &c : n.children) b -= c.before, a -= c.after;
    if (!path.empty() && (std::fabs(b) > 1e-9 || std::fabs(a) > 1e-9)) fn(path, b, a);
    for (const DiffNode &c : n.children) {
        path.push_back(c.name);
        walk_self(c, path, fn);
        path.pop_back();
    }
}
}  // namespace

std::string render_diff_flame(const DiffFlameResult &r) {
    Json j;
    j.obj().kv("by", metric_name(r.q.by));
    write_labels(j, r.q.labels);
    j.obj("a").kv("builds", r.q.a.text()).kv("runs", r.a_runs).end_obj();
    j.obj("b").kv("builds", r.q.b.text()).kv("runs", r.b_runs).end_obj();
    j.key("root");
    write_node(j, r.root);
    j.end_obj();
    return j.take();
}

std::string render_diff_collapsed(const DiffFlameResult &r) {
    // Brendan Gregg's difffolded form: "frame;frame;frame BEFORE AFTER" (flamegraph.pl draws it
    // red for growth, blue for shrink); amounts rounded to whole units per run.
    std::string out;
    std::vector<std::string> path;
    walk_self(r.root, path, [&](const std::vector<std::string> &p, double b, double a) {
        for (size_t i = 0; i < p.size(); ++i) {
            if (i) out += ';';
            for (char c : p[i]) out += (c == ';' || c == '\n') ? ':' : c;
        }
        out += ' ' + std::to_string(std::llround(b)) + ' ' + std::to_string(std::llround(a)) + '\n';
    });
    return out;
}

std::string render_diff_speedscope(const DiffFlameResult &r) {
    // Two sampled profiles over one frame table: B (the new side, what a flame graph's widths
    // show) first, then A; speedscope switches between them.
    std::map<std::string, int64_t> frame_ids;
    std::vector<std::string> frame_names;
    struct Sample {
        std::vector<int64_t> stack;
        double before, after;
    };
    std::vector<Sample> samples;
    std::vector<std::string> path;
    walk_self(r.root, path, [&](const std::vector<std::string> &p, double b, double a) {
        Sample s{{}, b, a};
        for (const std::string &f : p) {
            auto [it, fresh] = frame_ids.emplace(f, static_cast<int64_t>(frame_names.size()));
            if (fresh) frame_names.push_back(f);
            s.stack.push_back(it->second);
        }
        samples.push_back(std::move(s));
    });
    Json j;
    j.obj().kv("$schema", "https://www.speedscope.app/file-format-schema.json");
    j.kv("name", "MemTracer diff " + r.q.a.text() + " -> " + r.q.b.text()).kv("activeProfileIndex", 0);
    j.obj("shared").arr("frames");
    for (const std::string &f : frame_names) j.obj().kv("name", f).end_obj();
    j.end_arr().end_obj().arr("profiles");
    for (int side = 0; side < 2; ++side) {
        double total = 0;
        for (const Sample &s : samples) total += side == 0 ? std::max(0.0, s.after) : std::max(0.0, s.before);
        j.obj().kv("type", "sampled").kv("name", side == 0 ? "b " + r.q.b.text() + " (new)" : "a " + r.q.a.text() + " (base)");
        j.kv("unit", r.q.by == Metric::Count ? "none" : "bytes").kv("startValue", 0).kv("endValue", std::llround(total));
        j.arr("samples");
        for (const Sample &s : samples) {
            j.arr();
            for (int64_t f : s.stack) j.val(f);
            j.end_arr();
        }
        j.end_arr().arr("weights");
        for (const Sample &s : samples) j.val(std::llround(std::max(0.0, side == 0 ? s.after : s.before)));
        j.end_arr().end_obj();
    }
    j.end_arr().end_obj();
    return j.take();
}

}  // namespace mt::viewer
