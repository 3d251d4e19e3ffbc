// exporter.h — finished runs from a run.db into ClickHouse (memtracer-export). A run's rows
// carry its labels and a run key (a hash of what identifies the capture), and one export id per
// attempt; its `runs` row is written last and every query starts from it, joining the other
// tables on (run_key, export_id): a half-exported run is never visible, and what a failed
// attempt left is never read. A run whose key is already in `runs` is skipped (re-export is a
// no-op).
#ifndef MEMTRACER_FLEET_EXPORTER_H
#define MEMTRACER_FLEET_EXPORTER_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "schema.h"

namespace mt::fleet {

// The labels a fleet groups runs by; empty ones come from the capture (project: the process,
// platform: the OS, build: the build id, device: the device, night: the capture's UTC date).
struct Labels {
    std::string project, platform, build, device, night;  // night: YYYY-MM-DD
};

struct ExportResult {
    int64_t run = 0;          // the run in the database
    uint64_t run_key = 0;
    int64_t fleet_run_id = 0;  // its id in ClickHouse
    bool skipped = false;      // already there
    int64_t rows = 0;          // rows sent
};

// Exports every run of `db_path` (or only `run`), calling `done` per run. Throws on the first
// failure (ClickHouseError names the URL); runs already done stay exported.
void export_database(Layout &l, const std::string &db_path, const Labels &labels, std::optional<int64_t> run,
                     const std::function<void(const ExportResult &)> &done);

// The 64-bit content key of a list of fields (FNV-1a over length-prefixed fields): the same on
// every machine, for classes, sites, stacks, addresses and runs.
uint64_t content_key(std::initializer_list<std::string_view> fields);

// "2026-11-20": the UTC date of a capture that started at `unix_ns` (a run's default night).
std::string utc_date(int64_t unix_ns);

}  // namespace mt::fleet

#endif
