// collector.h — the collector's state shared by its entry points (collector.cpp) and the ITT
// protocol glue (protocol.cpp). Internal to libmemtracer_itt.
#ifndef MEMTRACER_ITT_COLLECTOR_H
#define MEMTRACER_ITT_COLLECTOR_H

#include <atomic>
#include <stdint.h>

#include "itt_abi.h"

namespace mt::itt {

// What the collector counted; read by memtracer_itt_stats (tests) and said at exit.
struct Stats {
    std::atomic<uint64_t> frames{0};          // MemTracer frames ended from the chosen domain
    std::atomic<uint64_t> marks{0};           // marks handed to the runtime
    std::atomic<uint64_t> marks_dropped{0};   // marks the runtime's queue had no room for
    std::atomic<uint64_t> heap_allocs{0}, heap_frees{0};
    std::atomic<uint64_t> ignored{0};         // calls accepted and ignored (NULL arguments, unbalanced ends)
};
extern Stats g_stats;

// One entry of the static part's table this collector implements.
struct Entry {
    const char *name;  // "__itt_frame_end_v3"
    void *fn;
};
// Reads the settings and finds (and maybe starts) MemTracer; once, when the collector is loaded.
void collector_init();

// The implemented entry points, ended by {nullptr, nullptr}.
const Entry *entries();

}  // namespace mt::itt

#endif  // MEMTRACER_ITT_COLLECTOR_H
