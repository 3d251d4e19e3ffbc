// follow_main.h — the --follow mode of memtracer-symbolize (follow_main.cpp).
#ifndef MEMTRACER_SYM_FOLLOW_MAIN_H
#define MEMTRACER_SYM_FOLLOW_MAIN_H

#include <string>

#include "cli.h"
#include "memtracer/symbolizer/progress.h"
#include "memtracer/symbolizer/symbolizer.h"

namespace mt::sym {

// Follows o.inputs[0] into o.output; returns the exit status. Errors are said through `progress`.
int run_follow(const CliOptions &o, Symbolizer &sym, Progress &progress);

}  // namespace mt::sym

#endif
