// gate.cpp — `memtracer-report gate BASE NEW --max-growth ...`: the step a studio's CI runs.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <stdexcept>

#include "compare.h"

namespace mt::report {

GateLimits parse_limits(const std::string &spec) {
    GateLimits g;
    size_t pos = 0;
    while (pos <= spec.size()) {
        size_t end = spec.find(',', pos);
        std::string part = spec.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        auto eq = part.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("--max-growth: '" + part + "' is not metric=N%");
        std::string name = part.substr(0, eq), value = part.substr(eq + 1);
        auto it = std::find_if(metric_names().begin(), metric_names().end(), [&](auto &m) { return m.first == name; });
        if (it == metric_names().end())
            throw std::invalid_argument("--max-growth: unknown metric '" + name +
                                        "' (bytes_per_frame, gc_bytes_per_frame, allocs_per_frame)");
        if (!value.empty() && value.back() == '%') value.pop_back();
        double pct = 0;
        auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), pct);
        if (ec != std::errc() || p != value.data() + value.size() || value.empty() || !(pct >= 0) || !std::isfinite(pct))
            throw std::invalid_argument("--max-growth: '" + part.substr(eq + 1) + "' for " + name +
                                        " is not a percentage of 0 or more");
        for (auto &[m, _] : g.max_growth_pct)
            if (m == it->second) throw std::invalid_argument("--max-growth: " + name + " given twice");
        g.max_growth_pct.emplace_back(it->second, pct);
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    if (g.max_growth_pct.empty()) throw std::invalid_argument("--max-growth: no limit given");
    return g;
}

GateResult gate(Source &base, Source &now, const Query &q, const GateLimits &limits, double min_share_pct) {
    return gate_sides(load_side(base, q), load_side(now, q), q, limits, min_share_pct);
}

GateResult gate_sides(const Side &a, const Side &b, const Query &q, const GateLimits &limits, double min_share_pct) {
    GateResult res;
    Table &t = res.table;
    t.columns = {q.group, "metric", "base", "new", "change_pct", "limit_pct", "status"};
    auto name_of = [](Metric m) {
        for (auto &[n, v] : metric_names())
            if (v == m) return n;
        return std::string();
    };
    // The run's totals first, every limited metric, over or not.
    for (auto &[m, limit] : limits.max_growth_pct) {
        double x = per_frame(a, a.total, m), y = per_frame(b, b.total, m), c = change_pct(x, y);
        bool over = c > limit;
        res.failed = res.failed || over;
        t.add({std::string("(total)"), name_of(m), x, y, c, limit, std::string(over ? "OVER" : "ok")});
    }
    // Then each group that grew in a limited metric, biggest growth per frame first.
    struct Row {
        std::string key;
        Metric m;
        double x, y, c, limit;
        bool over;
    };
    std::vector<Row> rows;
    std::set<std::string> keys;
    for (auto &[k, _] : b.groups) keys.insert(k);
    for (const auto &k : keys) {
        Sums sx = a.groups.count(k) ? a.groups.at(k) : Sums{}, sy = b.groups.at(k);
        for (auto &[m, limit] : limits.max_growth_pct) {
            double x = per_frame(a, sx, m), y = per_frame(b, sy, m);
            if (y <= x) continue;
            double c = change_pct(x, y), floor = per_frame(a, a.total, m) * min_share_pct / 100.0;
            rows.push_back({k, m, x, y, c, limit, c > limit && y - x >= floor});
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row &l, const Row &r) {
        if (l.over != r.over) return l.over;
        return l.y - l.x > r.y - r.x;
    });
    int64_t shown = 0;
    for (const auto &r : rows) {
        res.failed = res.failed || r.over;
        if (shown++ >= q.limit) continue;  // counted, not printed
        t.add({r.key, name_of(r.m), r.x, r.y, r.c, r.limit,
               std::string(r.over ? "OVER" : r.x == 0 ? "new" : "grew")});
    }
    size_t over = std::count_if(rows.begin(), rows.end(), [](const Row &r) { return r.over; });
    t.notes.push_back("gate: base " + a.label + " (" + std::to_string(a.frames) + " frames), new " + b.label + " (" +
                      std::to_string(b.frames) + " frames), by " + q.group + ": " +
                      (res.failed ? "FAILED, " + std::to_string(over) + " " + q.group + " row(s) over their limit"
                                  : "passed"));
    return res;
}

}  // namespace mt::report
