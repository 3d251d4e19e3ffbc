// ch_backend.h — the per-run backend (viewer-api's backend.h) over the tables memtracer-export
// writes (schema.cpp): the viewer and the report serve `clickhouse://host:port/db` with the same
// compute and render code as a run.db, byte for byte (tests/fleet/test_backend.cpp). A run is
// the fleet's run id (runs.run_id); every read is keyed by its row's (run_key, export_id), so a
// half-exported run is never read.
//
// Split as the tables are: a run's dictionaries (classes, stacks with their frames and symbols,
// sites: thousands of rows) are read once per connection and run and answered from memory; the
// per-frame tables (frames, allocs, run_class_stack, death_sites, ...) are queried per call.
#ifndef MEMTRACER_FLEET_CH_BACKEND_H
#define MEMTRACER_FLEET_CH_BACKEND_H

#include <memory>
#include <string>

#include <memtracer/viewer/backend.h>

namespace mt::fleet {

// Connects to the URL's server and checks the database has the fleet tables. Throws
// std::runtime_error naming the URL when it cannot be reached or holds no runs table.
std::unique_ptr<viewer::RunBackend> open_clickhouse_backend(const std::string &url);

}  // namespace mt::fleet

#endif
