// ep_compare.cpp — two runs, or two frame ranges of one run, per class or per allocation site:
// deltas, new and vanished entries, biggest growth first. Runs have their own class and site
// ids, so entries are matched by name: classes by full_name, sites by function/file/line within
// one build and by function alone across builds (a rebuild moves lines, not names).
#include <algorithm>
#include <map>
#include <unordered_map>

#include "endpoints.h"
#include "filter.h"
#include "model.h"

namespace mt::viewer {

namespace {
struct Side {
    RunRow run;
    Range range;
    int64_t game_frames = 0;  // per-frame figures divide by these (model.h)
    Filter filter;
    Totals total;
};

struct Entry {
    std::string label;  // the matching key's display
    ClassInfo cls;      // group=class
    SiteInfo site;      // group=site
    Totals a, b;
    bool in_a = false, in_b = false;
};

using Entries = std::map<std::string, Entry>;  // ordered: deterministic output on ties

void collect(Database &db, Side &side, bool is_b, bool by_class, bool site_full_key, Entries &out) {
    auto rows = filtered_class_stacks(db, side.run, side.range, side.filter);
    auto classes = by_class ? load_classes(db, side.run.id) : decltype(load_classes(db, 0)){};
    auto stack_site = by_class ? decltype(load_stack_sites(db, 0)){} : load_stack_sites(db, side.run.id);
    auto sites = by_class ? decltype(load_sites(db, 0)){} : load_sites(db, side.run.id);
    for (const auto &cs : rows) {
        side.total.add(cs.t);
        std::string key;
        Entry proto;
        if (by_class) {
            auto it = classes.find(cs.class_id);
            proto.cls = it != classes.end() ? it->second
                                            : ClassInfo{"<class " + std::to_string(cs.class_id) + ">", "", "", 0, 0};
            if (proto.cls.full_name.empty()) proto.cls.full_name = proto.cls.name;
            key = proto.cls.full_name;
        } else {
            auto ss = stack_site.find(cs.stack_id);
            auto si = ss == stack_site.end() ? sites.end() : sites.find(ss->second);
            proto.site = si != sites.end() ? si->second : SiteInfo{kNoSite, "(no game code)", "", 0};
            key = proto.site.function;
            if (site_full_key) key += '\x1f' + proto.site.file + '\x1f' + std::to_string(proto.site.line);
        }
        auto [it, fresh] = out.try_emplace(key, proto);
        if (fresh) it->second.label = key;
        // Matched by function alone across builds: show where the newer build (b) allocates.
        if (!by_class && is_b && !it->second.in_b) it->second.site = proto.site;
        if (is_b) {
            it->second.b.add(cs.t);
            it->second.in_b = true;
        } else {
            it->second.a.add(cs.t);
            it->second.in_a = true;
        }
    }
}

std::string_view status(const Entry &e) {
    if (!e.in_a) return "new";
    if (!e.in_b) return "vanished";
    if (e.a.count == e.b.count && e.a.requested_bytes == e.b.requested_bytes && e.a.gc_bytes == e.b.gc_bytes)
        return "same";
    return "changed";
}

void write_side(Json &j, std::string_view name, const Side &s) {
    j.obj(name).kv("run_id", s.run.id).kv("from", s.range.from).kv("to", s.range.to);
    j.kv("frames", s.range.size()).kv("game_frames", s.game_frames).kv("build_id", s.run.build_id).obj("totals");
    write_totals(j, s.total);
    j.end_obj().end_obj();
}

void write_delta(Json &j, const Totals &a, const Totals &b) {
    j.obj("delta").kv("count", b.count - a.count).kv("requested_bytes", b.requested_bytes - a.requested_bytes);
    j.kv("gc_bytes", b.gc_bytes - a.gc_bytes).end_obj();
}
}  // namespace

Response compare(Database &db, const Request &req) {
    Params p(req, {"a", "b", "a_from", "a_to", "b_from", "b_to", "group", "by", "match", "normalize", "only",
                   "limit", "offset", MT_FILTER_PARAMS});
    auto need = [&](const char *name) {
        auto v = p.get(name);
        if (!v) throw ApiError{400, std::string("missing parameter ") + name + " (a run id)", name};
        return parse_id(*v, name);
    };
    Side a, b;
    a.run = load_run(db, need("a"));
    b.run = load_run(db, need("b"));
    a.range = frame_range(p, a.run, "a_from", "a_to");
    b.range = frame_range(p, b.run, "b_from", "b_to");
    a.game_frames = game_frames(db, a.run, a.range);
    b.game_frames = game_frames(db, b.run, b.range);
    a.filter = parse_filter(p, db, a.run);
    b.filter = parse_filter(p, db, b.run);
    bool by_class = p.choice("group", {"class", "site"}, "class") == "class";
    auto by = metric_param(p);
    bool same_build = !a.run.build_id.empty() && a.run.build_id == b.run.build_id;
    auto match = p.choice("match", {"auto", "function", "location"}, "auto");
    bool full_key = match == "location" || (match == "auto" && same_build);
    bool per_frame = p.choice("normalize", {"none", "per_frame"}, "none") == "per_frame";
    auto only = p.choice("only", {"all", "new", "vanished", "changed", "grown", "shrunk"}, "all");
    auto pg = page_params(p, 50, 1000);

    Entries entries;
    collect(db, a, false, by_class, full_key, entries);
    collect(db, b, true, by_class, full_key, entries);

    // Growth in the chosen metric; per game frame when the two sides have different lengths.
    double fa = per_frame ? std::max<int64_t>(1, a.game_frames) : 1, fb = per_frame ? std::max<int64_t>(1, b.game_frames) : 1;
    auto growth = [&](const Entry &e) { return e.b.get(by) / fb - e.a.get(by) / fa; };
    std::vector<const Entry *> order;
    int64_t n_new = 0, n_gone = 0, n_changed = 0, n_same = 0;
    for (const auto &[_, e] : entries) {
        auto st = status(e);
        n_new += st == "new";
        n_gone += st == "vanished";
        n_changed += st == "changed";
        n_same += st == "same";
        double g = growth(e);
        bool keep = only == "all" || only == st || (only == "grown" && g > 0) || (only == "shrunk" && g < 0);
        if (keep) order.push_back(&e);
    }
    std::stable_sort(order.begin(), order.end(), [&](auto *x, auto *y) { return growth(*x) > growth(*y); });

    Json j;
    j.obj().kv("group", by_class ? "class" : "site").kv("by", metric_name(by));
    j.kv("match", by_class ? "full_name" : full_key ? "function_file_line" : "function");
    j.kv("normalize", per_frame ? "per_frame" : "none");
    write_filter(j, a.filter);
    write_side(j, "a", a);
    write_side(j, "b", b);
    write_delta(j, a.total, b.total);
    j.obj("counts").kv("new", n_new).kv("vanished", n_gone).kv("changed", n_changed).kv("same", n_same).end_obj();
    j.arr("entries");
    for (int64_t i = pg.offset; i < static_cast<int64_t>(order.size()) && i < pg.offset + pg.limit; ++i) {
        const Entry &e = *order[static_cast<size_t>(i)];
        j.obj().kv("status", status(e));
        if (by_class) {
            j.kv("full_name", e.cls.full_name).kv("name", e.cls.name).kv("namespace", e.cls.ns);
        } else {
            j.kv("function", e.site.function).kv("file", e.site.file).kv("line", e.site.line);
        }
        j.obj("a");
        write_totals(j, e.a);
        j.end_obj().obj("b");
        write_totals(j, e.b);
        j.end_obj();
        write_delta(j, e.a, e.b);
        j.kv("growth", growth(e));
        j.end_obj();
    }
    j.end_arr();
    write_page(j, static_cast<int64_t>(order.size()), pg);
    j.end_obj();
    return ok(j);
}

}  // namespace mt::viewer
