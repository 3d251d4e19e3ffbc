// results.h — what memtracer_symbolizer reports of an ingest (Symbolizer::ingest/follow): the
// run's totals, the symbolization counts and the time of each phase, for the tool's summary line.
#ifndef MEMTRACER_SYM_RESULTS_H
#define MEMTRACER_SYM_RESULTS_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "memtracer/reader.h"

namespace mt::sym {

struct RunTotals {
    uint64_t frames = 0, events = 0, alloc_count = 0, requested_bytes = 0, gc_bytes = 0, dropped = 0, gc_count = 0;
    uint64_t first_tick = 0, last_tick = 0;
    bool any_frame = false;
};

struct SymbolizeStats {
    uint64_t addresses = 0;        // distinct addresses the run uses inside modules
    uint64_t cache_hits = 0;       // already answered, and this run's file cannot do better (needs_symbolizing)
    uint64_t no_symbols = 0;       // in modules without a symbol file (kept as module+offset)
    uint64_t sent_to_backend = 0;  // addresses the backend was asked about
    uint64_t backend_calls = 0;    // Backend::symbolize invocations
    uint64_t unknown = 0;          // answers with no function
    uint64_t without_debug_info = 0;  // answers from the symbol table only, by files that have debug info
    double backend_seconds = 0;
};

struct InputResult {
    int64_t run_id = 0;
    mt::reader::Stop stop = mt::reader::Stop::End;
    std::string stop_reason;
    RunTotals totals;
    SymbolizeStats symbols;
    uint64_t stacks = 0, frame_addresses = 0, outside_modules = 0;
    size_t modules_with_symbols = 0;
    double read_seconds = 0;       // reading run.mt: dictionaries, frames, allocations
    double resolve_seconds = 0;    // each stack frame to its cached address (new rows interned)
    double symbolize_seconds = 0;  // the backend on what the cache lacks, symbols rows
    double finish_seconds = 0;     // stack_frames, sites, stacks, totals, indexes, commit
    double resolve_cpu_seconds = 0, symbolize_cpu_seconds = 0;  // CPU of this process (all threads)
};

}  // namespace mt::sym

#endif
