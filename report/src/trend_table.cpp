#include "trend_table.h"

#include <cmath>
#include <limits>

#include "source.h"

namespace mt::report {

Table trend_table(const std::vector<std::string> &sources, const fleet::TrendQuery &q) {
    std::vector<fleet::TrendPoint> points;
    if (sources.size() == 1 && fleet::ClickHouseUrl::is_url(sources[0])) {
        fleet::ClickHouse c(fleet::ClickHouseUrl::parse(sources[0]));
        points = fleet::trend(c, q);
    } else {
        for (const auto &s : sources)
            if (fleet::ClickHouseUrl::is_url(s)) throw ReportError(s + ": one clickhouse:// URL, or run.db files, not both");
        points = fleet::trend(sources, q);
    }
    Table t;
    const char *what = q.what == fleet::TrendQuery::What::Total ? "the total" : q.what == fleet::TrendQuery::What::Class ? "class" : "site";
    t.notes.push_back(std::string("trend of ") + what + (q.name.empty() ? "" : " " + q.name) + " per " +
                      (q.per == fleet::TrendQuery::Per::Build ? "build" : "night") + ", " + std::to_string(points.size()) +
                      " points (requested bytes per frame; change against the point before)");
    t.columns = {q.per == fleet::TrendQuery::Per::Build ? "build" : "night", "first_night", "runs", "frames", "count",
                 "requested_bytes", "gc_bytes", "bytes_per_frame", "change_pct"};
    for (size_t i = 0; i < points.size(); ++i) {
        const auto &p = points[i];
        Cell change = std::string("");
        if (i > 0) {
            double base = points[i - 1].bytes_per_frame(), now = p.bytes_per_frame();
            change = base > 0 ? (now / base - 1) * 100 : now > 0 ? std::numeric_limits<double>::infinity() : 0.0;
        }
        t.add({p.key, p.first_night, p.runs, p.frames, p.count, p.requested_bytes, p.gc_bytes, p.bytes_per_frame(), change});
    }
    return t;
}

}  // namespace mt::report
