// fleet.h — cross-run answers over a FleetBackend (fleet_backend.h), compute (typed) and render
// (JSON, collapsed stacks, speedscope), the same on every backend: the trend of a class, a site or
// the total per build or night; the fleet top (classes or sites over a set of runs); growth
// between two build ranges; the differential flame graph between two runs or two ranges.
// Build ranges go by the order builds appeared in (first night, then name), not by name.
#ifndef MEMTRACER_VIEWER_FLEET_H
#define MEMTRACER_VIEWER_FLEET_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "memtracer/viewer/fleet_backend.h"

namespace mt::viewer {

// "A..B" (inclusive), "A" (that build), "" (every build). A bound that no kept run has is an
// ApiError(400) naming it.
struct BuildRange {
    std::string from, to;
    bool all() const { return from.empty() && to.empty(); }
    static BuildRange parse(std::string_view s);
    std::string text() const { return all() ? "" : from == to ? from : from + ".." + to; }
};

// The runs `labels` keeps, in build order (first night of the build, then build, night, device,
// id), cut to `builds`.
std::vector<FleetRun> fleet_runs(FleetBackend &b, const LabelFilter &labels, const BuildRange &builds);

// ---- trend ----
struct TrendQuery {
    Selection sel;
    enum class Per { Build, Night } per = Per::Build;
    LabelFilter labels;
    BuildRange builds;
};
struct TrendPoint {
    std::string key;          // the build or the night
    std::string first_night;  // points are ordered by it, then by key
    int64_t runs = 0, frames = 0;
    Totals t;
    double bytes_per_frame() const { return frames ? static_cast<double>(t.requested_bytes) / static_cast<double>(frames) : 0; }
    bool operator==(const TrendPoint &o) const {
        return key == o.key && first_night == o.first_night && runs == o.runs && frames == o.frames && t.count == o.t.count &&
               t.requested_bytes == o.t.requested_bytes && t.gc_bytes == o.t.gc_bytes;
    }
};
struct TrendResult {
    TrendQuery q;
    std::vector<TrendPoint> points;
};
TrendResult compute_trend(FleetBackend &b, const TrendQuery &q);
std::string render_trend(const TrendResult &r);

// ---- fleet top ----
struct FleetTopQuery {
    Group group = Group::Class;  // class | site
    LabelFilter labels;
    BuildRange builds;
    Metric by = Metric::Bytes;
    int64_t limit = 50;  // 1..1000
};
struct FleetTopEntry {
    int64_t rank = 0;
    std::string key;
    Totals t;
    double share = 0;      // of the runs' total in `by`
    double per_frame = 0;  // `by` per frame over the runs
};
struct FleetTopResult {
    FleetTopQuery q;
    int64_t runs = 0, frames = 0;
    Totals totals;
    std::vector<FleetTopEntry> entries;
    int64_t total = 0;  // groups before the limit
};
FleetTopResult compute_fleet_top(FleetBackend &b, const FleetTopQuery &q);
std::string render_fleet_top(const FleetTopResult &r);

// ---- growth between two build ranges, per frame ----
struct GrowthQuery {
    Group group = Group::Class;
    LabelFilter labels;
    BuildRange a, b;
    Metric by = Metric::Bytes;
    int64_t limit = 50;
};
struct GrowthEntry {
    std::string key;
    Totals a, b;
    double a_per_frame = 0, b_per_frame = 0, delta = 0, change_pct = 0;  // change: +inf when new
};
struct GrowthResult {
    GrowthQuery q;
    int64_t a_runs = 0, a_frames = 0, b_runs = 0, b_frames = 0;
    std::vector<GrowthEntry> entries;  // biggest growth per frame first, shrink last
    int64_t total = 0;
};
GrowthResult compute_growth(FleetBackend &b, const GrowthQuery &q);
std::string render_growth(const GrowthResult &r);

// ---- differential flame graph: width = B's bytes (mean per run), colour = B - A ----
struct DiffFlameQuery {
    LabelFilter labels;
    BuildRange a, b;  // two runs: one build each and a device in `labels`
    Metric by = Metric::Bytes;
};
struct DiffNode {
    std::string name;
    double before = 0, after = 0;  // mean per run of the side's runs
    std::vector<DiffNode> children;  // biggest `after` first, then name
};
struct DiffFlameResult {
    DiffFlameQuery q;
    int64_t a_runs = 0, b_runs = 0;
    DiffNode root;  // name "all"
};
DiffFlameResult compute_diff_flame(FleetBackend &b, const DiffFlameQuery &q);
std::string render_diff_flame(const DiffFlameResult &r);            // the tree as JSON
std::string render_diff_collapsed(const DiffFlameResult &r);        // "a;b;c BEFORE AFTER" lines (difffolded)
std::string render_diff_speedscope(const DiffFlameResult &r);       // speedscope: B's weights, A as a second profile

}  // namespace mt::viewer

#endif
