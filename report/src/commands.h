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
    std::optional<int64_t> from, to;  // frame (seq) range; absent: the run's first / last
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

// "?from=1&to=9&group=site&limit=20&thread=..." for the set members of q (and `extra`, already encoded).
std::string query_string(const Query &q, const std::string &extra = "");

}  // namespace mt::report

#endif
