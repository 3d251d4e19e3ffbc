#include "trend.h"

#include "exporter.h"

#include <memtracer/viewer/results.h>

#include <algorithm>
#include <map>

namespace mt::fleet {

namespace {

// "Fn" (any file) or "Fn (File)", as memtracer-report names a site.
struct SiteName {
    std::string function, file;
    bool any_file = true;
};
SiteName site_name(const std::string &n) {
    auto open = n.rfind(" (");
    if (open == std::string::npos || n.empty() || n.back() != ')') return {n, "", true};
    return {n.substr(0, open), n.substr(open + 2, n.size() - open - 3), false};
}

struct RunSums {
    std::string key, night;
    int64_t frames = 0, count = 0, requested_bytes = 0, gc_bytes = 0;
};

// Per build or night, ordered by the first night a key was seen, then by key.
std::vector<TrendPoint> points(const std::vector<RunSums> &runs) {
    std::map<std::string, TrendPoint> by;
    for (const RunSums &r : runs) {
        TrendPoint &p = by[r.key];
        p.key = r.key;
        if (p.first_night.empty() || r.night < p.first_night) p.first_night = r.night;
        ++p.runs;
        p.frames += r.frames;
        p.count += r.count;
        p.requested_bytes += r.requested_bytes;
        p.gc_bytes += r.gc_bytes;
    }
    std::vector<TrendPoint> out;
    for (auto &[_, p] : by) out.push_back(p);
    std::stable_sort(out.begin(), out.end(), [](const TrendPoint &a, const TrendPoint &b) {
        return a.first_night != b.first_night ? a.first_night < b.first_night : a.key < b.key;
    });
    return out;
}


}  // namespace

std::vector<TrendPoint> trend(ClickHouse &c, const TrendQuery &q) {
    std::string where = "1";
    if (!q.project.empty()) where += " AND project = " + sql_quote(q.project);
    if (!q.platform.empty()) where += " AND platform = " + sql_quote(q.platform);
    if (!q.device.empty()) where += " AND device = " + sql_quote(q.device);
    // Each run from its own row (written last: a half-exported run is not there), then its sums
    // from the rows of that export only.
    std::map<std::pair<std::string, std::string>, RunSums> runs;
    for (auto &r : c.rows("SELECT run_key, export_id, " + std::string(q.per == TrendQuery::Per::Build ? "build" : "toString(night)") +
                          ", toString(night), frame_count FROM runs WHERE " + where))
        runs[{r[0], r[1]}] = RunSums{r[2], r[3], std::stoll(r[4]), 0, 0, 0};
    std::string cond;
    if (q.what == TrendQuery::What::Class) {
        cond = " WHERE (run_key, export_id, class_id) GLOBAL IN (SELECT run_key, export_id, class_id FROM classes WHERE full_name = " +
               sql_quote(q.name) + ")";
    } else if (q.what == TrendQuery::What::Site) {
        SiteName s = site_name(q.name);
        std::string keys;
        for (auto &r : c.rows("SELECT DISTINCT site_key FROM site_dict WHERE function = " + sql_quote(s.function) +
                              (s.any_file ? "" : " AND file = " + sql_quote(s.file))))
            keys += (keys.empty() ? "" : ", ") + r[0];
        if (keys.empty()) keys = "0";  // no such site: every run has none of it
        cond = " WHERE (run_key, export_id, stack_id) GLOBAL IN (SELECT run_key, export_id, stack_id FROM stacks WHERE site_key IN (" +
               keys + "))";
    }
    for (auto &r : c.rows("SELECT run_key, export_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack" + cond +
                          " GROUP BY run_key, export_id")) {
        auto it = runs.find({r[0], r[1]});
        if (it == runs.end()) continue;  // another attempt's rows, or a run the filters leave out
        it->second.count = std::stoll(r[2]), it->second.requested_bytes = std::stoll(r[3]), it->second.gc_bytes = std::stoll(r[4]);
    }
    std::vector<RunSums> v;
    for (auto &[_, r] : runs) v.push_back(r);
    return points(v);
}

std::vector<TrendPoint> trend(const std::vector<std::string> &db_paths, const TrendQuery &q) {
    using namespace mt::viewer;
    std::vector<RunSums> v;
    for (const std::string &path : db_paths) {
        Database db(path);
        RunsResult runs;
        in_snapshot(db, [&] { runs = compute_runs(db, {1000, 0}); });
        for (const RunEntry &e : runs.runs) {
            if ((!q.project.empty() && e.process != q.project) || (!q.platform.empty() && e.os != q.platform) ||
                (!q.device.empty() && e.device != q.device))
                continue;
            RunSums s{q.per == TrendQuery::Per::Build ? e.build_id : utc_date(e.start_unix_ns), utc_date(e.start_unix_ns),
                      e.frames, 0, 0, 0};
            TopQuery tq;
            tq.run = e.run_id;
            tq.group = q.what == TrendQuery::What::Site ? Group::Site : Group::Class;
            SiteName sn = site_name(q.name);
            for (int64_t offset = 0;; offset += 1000) {
                tq.page = {1000, offset};
                TopResult top;
                in_snapshot(db, [&] { top = compute_top(db, tq); });
                if (q.what == TrendQuery::What::Total) {
                    s.count = top.totals.count, s.requested_bytes = top.totals.requested_bytes, s.gc_bytes = top.totals.gc_bytes;
                    break;
                }
                for (const TopEntry &t : top.entries) {
                    bool match = false;
                    if (q.what == TrendQuery::What::Class) {
                        match = t.cls && t.cls->full_name == q.name;
                    } else if (t.site) {
                        match = t.site->function == sn.function && (sn.any_file || t.site->file == sn.file);
                    }
                    if (match) s.count += t.t.count, s.requested_bytes += t.t.requested_bytes, s.gc_bytes += t.t.gc_bytes;
                }
                if (offset + 1000 >= top.total) break;
            }
            v.push_back(s);
        }
    }
    return points(v);
}

}  // namespace mt::fleet
