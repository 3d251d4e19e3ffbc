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
#include "spec.h"

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

// The Params the typed query stands for: the two ranges under their own names (a_from, ...) and
// the filter, so compute checks them with the endpoint's own code and 400s.
Request side_request(const CompareQuery &q) {
    Request req;
    auto add = [&](const char *k, const std::optional<std::string> &v) {
        if (v) req.params.emplace_back(k, *v);
    };
    add("a_from", q.a_range.from);
    add("a_to", q.a_range.to);
    add("b_from", q.b_range.from);
    add("b_to", q.b_range.to);
    add("class", q.filter.cls);
    add("function", q.filter.function);
    add("thread", q.filter.thread);
    add("kind", q.filter.kind);
    return req;
}

CompareSide side_result(const Side &s) {
    return {s.run.id, s.range.from, s.range.to, s.range.size(), s.game_frames, s.run.build_id, s.total};
}

bool keeps(CompareOnly only, std::string_view st, double g) {
    switch (only) {
    case CompareOnly::All: return true;
    case CompareOnly::New: return st == "new";
    case CompareOnly::Vanished: return st == "vanished";
    case CompareOnly::Changed: return st == "changed";
    case CompareOnly::Grown: return g > 0;
    case CompareOnly::Shrunk: return g < 0;
    }
    return true;
}
}  // namespace

CompareResult compute_compare(Database &db, const CompareQuery &q) {
    if (q.group == Group::Stack) throw ApiError{400, "group must be one of class, site, got stack", "group"};
    Request req = side_request(q);
    Params p(req, {"a_from", "a_to", "b_from", "b_to", MT_FILTER_PARAMS});
    Side a, b;
    a.run = load_run(db, q.a);
    b.run = load_run(db, q.b);
    a.range = frame_range(p, a.run, "a_from", "a_to");
    b.range = frame_range(p, b.run, "b_from", "b_to");
    a.game_frames = game_frames(db, a.run, a.range);
    b.game_frames = game_frames(db, b.run, b.range);
    a.filter = parse_filter(p, db, a.run);
    b.filter = parse_filter(p, db, b.run);
    CompareResult res;
    res.group = q.group;
    res.by = q.by;
    res.per_frame = q.per_frame;
    const bool by_class = q.group == Group::Class;
    bool same_build = !a.run.build_id.empty() && a.run.build_id == b.run.build_id;
    res.full_key = q.match == CompareMatch::Location || (q.match == CompareMatch::Auto && same_build);

    Entries entries;
    collect(db, a, false, by_class, res.full_key, entries);
    collect(db, b, true, by_class, res.full_key, entries);

    // Growth in the chosen metric; per game frame when the two sides have different lengths.
    double fa = q.per_frame ? std::max<int64_t>(1, a.game_frames) : 1, fb = q.per_frame ? std::max<int64_t>(1, b.game_frames) : 1;
    auto growth = [&](const Entry &e) { return e.b.get(q.by) / fb - e.a.get(q.by) / fa; };
    std::vector<const Entry *> order;
    for (const auto &[_, e] : entries) {
        auto st = status(e);
        res.n_new += st == "new";
        res.n_vanished += st == "vanished";
        res.n_changed += st == "changed";
        res.n_same += st == "same";
        if (keeps(q.only, st, growth(e))) order.push_back(&e);
    }
    std::stable_sort(order.begin(), order.end(), [&](auto *x, auto *y) { return growth(*x) > growth(*y); });

    res.filter = a.filter;
    res.a = side_result(a);
    res.b = side_result(b);
    res.total = static_cast<int64_t>(order.size());
    res.page = q.page;
    for (int64_t i = q.page.offset; i < res.total && i < q.page.offset + q.page.limit; ++i) {
        const Entry &e = *order[static_cast<size_t>(i)];
        res.entries.push_back({status(e), e.cls, e.site, e.a, e.b, growth(e)});
    }
    return res;
}

Response compare(Database &db, const Request &req) {
    Params p(req, {"a", "b", "a_from", "a_to", "b_from", "b_to", "group", "by", "match", "normalize", "only",
                   "limit", "offset", MT_FILTER_PARAMS});
    auto need = [&](const char *name) {
        auto v = p.get(name);
        if (!v) throw ApiError{400, std::string("missing parameter ") + name + " (a run id)", name};
        return parse_id(*v, name);
    };
    CompareQuery q;
    q.a = need("a");
    q.b = need("b");
    auto opt = [&](const char *name) {
        auto v = p.get(name);
        return v ? std::optional<std::string>(*v) : std::nullopt;
    };
    q.a_range = {opt("a_from"), opt("a_to")};
    q.b_range = {opt("b_from"), opt("b_to")};
    q.filter = filter_spec(p);
    q.group = p.choice("group", {"class", "site"}, "class") == "class" ? Group::Class : Group::Site;
    q.by = metric_param(p);
    auto match = p.choice("match", {"auto", "function", "location"}, "auto");
    q.match = match == "location" ? CompareMatch::Location : match == "function" ? CompareMatch::Function : CompareMatch::Auto;
    q.per_frame = p.choice("normalize", {"none", "per_frame"}, "none") == "per_frame";
    auto only = p.choice("only", {"all", "new", "vanished", "changed", "grown", "shrunk"}, "all");
    q.only = only == "new"        ? CompareOnly::New
             : only == "vanished" ? CompareOnly::Vanished
             : only == "changed"  ? CompareOnly::Changed
             : only == "grown"    ? CompareOnly::Grown
             : only == "shrunk"   ? CompareOnly::Shrunk
                                  : CompareOnly::All;
    q.page = page_params(p, 50, 1000);
    return Response{200, render_compare(compute_compare(db, q)), "application/json", ""};
}

}  // namespace mt::viewer
