// queries.h — named queries more than one part of MemTracer asks, so their SQL is written once,
// here, next to the schema they depend on.
#ifndef MEMTRACER_STORE_QUERIES_H
#define MEMTRACER_STORE_QUERIES_H

#include <cstdint>
#include <optional>
#include <string>

#include "memtracer/store/db.h"

namespace mt::store {

// The run the symbolizer added last for the run.mt at `source_file` (it records the path as
// given), or nullopt when the database holds none. Opens `db_path` read-only. Throws Error.
std::optional<int64_t> newest_run_for_source(const std::string &db_path, const std::string &source_file);

// How many runs the database holds; throws Error when it has no `runs` table (the cheapest proof
// that a file is a MemTracer database before serving it).
int64_t run_count(Db &db);

// What parts of today's schema a database has: older files lack some columns and tables, and a
// reader answers without each part rather than failing. Read once per connection (one query per
// table), replacing a probe per request.
struct Features {
    bool markers = false;          // the markers table
    bool live_state = false;       // runs.live_state (--follow)
    bool thread_split = false;     // runs.thread_split
    bool alloc_threads = false;    // allocs.thread_id (schema version 2)
    bool death_sites = false;      // the death_sites table
    bool survivor_frames = false;  // survivors.frames
    bool machinery = false;        // stacks.machinery
};
Features read_features(Db &db);

// A long-lived read connection (the viewer's, one per thread): a 64 MiB page cache. Best effort.
void tune_reader(Db &db);

}  // namespace mt::store

#endif
