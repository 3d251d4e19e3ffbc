// trend.h — `memtracer-report trend`: a class, an allocation site or the total per build or per
// night over many runs, from ClickHouse (a clickhouse:// URL) or from run.db files; both give the
// same table (fleet/src/trend.h).
#ifndef MEMTRACER_REPORT_TREND_TABLE_H
#define MEMTRACER_REPORT_TREND_TABLE_H

#include <string>
#include <vector>

#include "table.h"
#include "trend.h"  // fleet/src

namespace mt::report {

// `sources`: one clickhouse://host:port/db URL, or run.db files.
Table trend_table(const std::vector<std::string> &sources, const fleet::TrendQuery &q);

}  // namespace mt::report

#endif
