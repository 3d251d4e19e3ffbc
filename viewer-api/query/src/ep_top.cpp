// ep_top.cpp — TopN over a frame range, by class, by allocation site or by full stack.
#include <algorithm>
#include <unordered_map>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "sqlite.h"
#include "stacks.h"

namespace mt::viewer {

namespace {
struct Group {
    int64_t key = 0;  // class_id, site_id or stack_id
    Totals t;
    std::unordered_map<int64_t, Totals> classes;  // what a site or stack allocated
};

void write_top_classes(Json &j, Database &db, int64_t run, const Group &g, Metric by) {
    std::vector<std::pair<int64_t, Totals>> v(g.classes.begin(), g.classes.end());
    std::sort(v.begin(), v.end(), [&](auto &a, auto &b) {
        return a.second.get(by) != b.second.get(by) ? a.second.get(by) > b.second.get(by) : a.first < b.first;
    });
    j.arr("classes");
    for (size_t i = 0; i < v.size() && i < 5; ++i) {
        auto c = find_class(db, run, v[i].first);
        j.obj();
        write_class(j, v[i].first, c ? &*c : nullptr);
        write_totals(j, v[i].second);
        j.end_obj();
    }
    j.end_arr().kv("class_count", static_cast<int64_t>(v.size()));
}
}  // namespace

Response top_n(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"by", "group", "from", "to", "limit", "offset", MT_FILTER_PARAMS});
    auto by = metric_param(p);
    auto group = p.choice("group", {"class", "site", "stack"}, "class");
    auto pg = page_params(p, 50, 1000);
    auto run = load_run(db, run_id);
    auto r = frame_range(p, run);

    auto filter = parse_filter(p, db, run);
    auto rows = filtered_class_stacks(db, run, r, filter);
    std::unordered_map<int64_t, int64_t> stack_site;
    if (group == "site") stack_site = load_stack_sites(db, run.id);
    std::unordered_map<int64_t, Group> groups;
    Totals total;
    for (const auto &cs : rows) {
        int64_t key = cs.class_id;
        if (group == "stack") key = cs.stack_id;
        if (group == "site") {
            auto it = stack_site.find(cs.stack_id);
            key = it == stack_site.end() ? kNoSite : it->second;
        }
        auto &g = groups[key];
        g.key = key;
        g.t.add(cs.t);
        if (group != "class") g.classes[cs.class_id].add(cs.t);
        total.add(cs.t);
    }
    std::vector<Group> order;
    order.reserve(groups.size());
    for (auto &[_, g] : groups) order.push_back(std::move(g));
    std::sort(order.begin(), order.end(), [&](const Group &a, const Group &b) {
        return a.t.get(by) != b.t.get(by) ? a.t.get(by) > b.t.get(by) : a.key < b.key;
    });

    Json j;
    j.obj().kv("run_id", run.id).obj("range").kv("from", r.from).kv("to", r.to).kv("whole", r.whole);
    j.kv("game_frames", game_frames(db, run, r)).end_obj();
    write_filter(j, filter);
    j.kv("by", metric_name(by)).kv("group", group).obj("totals");
    write_totals(j, total);
    j.end_obj().arr("entries");
    std::unordered_map<int64_t, SiteInfo> sites;
    if (group == "site") sites = load_sites(db, run.id);
    double denom = static_cast<double>(total.get(by));
    for (int64_t i = pg.offset; i < static_cast<int64_t>(order.size()) && i < pg.offset + pg.limit; ++i) {
        const auto &g = order[static_cast<size_t>(i)];
        j.obj().kv("rank", i + 1);
        if (group == "class") {
            auto c = find_class(db, run.id, g.key);
            write_class(j, g.key, c ? &*c : nullptr);
        } else if (group == "site") {
            auto it = sites.find(g.key);
            write_site(j, g.key, it == sites.end() ? nullptr : &it->second);
        } else {
            j.kv("stack_id", g.key).obj("site");
            write_site(j, find_stack_site(db, run.id, g.key));
            j.end_obj().key("frames");
            write_frames(j, resolve_stack(db, run.id, g.key));
        }
        write_totals(j, g.t);
        j.kv("share", denom > 0 ? static_cast<double>(g.t.get(by)) / denom : 0.0);
        if (group != "class") write_top_classes(j, db, run.id, g, by);
        j.end_obj();
    }
    j.end_arr();
    write_page(j, static_cast<int64_t>(order.size()), pg);
    j.end_obj();
    return ok(j);
}

}  // namespace mt::viewer
