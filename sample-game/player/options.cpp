// options.cpp — strict parsing: every value is checked, and an error names the argument.
#include "options.h"

#include <charconv>
#include <cstring>

namespace mtsample {

namespace {

bool parse_u64(const char *text, uint64_t max, uint64_t &out) {
    const char *end = text + std::strlen(text);
    auto [p, ec] = std::from_chars(text, end, out);
    return ec == std::errc() && p == end && p != text && out <= max;
}

}  // namespace

const char *usage() {
    return "usage: memtracer-sample-game [--frames N] [--workers N] [--jobs N] [--seed S] [--out run.mt]\n"
           "       [--mode events|aggregate] [--unwinder fp|libunwind] [--sample-bytes N] [--no-trace]\n"
           "       [--hook patch|profiler] [--gc-events] [--lifetimes] [--ring-bytes N] [--block-when-full]\n"
           "       [--quiet] [--expect-json FILE] [--game-lib PATH] [--runtime separate|in-game]\n"
           "       [--runtime-lib PATH] [--listen ADDR | --connect ADDR] [--token T] [--fps N]\n";
}

std::optional<Options> parse_options(int argc, char **argv, std::string &error) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&](const char *&v) {
            if (i + 1 >= argc) {
                error = arg + ": needs a value";
                return false;
            }
            v = argv[++i];
            return true;
        };
        auto number = [&](uint64_t max, uint64_t &out) {
            const char *v;
            if (!value(v)) return false;
            if (!parse_u64(v, max, out)) {
                error = arg + ": '" + v + "' is not a whole number in [0, " + std::to_string(max) + "]";
                return false;
            }
            return true;
        };
        auto choice = [&](std::string &out, const char *a, const char *b) {
            const char *v;
            if (!value(v)) return false;
            if (std::strcmp(v, a) != 0 && std::strcmp(v, b) != 0) {
                error = arg + ": '" + v + "' is not " + a + " or " + b;
                return false;
            }
            out = v;
            return true;
        };
        uint64_t n = 0;
        const char *v = nullptr;
        bool ok = true;
        if (arg == "--help" || arg == "-h") {
            error = "help";
            return std::nullopt;
        }
        if (arg == "--frames") ok = number(10'000'000, o.frames);
        else if (arg == "--workers") { ok = number(64, n); o.workers = static_cast<uint32_t>(n); }
        else if (arg == "--jobs") { ok = number(1024, n); o.jobs = static_cast<uint32_t>(n); }
        else if (arg == "--seed") ok = number(UINT64_MAX, o.seed);
        else if (arg == "--out") { ok = value(v); if (ok) o.out = v; }
        else if (arg == "--mode") ok = choice(o.mode, "events", "aggregate");
        else if (arg == "--unwinder") ok = choice(o.unwinder, "fp", "libunwind");
        else if (arg == "--sample-bytes") ok = number(UINT64_MAX, o.sample_bytes);
        else if (arg == "--no-trace") o.trace = false;
        else if (arg == "--hook") ok = choice(o.hook, "patch", "profiler");
        else if (arg == "--gc-events") o.gc_events = true;
        else if (arg == "--lifetimes") o.lifetimes = true;
        else if (arg == "--ring-bytes") { ok = number(UINT32_MAX, n); o.ring_bytes = static_cast<uint32_t>(n); }
        else if (arg == "--block-when-full") o.block_when_full = true;
        else if (arg == "--quiet") o.quiet = true;
        else if (arg == "--expect-json") { ok = value(v); if (ok) o.expect_json = v; }
        else if (arg == "--game-lib") { ok = value(v); if (ok) o.game_lib = v; }
        else if (arg == "--runtime") ok = choice(o.runtime, "separate", "in-game");
        else if (arg == "--runtime-lib") { ok = value(v); if (ok) o.runtime_lib = v; }
        else if (arg == "--listen") { ok = value(v); if (ok) o.listen = v; }
        else if (arg == "--connect") { ok = value(v); if (ok) o.connect = v; }
        else if (arg == "--token") { ok = value(v); if (ok) o.token = v; }
        else if (arg == "--fps") { ok = number(1000, n); o.fps = static_cast<uint32_t>(n); }
        else {
            error = arg + ": unknown option";
            return std::nullopt;
        }
        if (!ok) return std::nullopt;
    }
    if (o.jobs == 0) {
        error = "--jobs: must be at least 1";
        return std::nullopt;
    }
    return o;
}

}  // namespace mtsample
