// render_flame.cpp — the call-tree results (memtracer/viewer/results.h) as their endpoints'
// bytes: the flame graph's nested JSON, flamegraph.pl's folded text, speedscope's file.
#include "filter.h"
#include "memtracer/json.h"
#include "model.h"

namespace mt::viewer {

namespace {
void write_node(Json &j, const FlameNode &n) {
    j.obj().kv("name", n.name).kv("value", n.value);
    if (n.is_class) j.kv("class", true);
    if (!n.location.empty()) j.kv("location", n.location);
    if (n.children) {
        j.arr("children");
        for (const FlameNode &k : *n.children) write_node(j, k);
        j.end_arr();
    }
    j.end_obj();
}
}  // namespace

std::string render_flame(const FlameResult &r) {
    Json j;
    j.obj().kv("run_id", r.run_id).obj("range").kv("from", r.range.from).kv("to", r.range.to);
    j.kv("whole", r.range.whole).end_obj();
    write_filter(j, r.filter);
    j.kv("inverted", r.inverted).kv("frames", r.csharp_only ? "csharp" : "all");
    j.kv("by", metric_name(r.by)).kv("min_value", r.min_value);
    j.kv("nodes", r.nodes).key("root");
    write_node(j, r.root);
    j.kv("truncated", r.truncated).end_obj();
    return j.take();
}

std::string render_collapsed(const CollapsedResult &r) {
    std::string body;
    for (const auto &[l, v] : r.lines) body += l + " " + std::to_string(v) + "\n";
    return body;
}

std::string render_speedscope(const SpeedscopeResult &r) {
    Json j;
    j.obj().kv("$schema", "https://www.speedscope.app/file-format-schema.json").kv("exporter", "memtracer-viewer");
    std::string name = "run " + std::to_string(r.run_id) + " " + std::string(metric_name(r.by));
    j.kv("name", name).kv("activeProfileIndex", 0).obj("shared").arr("frames");
    for (const SpeedscopeFrame &f : r.frames) {
        const std::string &loc = f.location;
        j.obj().kv("name", f.name);
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
    j.kv("unit", r.by == Metric::Count ? "none" : "bytes").kv("startValue", 0).kv("endValue", r.total).arr("samples");
    for (const auto &s : r.samples) {
        j.arr();
        for (int64_t k : s) j.val(k);
        j.end_arr();
    }
    j.end_arr().arr("weights");
    for (int64_t w : r.weights) j.val(w);
    j.end_arr().end_obj().end_arr().end_obj();
    return j.take();
}

}  // namespace mt::viewer
