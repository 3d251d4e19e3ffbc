#include "fleet_tables.h"

#include <cmath>
#include <limits>

#include "ch_fleet.h"  // fleet/src
#include "source.h"

namespace mt::report {

namespace {
// The query layer's ApiError (not a std::exception) as the report's error.
template <class F>
auto guarded(F &&fn) {
    try {
        return fn();
    } catch (const viewer::ApiError &e) {
        throw ReportError(e.message);
    }
}
}  // namespace

std::unique_ptr<viewer::FleetBackend> open_sources(const std::vector<std::string> &sources) {
    try {
        return guarded([&] { return fleet::open_fleet(sources); });
    } catch (const std::invalid_argument &e) {
        throw ReportError(e.what());
    }
}

Table trend_table(viewer::FleetBackend &b, const viewer::TrendQuery &q) {
    auto points = guarded([&] { return viewer::compute_trend(b, q); }).points;
    Table t;
    using W = viewer::Selection::What;
    const char *what = q.sel.what == W::Total ? "the total" : q.sel.what == W::Class ? "class" : "site";
    bool build = q.per == viewer::TrendQuery::Per::Build;
    t.notes.push_back(std::string("trend of ") + what + (q.sel.name.empty() ? "" : " " + q.sel.name) + " per " +
                      (build ? "build" : "night") + ", " + std::to_string(points.size()) +
                      " points (requested bytes per frame; change against the point before)");
    t.columns = {build ? "build" : "night", "first_night", "runs", "frames", "count", "requested_bytes", "gc_bytes",
                 "bytes_per_frame", "change_pct"};
    for (size_t i = 0; i < points.size(); ++i) {
        const auto &p = points[i];
        Cell change = std::string("");
        if (i > 0) {
            double base = points[i - 1].bytes_per_frame(), now = p.bytes_per_frame();
            change = base > 0 ? (now / base - 1) * 100 : now > 0 ? std::numeric_limits<double>::infinity() : 0.0;
        }
        t.add({p.key, p.first_night, p.runs, p.frames, p.t.count, p.t.requested_bytes, p.t.gc_bytes, p.bytes_per_frame(), change});
    }
    return t;
}

Table fleet_top_table(viewer::FleetBackend &b, const viewer::FleetTopQuery &q) {
    auto r = guarded([&] { return viewer::compute_fleet_top(b, q); });
    Table t;
    t.notes.push_back("top " + std::string(viewer::group_name(q.group)) + " by " + std::string(viewer::metric_name(q.by)) + " over " +
                      std::to_string(r.runs) + " runs (" + std::to_string(r.frames) + " frames)" +
                      (q.builds.all() ? "" : ", builds " + q.builds.text()) + ", " + std::to_string(r.total) + " groups");
    t.columns = {"rank", std::string(viewer::group_name(q.group)), "count", "requested_bytes", "gc_bytes", "share_pct", "per_frame"};
    for (const auto &e : r.entries)
        t.add({e.rank, e.key, e.t.count, e.t.requested_bytes, e.t.gc_bytes, e.share * 100, e.per_frame});
    return t;
}

Table growth_table(viewer::FleetBackend &b, const viewer::GrowthQuery &q) {
    auto r = guarded([&] { return viewer::compute_growth(b, q); });
    Table t;
    t.notes.push_back("A = builds " + q.a.text() + " (" + std::to_string(r.a_runs) + " runs, " + std::to_string(r.a_frames) +
                      " frames), B = builds " + q.b.text() + " (" + std::to_string(r.b_runs) + " runs, " + std::to_string(r.b_frames) +
                      " frames), " + std::string(viewer::metric_name(q.by)) + " per frame, biggest growth first");
    t.columns = {std::string(viewer::group_name(q.group)), "a_per_frame", "b_per_frame", "delta_per_frame", "change_pct"};
    for (const auto &e : r.entries) t.add({e.key, e.a_per_frame, e.b_per_frame, e.delta, e.change_pct});
    return t;
}

std::string diff_flame_text(viewer::FleetBackend &b, const viewer::DiffFlameQuery &q, const std::string &format) {
    auto r = guarded([&] { return viewer::compute_diff_flame(b, q); });
    if (format == "collapsed") return viewer::render_diff_collapsed(r);
    if (format == "speedscope") return viewer::render_diff_speedscope(r) + "\n";
    return viewer::render_diff_flame(r) + "\n";
}

}  // namespace mt::report
