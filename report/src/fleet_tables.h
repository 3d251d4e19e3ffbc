// fleet_tables.h — memtracer-report's cross-run commands over one clickhouse:// URL or run.db
// files (both give the same table: the query layer's fleet.h computes them over either):
// trend, fleet-top, growth, diff-flame.
#ifndef MEMTRACER_REPORT_FLEET_TABLES_H
#define MEMTRACER_REPORT_FLEET_TABLES_H

#include <memory>
#include <string>
#include <vector>

#include <memtracer/viewer/fleet.h>

#include "table.h"

namespace mt::report {

// The sources as a cross-run backend; a bad mix or file is a ReportError.
std::unique_ptr<viewer::FleetBackend> open_sources(const std::vector<std::string> &sources);


Table trend_table(viewer::FleetBackend &b, const viewer::TrendQuery &q);
Table fleet_top_table(viewer::FleetBackend &b, const viewer::FleetTopQuery &q);
Table growth_table(viewer::FleetBackend &b, const viewer::GrowthQuery &q);
// `format`: json (the tree), collapsed (difffolded lines) or speedscope.
std::string diff_flame_text(viewer::FleetBackend &b, const viewer::DiffFlameQuery &q, const std::string &format);

}  // namespace mt::report

#endif
