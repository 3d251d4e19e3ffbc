// trend.h — one class, one allocation site or the total, per build or per night, over many runs:
// the first cross-run answer (docs/clickhouse.md). Two sources give the same points: ClickHouse
// (the exported runs, one query over every run) and a list of run.db files (each run through the
// viewer's typed query layer), so a studio's history and a developer's few files agree.
#ifndef MEMTRACER_FLEET_TREND_H
#define MEMTRACER_FLEET_TREND_H

#include <cstdint>
#include <string>
#include <vector>

#include "clickhouse.h"

namespace mt::fleet {

struct TrendQuery {
    enum class What { Total, Class, Site } what = What::Total;
    std::string name;  // class: full name; site: "function" or "function (file)" as the report names it
    enum class Per { Build, Night } per = Per::Build;
    std::string project, platform, device;  // "" = any
};

struct TrendPoint {
    std::string key;  // the build or the night
    std::string first_night;  // points are ordered by it, then by key
    int64_t runs = 0, frames = 0;
    int64_t count = 0, requested_bytes = 0, gc_bytes = 0;
    double bytes_per_frame() const { return frames ? static_cast<double>(requested_bytes) / static_cast<double>(frames) : 0; }
    bool operator==(const TrendPoint &) const = default;
};

std::vector<TrendPoint> trend(ClickHouse &c, const TrendQuery &q);

// The same over run.db files; a run's labels are what memtracer-export would give it by default
// (build: the build id, night: the capture's UTC date, device, platform: the OS, project: the process).
std::vector<TrendPoint> trend(const std::vector<std::string> &db_paths, const TrendQuery &q);

}  // namespace mt::fleet

#endif
