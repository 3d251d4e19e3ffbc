// bench_cli.h — whole command-line runs for the symbolizer benchmark: a child's wall time, CPU
// time and peak resident set, ours and llvm-symbolizer measured alike. The child runs under
// /usr/bin/time, which forks it from its own small process: a child spawned from this (large)
// benchmark directly reports the benchmark's own peak as its ru_maxrss (Linux carries the
// high-water mark of the address space it replaces across exec, and posix_spawn's child shares
// ours until then), and RUSAGE_CHILDREN gives the largest of all children so far.
#pragma once

#include <string>
#include <vector>

namespace mt::bench {

struct CliRun {
    double wall_s = 0;
    double cpu_s = 0;          // user + system of the child
    double peak_rss_mib = 0;   // ru_maxrss
};

// Runs argv with stdin from `stdin_path` ("" = /dev/null) and stdout to /dev/null; throws if it
// cannot start or exits non-zero.
CliRun run_cli(const std::vector<std::string> &argv, const std::string &stdin_path = "");

}  // namespace mt::bench
