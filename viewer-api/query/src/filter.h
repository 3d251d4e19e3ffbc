// filter.h — the one filter every endpoint that lists allocations takes: class (substring of the
// full name), "stack contains function" (substring of a frame's C#, demangled or raw name), and
// thread. Parsed once per request into a struct that renders one SQL condition over a table with
// `class_id` and `stack_id` columns (allocs, run_class_stack) and binds its own values. The frame
// range stays in model.h's Range: every endpoint already reads it.
#ifndef MEMTRACER_VIEWER_FILTER_H
#define MEMTRACER_VIEWER_FILTER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.h"
#include "model.h"
#include "sqlite.h"

namespace mt::viewer {

// The parameter names, for each endpoint's Params list.
#define MT_FILTER_PARAMS "class", "function", "thread"

struct Filter {
    int64_t run = 0;
    std::string cls;       // as given (echoed); matched lowercased, ASCII case-insensitive
    std::string function;  // as given
    std::optional<int64_t> thread_id;

    bool active() const { return !cls.empty() || !function.empty() || thread_id.has_value(); }
    // " AND class_id IN (...) AND stack_id IN (...)" with placeholders ?first, ?first+1, ...;
    // "" when inactive. Constant per combination of active parts, so the statement cache holds
    // at most a few variants per query.
    std::string sql(int first) const;
    // Binds what sql(first) placed; returns the next free placeholder index.
    int bind(Stmt &s, int first) const;
};

// Reads class/function/thread for `run`. 400s name the parameter: an empty or over-long value,
// a thread the run does not have, or a thread filter on a database that cannot answer it.
Filter parse_filter(const Params &p, Database &db, const RunRow &run);
// "filter": {...} when active (answers without a filter are unchanged).
void write_filter(Json &j, const Filter &f);

// class_stacks() under a filter (the same as class_stacks when inactive).
std::vector<ClassStack> filtered_class_stacks(Database &db, const RunRow &run, const Range &r, const Filter &f);
// Per frame totals of [from, to] under an active filter, index = seq - from.
std::vector<Totals> filtered_frame_totals(Database &db, const RunRow &run, int64_t from, int64_t to,
                                          const Filter &f);

}  // namespace mt::viewer

#endif
