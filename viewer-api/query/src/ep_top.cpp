// ep_top.cpp — TopN over a frame range, by class, by allocation site or by full stack: compute
// (TopQuery -> TopResult) and the endpoint that parses a request into it (render.cpp renders).
#include <algorithm>
#include <unordered_map>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "spec.h"
#include "stacks.h"

namespace mt::viewer {

namespace {
struct Bucket {
    int64_t key = 0;  // class_id, site_id or stack_id
    Totals t;
    std::unordered_map<int64_t, Totals> classes;  // what a site or stack allocated
};

void top_classes(TopEntry &e, Database &db, int64_t run, const Bucket &g, Metric by) {
    std::vector<std::pair<int64_t, Totals>> v(g.classes.begin(), g.classes.end());
    std::sort(v.begin(), v.end(), [&](auto &a, auto &b) {
        return a.second.get(by) != b.second.get(by) ? a.second.get(by) > b.second.get(by) : a.first < b.first;
    });
    for (size_t i = 0; i < v.size() && i < 5; ++i) e.classes.push_back({v[i].first, find_class(db, run, v[i].first), v[i].second});
    e.class_count = static_cast<int64_t>(v.size());
}
}  // namespace

TopResult compute_top(Database &db, const TopQuery &q) {
    SpecParams sp(q.range, q.filter, q.page);
    Scope sc = open_scope(db, q.run, sp);
    TopResult res;
    res.page = checked_page(sp, 50, 1000);
    const RunRow &run = sc.run;
    res.run_id = run.id;
    res.range = {sc.range.from, sc.range.to, sc.range.whole, game_frames(db, run, sc.range)};
    res.by = q.by;
    res.group = q.group;
    auto rows = filtered_class_stacks(db, run, sc.range, sc.filter);
    std::unordered_map<int64_t, int64_t> stack_site;
    if (q.group == Group::Site) stack_site = load_stack_sites(db, run.id);
    std::unordered_map<int64_t, Bucket> groups;
    for (const auto &cs : rows) {
        int64_t key = cs.class_id;
        if (q.group == Group::Stack) key = cs.stack_id;
        if (q.group == Group::Site) {
            auto it = stack_site.find(cs.stack_id);
            key = it == stack_site.end() ? kNoSite : it->second;
        }
        auto &g = groups[key];
        g.key = key;
        g.t.add(cs.t);
        if (q.group != Group::Class) g.classes[cs.class_id].add(cs.t);
        res.totals.add(cs.t);
    }
    std::vector<Bucket> order;
    order.reserve(groups.size());
    for (auto &[_, g] : groups) order.push_back(std::move(g));
    const Metric by = q.by;
    std::sort(order.begin(), order.end(), [&](const Bucket &a, const Bucket &b) {
        return a.t.get(by) != b.t.get(by) ? a.t.get(by) > b.t.get(by) : a.key < b.key;
    });
    res.total = static_cast<int64_t>(order.size());
    res.filter = sc.filter;
    std::unordered_map<int64_t, SiteInfo> sites;
    if (q.group == Group::Site) sites = load_sites(db, run.id);
    double denom = static_cast<double>(res.totals.get(by));
    const Page &pg = res.page;
    for (int64_t i = pg.offset; i < res.total && i < pg.offset + pg.limit; ++i) {
        const auto &g = order[static_cast<size_t>(i)];
        TopEntry e;
        e.rank = i + 1;
        e.key = g.key;
        if (q.group == Group::Class) {
            e.cls = find_class(db, run.id, g.key);
        } else if (q.group == Group::Site) {
            if (auto it = sites.find(g.key); it != sites.end() && g.key != kNoSite) e.site = it->second;
        } else {
            e.site = find_stack_site(db, run.id, g.key);
            e.frames = resolve_stack(db, run.id, g.key);
        }
        e.t = g.t;
        e.share = denom > 0 ? static_cast<double>(g.t.get(by)) / denom : 0.0;
        if (q.group != Group::Class) top_classes(e, db, run.id, g, by);
        res.entries.push_back(std::move(e));
    }
    return res;
}

Response top_n(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"by", "group", "from", "to", "limit", "offset", MT_FILTER_PARAMS});
    TopQuery q;
    q.run = run_id;
    q.by = metric_param(p);
    q.group = group_param(p);
    q.page = page_params(p, 50, 1000);
    q.range = range_spec(p);
    q.filter = filter_spec(p);
    return Response{200, render_top(compute_top(db, q)), "application/json", ""};
}

}  // namespace mt::viewer
