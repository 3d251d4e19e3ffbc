// memtracer-dump: prints what a run.mt holds and how it ended. See usage() for the exit codes.
#include "printers.h"
#include "summary.h"

#include <memtracer/cli.h>

#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr int kExitOk = 0, kExitUsage = 1, kExitUnreadable = 2, kExitCorrupt = 3;

const char kUsage[] =
    "usage: memtracer-dump run.mt [--json] [--frames N | --all-frames] [--events]\n"
    "\n"
    "Prints a MemTracer capture: the file header (format version, start time, pid, arch, mode,\n"
    "sampling, flags), the INFO entries, modules (path, load address, size, bias, build id),\n"
    "threads, classes, one row per committed frame (seq, index, duration, events, requested\n"
    "bytes, GC bytes, dropped, heap, GCs, deaths) with totals, the runtime's counters, and how\n"
    "the file ended: end (stopped cleanly), eof (no END chunk: killed between writes or still\n"
    "running), truncated (killed mid-write) or corrupt, with the offset and the reason.\n"
    "\n"
    "  --json         one JSON document with the same content, on stdout\n"
    "  --frames N     show the first N committed frames (default 20); totals cover all frames\n"
    "  --all-frames   show every committed frame\n"
    "  --events       also list each shown frame's events, aggregates, GCs and deaths\n"
    "  -h, --help     this text\n"
    "  --version      the MemTracer version\n"
    "\n"
    "Exit status:\n"
    "  0  the file was read to its end: end, eof, or truncated (truncated and eof also print a\n"
    "     warning on stderr; every committed frame is shown)\n"
    "  1  usage error\n"
    "  2  the file cannot be read at all: missing, not a regular file (a FIFO or device is\n"
    "     refused before any read), not a run.mt, unknown format version, or a damaged file\n"
    "     header (message on stderr, nothing on stdout)\n"
    "  3  the file is corrupt after its header (a damaged chunk, or intact chunks that\n"
    "     contradict each other or the header, such as a duplicated EVENTS chunk): everything\n"
    "     before the damage is printed first, then the damage is reported on stderr\n";

// Returns the exit code when parsing ends the program (help, --version or a usage error).
std::optional<int> parse_args(int argc, char **argv, mt::dump::Options &o) {
    mt::cli::Parser cli({"memtracer-dump", "run.mt [--json] [--frames N | --all-frames] [--events]", kExitUsage, kUsage});
    std::vector<std::string> paths;
    bool all_frames = false;
    CLI::App &app = cli.app();
    app.add_option("run.mt", paths, "the capture to print");
    app.add_flag("--json", o.json, "one JSON document on stdout");
    app.add_option("--frames", o.frames, "show the first N committed frames")->check(CLI::Validator(
        [](std::string &v) {
            bool ok = !v.empty() && v.size() <= 18 && v.find_first_not_of("0123456789") == std::string::npos;
            return ok ? std::string() : "'" + v + "' is not a number of frames";
        }, "N"));
    app.add_flag("--all-frames", all_frames, "show every committed frame");
    app.add_flag("--events", o.events, "also list each shown frame's events");
    if (auto code = cli.parse(argc, argv)) return code;
    if (all_frames) o.frames = UINT64_MAX;
    if (paths.empty()) return cli.usage_error("no run.mt given");
    if (paths.size() > 1) return cli.usage_error("one file at a time ('" + paths[0] + "' and '" + paths[1] + "' given)");
    o.path = paths[0];
    return std::nullopt;
}

int report_end(const mt::reader::ReadResult &r) {
    using mt::reader::Stop;
    std::string kept = " (the " + std::to_string(r.frames) + " frames committed before it are shown)\n";
    if (r.stop == Stop::Corrupt) {
        std::cerr << "memtracer-dump: error: corrupt file: " << r.stop_reason << kept;
        return kExitCorrupt;
    }
    if (r.stop == Stop::Truncated) std::cerr << "memtracer-dump: warning: truncated file: " << r.stop_reason << kept;
    if (r.stop == Stop::Eof) std::cerr << "memtracer-dump: warning: " << r.stop_reason << "\n";
    return kExitOk;
}

}  // namespace

int main(int argc, char **argv) {
    mt::dump::Options opts;
    if (auto code = parse_args(argc, argv, opts)) return *code;
    mt::dump::Summary summary;
    try {
        mt::dump::SummaryCollector collector(summary, opts);
        summary.result = mt::reader::read_file(opts.path, collector);
    } catch (const mt::reader::FormatError &e) {
        return mt::cli::fail("memtracer-dump", e, kExitUnreadable);
    }
    if (opts.json)
        mt::dump::print_json(summary, opts, std::cout);
    else
        mt::dump::print_text(summary, opts, std::cout);
    std::cout.flush();
    return report_end(summary.result);
}
