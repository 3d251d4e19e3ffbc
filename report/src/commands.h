// commands.h — memtracer-report's subcommands, each a Table from the query layer's answers.
#ifndef MEMTRACER_REPORT_COMMANDS_H
#define MEMTRACER_REPORT_COMMANDS_H

#include <cstdint>
#include <optional>
#include <string>

#include "source.h"
#include "table.h"

namespace mt::report {

struct Query {
    // Range ends: a frame (seq) or "marker:LABEL" (the frame of the label's first mark, resolved
    // per run by the query layer); absent: the run's first / last. Checked by range_bound().
    std::optional<std::string> from, to;
    std::string group = "class";      // class | site | stack
    std::string by;                   // endpoint default when empty
    int64_t limit = 20;
    int64_t within = 1;               // temporaries
    std::string thread;               // allocating threads: ids or names, comma-separated; "" = all
    std::string kind;                 // "native", "managed" or "" (both)
};

// Thrown when a run cannot answer (no lifetimes): exit status 3 with the endpoint's note.
struct NoLifetimes : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Table top(Source &s, const Query &q);
Table frames(Source &s, const Query &q);
Table leaks(Source &s, const Query &q);
Table temporaries(Source &s, const Query &q);

// The query layer's typed pieces of q.
viewer::RangeSpec range_spec(const Query &q);
viewer::FilterSpec filter_spec(const Query &q);
// q as a TopN query of s's run (a bad --sort or --by: a ReportError from the query layer's check).
viewer::TopQuery top_query(Source &s, const Query &q, const viewer::Page &page);

// A --from/--to value as given: a frame number (digits) or marker:LABEL with a label; the value,
// or throws std::invalid_argument saying what is wrong.
std::string range_bound(const std::string &value);

}  // namespace mt::report

#endif
