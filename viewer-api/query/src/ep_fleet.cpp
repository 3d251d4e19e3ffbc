// ep_fleet.cpp — the cross-run endpoints over the viewer's database (its runs as the history):
//   GET /api/trend?class=|site=&per=build|night&builds=&project=&platform=&device=
//   GET /api/fleet/top?group=class|site&by=&limit=&builds=&project=&platform=&device=
//   GET /api/fleet/growth?group=&by=&limit=&a=BUILDS&b=BUILDS&project=&platform=&device=
//   GET /api/fleet/diff-flame?a=BUILDS&b=BUILDS&by=&format=json|collapsed|speedscope&...
// Compute and render are fleet.h's; a ClickHouse history answers them the same (fleet/).
#include "endpoints.h"
#include "memtracer/viewer/fleet.h"
#include "params.h"

namespace mt::viewer {

namespace {

LabelFilter labels_of(const Params &p) {
    auto s = [&](std::string_view n) { return std::string(p.get(n).value_or("")); };
    return {s("project"), s("platform"), s("device")};
}

BuildRange range_of(const Params &p, std::string_view name) {
    try {
        return BuildRange::parse(p.get(name).value_or(""));
    } catch (ApiError &e) {
        e.param = std::string(name);
        throw;
    }
}

Response json(std::string body) { return Response{200, std::move(body), "application/json", ""}; }

}  // namespace

Response fleet_trend(Database &db, const Request &req) {
    Params p(req, {"class", "site", "per", "builds", "project", "platform", "device"});
    TrendQuery q;
    auto cls = p.get("class"), site = p.get("site");
    if (cls && site) throw ApiError{400, "give class or site, not both", "site"};
    q.sel = {cls ? Selection::What::Class : site ? Selection::What::Site : Selection::What::Total, std::string(cls ? *cls : site.value_or(""))};
    q.per = p.choice("per", {"build", "night"}, "build") == "night" ? TrendQuery::Per::Night : TrendQuery::Per::Build;
    q.labels = labels_of(p);
    q.builds = range_of(p, "builds");
    auto b = borrow_run_database(db);
    return json(render_trend(compute_trend(*b, q)));
}

Response fleet_endpoint(Database &db, const Request &req, std::string_view what) {
    auto b = borrow_run_database(db);
    if (what == "top" || what == "growth") {
        bool top = what == "top";
        Params p = top ? Params(req, {"group", "by", "limit", "builds", "project", "platform", "device"})
                       : Params(req, {"group", "by", "limit", "a", "b", "project", "platform", "device"});
        Group g = p.choice("group", {"class", "site"}, "class") == "site" ? Group::Site : Group::Class;
        Metric by = metric_of(p.choice("by", {"bytes", "gc_bytes", "count"}, "bytes"));
        int64_t limit = p.integer("limit", 50, 1, 1000);
        if (top) return json(render_fleet_top(compute_fleet_top(*b, {g, labels_of(p), range_of(p, "builds"), by, limit})));
        return json(render_growth(compute_growth(*b, {g, labels_of(p), range_of(p, "a"), range_of(p, "b"), by, limit})));
    }
    if (what == "diff-flame") {
        Params p(req, {"a", "b", "by", "format", "project", "platform", "device"});
        DiffFlameQuery q{labels_of(p), range_of(p, "a"), range_of(p, "b"), metric_of(p.choice("by", {"bytes", "gc_bytes", "count"}, "bytes"))};
        auto format = p.choice("format", {"json", "collapsed", "speedscope"}, "json");
        DiffFlameResult r = compute_diff_flame(*b, q);
        if (format == "collapsed") return Response{200, render_diff_collapsed(r), "text/plain; charset=utf-8", "diff.collapsed.txt"};
        if (format == "speedscope") return Response{200, render_diff_speedscope(r), "application/json", "diff.speedscope.json"};
        return json(render_diff_flame(r));
    }
    throw ApiError{404, "no such endpoint: " + req.path, ""};
}

}  // namespace mt::viewer
