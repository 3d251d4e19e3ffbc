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

// A long-lived read connection (the viewer's, one per thread): a 64 MiB page cache. Best effort.
void tune_reader(Db &db);

}  // namespace mt::store

#endif
