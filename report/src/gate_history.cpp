#include "gate_history.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

#include <memtracer/viewer/fleet.h>

namespace mt::report {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The baseline is per frame; a Side holds sums and a frame count, so it carries the medians as
// sums over this many frames (a millionth of a byte per frame is below any limit's meaning).
constexpr int64_t kFrames = 1000000;

}  // namespace

int64_t last_n(const std::string &baseline) {
    if (baseline.rfind("last:", 0) != 0) return 0;
    std::string v = baseline.substr(5);
    int64_t n = 0;
    try {
        size_t used = 0;
        n = std::stoll(v, &used);
        if (used != v.size()) n = 0;
    } catch (const std::exception &) {
        n = 0;
    }
    if (n < 1 || n > 1000) throw ReportError("--baseline '" + baseline + "': last:N wants N of 1..1000");
    return n;
}

Side history_side(viewer::FleetBackend &b, Source &now, const Query &q, int64_t n) {
    if (q.from || q.to) throw ReportError("gate last:N compares whole runs: --from/--to do not apply");
    if (q.group != "class" && q.group != "site") throw ReportError("gate last:N: --by class or site");
    auto runs = now.call([&](viewer::Database &db) { return viewer::compute_runs(db, {1000, 0}); });
    auto self = std::find_if(runs.runs.begin(), runs.runs.end(), [&](const viewer::RunEntry &e) { return e.run_id == now.run(); });
    if (self == runs.runs.end()) throw ReportError(now.label() + ": no such run");
    std::string night = viewer::fleet_night(self->start_unix_ns);
    viewer::LabelFilter labels{self->process, self->os, self->device};
    std::vector<viewer::FleetRun> all;
    try {
        all = viewer::fleet_runs(b, labels, {});
    } catch (const viewer::ApiError &e) {
        throw ReportError(e.message);
    }
    std::erase_if(all, [&](const viewer::FleetRun &r) { return r.build == self->build_id || r.night > night; });
    if (all.empty())
        throw ReportError("gate last:" + std::to_string(n) + ": no earlier run of " + self->process + " on " + self->os + " / " +
                          self->device + " in the history");
    if (all.size() > static_cast<size_t>(n)) all.erase(all.begin(), all.end() - n);
    viewer::Group g = q.group == "site" ? viewer::Group::Site : viewer::Group::Class;
    // Per run: its groups and total per frame; a group a run lacks counts as 0 there.
    std::vector<std::map<std::string, Sums>> per_run;
    std::vector<int64_t> frames;
    std::set<std::string> keys;
    for (const viewer::FleetRun &r : all) {
        auto &m = per_run.emplace_back();
        for (const viewer::GroupSum &s : b.group_sums({r}, g)) {
            Sums &x = m[s.key];
            x.count += s.t.count, x.requested_bytes += s.t.requested_bytes, x.gc_bytes += s.t.gc_bytes;
            Sums &t = m["\x01total"];
            t.count += s.t.count, t.requested_bytes += s.t.requested_bytes, t.gc_bytes += s.t.gc_bytes;
            keys.insert(s.key);
        }
        frames.push_back(r.frames);
    }
    auto med = [&](const std::string &key) {
        std::vector<double> c, rb, gb;
        for (size_t i = 0; i < per_run.size(); ++i) {
            auto it = per_run[i].find(key);
            Sums s = it == per_run[i].end() ? Sums{} : it->second;
            double f = frames[i] ? static_cast<double>(frames[i]) : 1.0;
            c.push_back(static_cast<double>(s.count) / f), rb.push_back(static_cast<double>(s.requested_bytes) / f),
                gb.push_back(static_cast<double>(s.gc_bytes) / f);
        }
        return Sums{std::llround(median(c) * kFrames), std::llround(median(rb) * kFrames), std::llround(median(gb) * kFrames)};
    };
    Side side;
    side.label = "median of the last " + std::to_string(all.size()) + " runs (" + all.front().build + ".." + all.back().build + ")";
    side.frames = kFrames;
    side.total = med("\x01total");
    for (const std::string &k : keys) side.groups[k] = med(k);
    return side;
}

}  // namespace mt::report
