// ch_fleet.h — the query layer's cross-run seam (memtracer/viewer/fleet_backend.h) over the runs
// memtracer-export wrote to ClickHouse, one server or a cluster's Distributed tables: the SQL
// lives here, outside the query layer, and gives the same sums as the run.db files. Every query
// starts from the runs' own rows (written last), so a half-exported run is never read.
#ifndef MEMTRACER_FLEET_CH_FLEET_H
#define MEMTRACER_FLEET_CH_FLEET_H

#include <memory>

#include <memtracer/viewer/fleet_backend.h>

#include "clickhouse.h"

namespace mt::fleet {

std::unique_ptr<viewer::FleetBackend> open_clickhouse_fleet(const ClickHouseUrl &url);

// One clickhouse:// URL or run.db files (not both: std::invalid_argument saying so).
std::unique_ptr<viewer::FleetBackend> open_fleet(const std::vector<std::string> &sources);

}  // namespace mt::fleet

#endif
