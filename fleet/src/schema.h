// schema.h — MemTracer's tables in ClickHouse (docs/clickhouse.md). Per-run tables carry the
// run's labels and keys in front (project, platform, build, device, night, run_key, export_id),
// are partitioned by month of the night and ordered by project/platform/build/device, and keep
// the capture's run-local ids (class_id, stack_id, seq). Classes, sites, stacks and addresses
// are also stored once per content key (the *_dict tables), so one build's stacks are stored
// once for every device and night. The columns of the per-run tables are store/'s own
// (store/schema.sql, read from an in-memory database), so the two never drift.
#ifndef MEMTRACER_FLEET_SCHEMA_H
#define MEMTRACER_FLEET_SCHEMA_H

#include <cstdint>
#include <string>
#include <vector>

#include "clickhouse.h"

namespace mt::fleet {

struct Column {
    std::string name, type;  // ClickHouse type
    std::string source{};    // store/'s column when it differs (runs.device: `device` is the label)
    const std::string &from() const { return source.empty() ? name : source; }
};
struct Table {
    std::string name;
    std::vector<Column> columns;  // what is inserted, in order
    std::string engine;           // MergeTree() or ReplacingMergeTree()
    std::string partition, order;
    bool per_run = true;  // leads with the run's label and key columns
    bool from_store = true;  // store/'s table of the same name (not a fleet summary or dictionary)
};

// Every table the exporter writes, the run's own `runs` row last in the list.
const std::vector<Table> &tables();
const Table &table(const std::string &name);

// Where the tables go: one server, or shards behind Distributed tables of `cluster` (each
// shard's *_local tables, the Distributed ones on the first URL).
struct Layout {
    ClickHouse entry;
    std::vector<ClickHouse> shards;  // empty: one server
    std::string cluster;
};
// CREATE DATABASE / TABLE IF NOT EXISTS for the layout (a table an earlier version did not have
// is created in an existing database), then the summaries of runs exported before them are
// filled (summaries.h). Idempotent. Returns how many runs had no summaries.
int64_t create_schema(Layout &l);

}  // namespace mt::fleet

#endif
