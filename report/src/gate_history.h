// gate_history.h — `memtracer-report gate last:N NEW --history SRC...`: the baseline is the
// median of the last N comparable runs (same project, platform and device as NEW, another build,
// not after NEW's night, in build order) from ClickHouse or run.db files, instead of one file.
#ifndef MEMTRACER_REPORT_GATE_HISTORY_H
#define MEMTRACER_REPORT_GATE_HISTORY_H

#include <memtracer/viewer/fleet_backend.h>

#include "compare.h"

namespace mt::report {

// "last:N" -> N (1..1000), 0 for anything else (a file); a bad N is a ReportError.
int64_t last_n(const std::string &baseline);

// The baseline side: per group and the total, the median over the runs of each metric per frame.
Side history_side(viewer::FleetBackend &b, Source &now, const Query &q, int64_t n);

}  // namespace mt::report

#endif
