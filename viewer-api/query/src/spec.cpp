#include "spec.h"

#include <string>

#include "memtracer/viewer/backend.h"

namespace mt::viewer {

namespace {
std::optional<std::string> opt(const Params &p, std::string_view name) {
    auto v = p.get(name);
    return v ? std::optional<std::string>(std::string(*v)) : std::nullopt;
}

Request spec_request(const RangeSpec &r, const FilterSpec &f, const std::optional<Page> &page) {
    Request req;
    auto add = [&](const char *k, const std::optional<std::string> &v) {
        if (v) req.params.emplace_back(k, *v);
    };
    add("from", r.from);
    add("to", r.to);
    add("class", f.cls);
    add("function", f.function);
    add("thread", f.thread);
    add("kind", f.kind);
    if (page) {
        req.params.emplace_back("limit", std::to_string(page->limit));
        req.params.emplace_back("offset", std::to_string(page->offset));
    }
    return req;
}
}  // namespace

RangeSpec range_spec(const Params &p) { return {opt(p, "from"), opt(p, "to")}; }

FilterSpec filter_spec(const Params &p) {
    return {opt(p, "class"), opt(p, "function"), opt(p, "thread"), opt(p, "kind")};
}

Group group_param(const Params &p) {
    auto g = p.choice("group", {"class", "site", "stack"}, "class");
    return g == "site" ? Group::Site : g == "stack" ? Group::Stack : Group::Class;
}

std::string_view group_name(Group g) { return g == Group::Site ? "site" : g == Group::Stack ? "stack" : "class"; }

namespace {
// `by`/`group` given as `value`, read by the endpoint's own code.
template <class F>
auto one_param(const char *name, std::string_view value, F read) {
    Request req;
    req.params.emplace_back(name, std::string(value));
    Params p(req, {"by", "group"});
    return read(p);
}
}  // namespace

Metric metric_of(std::string_view by) {
    return one_param("by", by, [](const Params &p) { return metric_param(p); });
}

Group group_of(std::string_view group) {
    return one_param("group", group, [](const Params &p) { return group_param(p); });
}

LifetimeMetric lifetime_metric_of(std::string_view by, bool leaks) {
    return one_param("by", by, [&](const Params &p) { return lifetime_metric_param(p, leaks); });
}

LifetimeMetric lifetime_metric_param(const Params &p, bool leaks) {
    auto by = leaks ? p.choice("by", {"frames", "gc_bytes", "count"}, "frames")
                    : p.choice("by", {"gc_bytes", "count"}, "gc_bytes");
    return by == "count" ? LifetimeMetric::Count : by == "frames" ? LifetimeMetric::Frames : LifetimeMetric::GcBytes;
}

SpecParams::SpecParams(const RangeSpec &r, const FilterSpec &f, std::optional<Page> page)
    : req_(spec_request(r, f, page)), params_(req_, {"from", "to", "limit", "offset", MT_FILTER_PARAMS}) {}

Scope open_scope(Database &db, int64_t run, const SpecParams &sp) {
    Scope s{load_run(db, run), {}, {}};
    s.range = frame_range(sp.params(), s.run);
    s.filter = parse_filter(sp.params(), db, s.run);
    return s;
}

Page checked_page(const SpecParams &sp, int64_t def_limit, int64_t max_limit) {
    return page_params(sp.params(), def_limit, max_limit);
}

void in_snapshot(Database &db, const std::function<void()> &fn) {
    SnapshotGuard snapshot(db.backend());
    fn();
}

}  // namespace mt::viewer
