// filter.h — the one filter every endpoint that lists allocations takes: class (substring of the
// full name), "stack contains function" (substring of a frame's C#, demangled or raw name), and
// thread. Parsed once per request into a struct that renders one SQL condition over a table with
// `class_id`, `stack_id` and `thread_id` columns (allocs, run_class_stack, death_sites, survivors):
// the backend (backend.h) renders it from AllocFilter in its own dialect. The frame range stays in model.h's Range: every endpoint already reads it.
//
// thread: a comma-separated list of thread ids or names; a name matches every thread of the run
// with exactly that name, ASCII case-insensitive (several job workers may share one). A thread the
// run does not have is a 400 listing the run's threads; so is a run whose allocation rows are not
// split per thread (runs.thread_split 0: symbolized before schema version 2 or with --no-threads,
// or an aggregate-mode capture), since answering unfiltered would be wrong.
#ifndef MEMTRACER_VIEWER_FILTER_H
#define MEMTRACER_VIEWER_FILTER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memtracer/json.h"
#include "model.h"
#include "memtracer/viewer/backend.h"

namespace mt::viewer {

// kind: "native" (classes flagged MT_CLASS_NATIVE: a native heap's allocations, e.g. ITT heap
// functions, docs/itt.md) or "managed" (every other class: C# objects).
//
// The parameter names, for each endpoint's Params list.
#define MT_FILTER_PARAMS "class", "function", "thread", "kind"

struct Filter : AppliedFilter {
    int64_t run = 0;
    // What the backend reads with: needles lowercased (ASCII, as SQLite's lower()), thread ids.
    AllocFilter alloc() const;
};

// Reads class/function/thread for `run`. 400s name the parameter: an empty or over-long value,
// a thread the run does not have, or a thread filter on a database that cannot answer it.
Filter parse_filter(const Params &p, Database &db, const RunRow &run);
// "filter": {...} when active (answers without a filter are unchanged).
void write_filter(Json &j, const AppliedFilter &f);

// class_stacks() under a filter (the same as class_stacks when inactive).
std::vector<ClassStack> filtered_class_stacks(Database &db, const RunRow &run, const Range &r, const Filter &f);
// Whether the database's allocation tables have thread_id (schema version 2); a version-1 file
// has not, and every row is then "all threads".
bool has_thread_column(Database &db);
// Per frame totals of [from, to] under an active filter, index = seq - from.
std::vector<Totals> filtered_frame_totals(Database &db, const RunRow &run, int64_t from, int64_t to,
                                          const Filter &f);

}  // namespace mt::viewer

#endif
