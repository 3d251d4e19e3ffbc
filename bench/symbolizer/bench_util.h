// bench_util.h — small pieces of the symbolizer benchmark: timing, medians, run.mt writers and
// the llvm-symbolizer baselines.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "record.h"

namespace mt::bench {

inline double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double median(std::vector<double> v);
// CPU seconds (user + system) used so far by this process (all threads) or by its waited-for
// children: busy machines stretch wall time, CPU time shows the work itself.
double cpu_self();
double cpu_children();

// A run.mt whose stacks hold `addrs` (return addresses as file addresses of a module loaded at
// `bias`), depth 10, each stack allocated once.
void write_address_run(const std::string &path, const std::string &lib, const std::vector<uint8_t> &build_id,
                       uint64_t bias, uint64_t size, const std::vector<uint64_t> &return_addrs, uint64_t start_ns);

// A run.mt of `events` raw allocation events over `frames` frames, drawn from a skewed mix of
// `stacks` stacks and `classes` classes (as a game's allocation sites are), with GC events.
void write_event_run(const std::string &path, uint64_t events, uint64_t frames, uint32_t stacks, uint32_t classes);

// (a) one llvm-symbolizer process per address; returns the seconds of each process.
std::vector<double> per_process(const std::string &tool, const std::string &lib, const std::vector<uint64_t> &lookups);

// (b) one llvm-symbolizer process, every address through stdin; records parsed from its JSON.
double streaming(const std::string &tool, const std::string &lib, const std::vector<uint64_t> &lookups,
                 std::vector<mt::sym::SymbolRecord> *records);

}  // namespace mt::bench
