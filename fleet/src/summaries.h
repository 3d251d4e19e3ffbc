// summaries.h — the per-run summaries (run_site_sums, run_class_sums: schema.cpp) of runs that
// an earlier memtracer-export wrote before those tables existed. Such a run is visible (its run
// row exists) and has run_class_stack rows but no summary rows, so the trend, fleet top and
// growth, which read only the summaries, would leave it out. The writer fills them (create_schema
// calls backfill_summaries); the readers refuse such a database with a message saying to run
// `memtracer-export --upgrade` once (docs/clickhouse.md).
#ifndef MEMTRACER_FLEET_SUMMARIES_H
#define MEMTRACER_FLEET_SUMMARIES_H

#include <cstdint>

#include "clickhouse.h"

namespace mt::fleet {

// Fills the summaries of every visible run that has none, from its run_class_stack and classes
// rows, with INSERT ... SELECT on the server: the same rows the exporter writes for a new run.
// A run that has them is untouched, so a second call adds nothing. Returns how many runs were
// missing a summary table's rows (a run with no run_class_stack rows counts but gets none).
int64_t backfill_summaries(ClickHouse &c);

// Throws std::runtime_error naming the database when a visible run with run_class_stack rows has
// no summaries (or the summary tables do not exist), saying how to fill them.
void require_summaries(ClickHouse &c);

}  // namespace mt::fleet

#endif
