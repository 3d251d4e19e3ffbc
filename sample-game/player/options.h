// options.h — the sample game's command line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mtsample {

struct Options {
    uint64_t frames = 300;
    uint32_t workers = 2;
    uint32_t jobs = 8;               // C# jobs per frame, spread over the workers
    uint64_t seed = 1;
    std::string out = "run.mt";
    std::string mode = "events";     // events | aggregate
    std::string unwinder = "fp";     // fp | libunwind
    uint64_t sample_bytes = 0;
    bool trace = true;
    std::string hook = "patch";      // patch | profiler
    std::string tracer_start = "after-init";  // after-init | before-init (as a plug-in loaded first)
    bool gc_events = false;
    bool lifetimes = false;
    uint32_t ring_bytes = 0;         // 0: the runtime's default
    bool block_when_full = false;    // MT_ON_FULL_BLOCK instead of dropping
    bool quiet = false;
    std::string expect_json;         // where to write the game's own per-frame tally
    std::string game_lib;            // GameAssembly library; default next to the executable
    std::string runtime = "separate";  // separate (own library, RTLD_LOCAL) | in-game (one image)
    std::string runtime_lib;         // the separate runtime library; default: the build's
    uint64_t leak_from = UINT64_MAX; // --leak-from N: from frame N on, one Single[1024] a frame is kept forever
    uint32_t alloc_permille = 1000;  // --alloc-scale F: F x the game's work (and allocations) per frame
    std::string listen, connect, token;  // live capture (mt_config live_*; docs/live.md)
    uint32_t fps = 0;                // 0: as fast as it can; N: frames paced to N per second
};

// Game ticks (Update + jobs + LateUpdate) to run in traced frame `frame` so that frames 0..n-1
// together run floor(n * F) ticks: 1.2 runs 1,1,1,1,2, ... Exact, in integers.
uint64_t ticks_in_frame(uint32_t alloc_permille, uint64_t frame);

// Fills `o` from argv; returns the exit status when parsing ends the program: --help, --version
// (0) or a usage error (1, said on stderr with the argument and why).
std::optional<int> parse_options(int argc, char **argv, Options &o);
const char *usage();

}  // namespace mtsample
