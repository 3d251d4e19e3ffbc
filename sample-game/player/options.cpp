// options.cpp — strict parsing on the host tools' CLI11 setup: every value is checked, and an
// error names the argument.
#include "options.h"

#include <memtracer/cli.h>

#include <charconv>
#include <cmath>

namespace mtsample {

namespace {

// A decimal such as 1.2 with at most three decimals, in (0, 10], as thousandths.
bool parse_permille(const std::string &text, uint32_t &out) {
    const char *b = text.data(), *e = b + text.size();
    double v = 0;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e || p == b || !(v > 0) || v > 10) return false;
    const double m = v * 1000;
    if (std::fabs(m - std::round(m)) > 1e-6 || std::round(m) < 1) return false;
    out = static_cast<uint32_t>(std::round(m));
    return true;
}

}  // namespace

uint64_t ticks_in_frame(uint32_t alloc_permille, uint64_t frame) {
    return ((frame + 1) * alloc_permille) / 1000 - (frame * alloc_permille) / 1000;
}

const char *usage() {
    return "usage: memtracer-sample-game [--frames N] [--workers N] [--jobs N] [--seed S] [--out run.mt]\n"
           "       [--mode events|aggregate] [--unwinder fp|libunwind] [--sample-bytes N] [--no-trace]\n"
           "       [--hook patch|profiler] [--tracer-start after-init|before-init] [--gc-events] [--lifetimes] [--ring-bytes N] [--block-when-full]\n"
           "       [--quiet] [--expect-json FILE] [--game-lib PATH] [--runtime separate|in-game]\n"
           "       [--runtime-lib PATH] [--leak-from N] [--alloc-scale F]\n"
           "       [--listen ADDR | --connect ADDR] [--token T] [--fps N] [--version]\n";
}

std::optional<int> parse_options(int argc, char **argv, Options &o) {
    using mt::cli::one_of;
    using mt::cli::range;
    mt::cli::Parser cli({"memtracer-sample-game", "[options]", 1, usage()});
    CLI::App &app = cli.app();
    bool no_trace = false;
    std::string alloc_scale;
    app.add_option("--frames", o.frames, "frames to run")->check(range(0, 10'000'000));
    app.add_option("--workers", o.workers, "job worker threads")->check(range(0, 64));
    app.add_option("--jobs", o.jobs, "C# jobs per frame")->check(range(0, 1024));
    app.add_option("--seed", o.seed, "random seed")->check(range(0, UINT64_MAX));
    app.add_option("--out", o.out, "the run.mt to write");
    app.add_option("--mode", o.mode, "events|aggregate")->check(one_of({"events", "aggregate"}));
    app.add_option("--unwinder", o.unwinder, "fp|libunwind")->check(one_of({"fp", "libunwind"}));
    app.add_option("--sample-bytes", o.sample_bytes, "sampling interval")->check(range(0, UINT64_MAX));
    app.add_flag("--no-trace", no_trace, "run without the tracer");
    app.add_option("--hook", o.hook, "patch|profiler")->check(one_of({"patch", "profiler"}));
    app.add_option("--tracer-start", o.tracer_start, "start MemTracer after il2cpp_init or before it")
        ->check(one_of({"after-init", "before-init"}));
    app.add_flag("--gc-events", o.gc_events, "record collections");
    app.add_flag("--lifetimes", o.lifetimes, "record deaths");
    app.add_option("--ring-bytes", o.ring_bytes, "ring size; 0 = the runtime's default")->check(range(0, UINT32_MAX));
    app.add_flag("--block-when-full", o.block_when_full, "MT_ON_FULL_BLOCK instead of dropping");
    app.add_flag("--quiet", o.quiet, "no per-frame output");
    app.add_option("--expect-json", o.expect_json, "write the game's own tally here");
    app.add_option("--game-lib", o.game_lib, "the GameAssembly library");
    app.add_option("--runtime", o.runtime, "separate|in-game")->check(one_of({"separate", "in-game"}));
    app.add_option("--runtime-lib", o.runtime_lib, "the separate runtime library");
    app.add_option("--leak-from", o.leak_from, "from frame N on, one Single[1024] a frame is kept forever")
        ->check(range(0, 10'000'000));
    app.add_option("--listen", o.listen, "stream live to a host that connects here (docs/live.md)");
    app.add_option("--connect", o.connect, "stream live to a host listening at ADDR");
    app.add_option("--token", o.token, "the live host's token");
    app.add_option("--fps", o.fps, "pace frames to N per second; 0 = as fast as it can")->check(range(0, 1000));
    app.add_option("--alloc-scale", alloc_scale, "F x the game's work per frame, (0, 10], 3 decimals")
        ->check(CLI::Validator(
            [&o](std::string &v) {
                return parse_permille(v, o.alloc_permille)
                           ? std::string()
                           : "'" + v + "' is not a number in (0, 10] with at most three decimals";
            },
            "F"));
    if (auto code = cli.parse(argc, argv)) return code;
    o.trace = !no_trace;
    if (o.jobs == 0) return cli.usage_error("--jobs: must be at least 1");
    return std::nullopt;
}

}  // namespace mtsample
