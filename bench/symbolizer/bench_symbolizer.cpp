// bench_symbolizer — the symbolizer benchmark (docs/symbolizer.md has the table and the command).
// On the generated IL2CPP-like library and its call-site return addresses it times, in one run:
//   (a) one llvm-symbolizer process per address, on a sample, extrapolated
//   (b) one llvm-symbolizer process, every address through stdin (the baseline)
//   (c) memtracer-symbolize's builtin backend, cold (fresh database)
//   (d) the same run again: every address from the per-build cache
//   (e) ingest of a 10M-event capture
//   (f) whole command lines, each its own process: llvm-symbolizer (stdin from a file) against
//       memtracer-symbolize cold (fresh database) and warm (the same database again), wall time
//       and peak RSS of each child; with --baseline-cli also another build's memtracer-symbolize
// and checks that (c) agrees with (b) on every address (function, file, line, inline depth).
// Each timing is the median of --reps runs; ratios are against (b).
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include <memtracer/cli.h>

#include "backend.h"
#include "bench_cli.h"
#include "bench_util.h"
#include "memtracer/store/schema.h"
#include "object_info.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "memtracer/symbolizer/symbolizer.h"

using namespace mt::sym;
using namespace mt::bench;
namespace fs = std::filesystem;

namespace {

struct Args {
    std::string lib, addresses, workdir = "/tmp/mt-bench-symbolizer", tool = "llvm-symbolizer-19", cli, baseline_cli;
    size_t count = 400000, sample = 300;
    uint64_t events = 10000000, frames = 10000;
    int reps = 3;
    unsigned jobs = 2;
};

[[noreturn]] void die(const std::string &m) {
    fprintf(stderr, "bench_symbolizer: %s\n", m.c_str());
    exit(1);
}

Args parse(int argc, char **argv) {
    Args a;
    mt::cli::Parser cli({"bench_symbolizer", "--lib LIB --addresses FILE [--count N] ...", 1, ""});
    CLI::App &app = cli.app();
    app.add_option("--lib", a.lib, "the generated IL2CPP-like library")->required();
    app.add_option("--addresses", a.addresses, "its call-site return addresses")->required();
    app.add_option("--workdir", a.workdir, "scratch directory");
    app.add_option("--llvm-symbolizer", a.tool, "the llvm-symbolizer to compare with");
    app.add_option("--count", a.count, "addresses to symbolize");
    app.add_option("--sample", a.sample, "addresses for the one-process-each timing");
    app.add_option("--events", a.events, "events of the ingest capture");
    app.add_option("--frames", a.frames, "frames of the ingest capture");
    app.add_option("--reps", a.reps, "runs per timing (median)");
    app.add_option("--jobs", a.jobs, "symbolizer threads");
    app.add_option("--cli", a.cli, "memtracer-symbolize to time whole (default: the one beside this binary)");
    app.add_option("--baseline-cli", a.baseline_cli, "another build's memtracer-symbolize, timed in the same rounds");
    if (auto code = cli.parse(argc, argv)) exit(*code);
    if (a.cli.empty()) a.cli = (fs::read_symlink("/proc/self/exe").parent_path() / "memtracer-symbolize").string();
    return a;
}

std::vector<uint64_t> load_addresses(const Args &a) {
    std::ifstream in(a.addresses);
    std::vector<uint64_t> all;
    std::string tok;
    while (in >> tok) all.push_back(std::stoull(tok, nullptr, 16));
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    if (all.size() < a.count) die(a.addresses + " has " + std::to_string(all.size()) + " unique addresses, fewer than --count");
    std::shuffle(all.begin(), all.end(), std::mt19937_64(42));  // stacks mix addresses from all over
    all.resize(a.count);
    return all;
}

InputResult ingest_one(const std::string &db, const std::string &run, const Config &cfg) {
    Progress quiet(Progress::Style::Off);
    Symbolizer sym(cfg, quiet, [](const std::string &w) { fprintf(stderr, "warning: %s\n", w.c_str()); });
    auto odb = mt::store::open_database(db);
    InputResult r = sym.ingest(odb.db, run);
    mt::store::finish_database(odb.db);
    return r;
}

void remove_db(const std::string &p) { mt::store::remove_database(p); }

// Function, file, line and depth (what the targets name) and, separately, columns.
void agreement(const std::vector<SymbolRecord> &ours, const std::vector<SymbolRecord> &theirs, const std::vector<uint64_t> &lookups) {
    size_t differ = 0, column_differ = 0, inlined = 0;
    std::map<std::string, size_t> kinds;
    for (size_t i = 0; i < ours.size(); ++i) {
        const auto &a = ours[i], &b = theirs[i];
        inlined += a.frames.size() > 1;
        bool same = a.frames.size() == b.frames.size();
        bool same_cols = same;
        for (size_t k = 0; same && k < a.frames.size(); ++k) {
            same = a.frames[k].function == b.frames[k].function && a.frames[k].file == b.frames[k].file &&
                   a.frames[k].line == b.frames[k].line;
            same_cols = same_cols && a.frames[k].column == b.frames[k].column;
        }
        if (!same && ++differ <= 20) {
            printf("  differs at 0x%" PRIx64 ": builtin %zu frames (%s:%u), llvm-symbolizer %zu frames (%s:%u)\n", lookups[i],
                   a.frames.size(), a.frames.empty() ? "" : a.frames[0].function.c_str(), a.frames.empty() ? 0 : a.frames[0].line,
                   b.frames.size(), b.frames.empty() ? "" : b.frames[0].function.c_str(), b.frames.empty() ? 0 : b.frames[0].line);
        }
        column_differ += same && !same_cols;
    }
    printf("agreement with llvm-symbolizer: %zu/%zu addresses identical in function, file, line and inline depth "
           "(%.3f%%); %zu differ; %zu differ only in a column; %zu addresses have inlined frames\n",
           ours.size() - differ, ours.size(), 100.0 * static_cast<double>(ours.size() - differ) / static_cast<double>(ours.size()),
           differ, column_differ, inlined);
}

// (f): one build's memtracer-symbolize, cold then warm, against llvm-symbolizer's CLI time of the round.
struct CliSeries {
    std::string label, exe;
    std::vector<double> cold, warm, cold_rss, warm_rss, cold_ratio, cold_cpu, warm_cpu;
    void round(const Args &a, const std::string &run1, const std::string &run2, double tool_wall) {
        std::string db = a.workdir + "/cli.db";
        remove_db(db);
        std::vector<std::string> common = {"-o", db, "--elf", a.lib, "-j", std::to_string(a.jobs), "-q", "--no-progress"};
        auto argv = [&](const std::string &run) {
            std::vector<std::string> v = {exe, run};
            v.insert(v.end(), common.begin(), common.end());
            return v;
        };
        CliRun c = run_cli(argv(run1)), w = run_cli(argv(run2));
        cold.push_back(c.wall_s);
        cold_cpu.push_back(c.cpu_s);
        cold_rss.push_back(c.peak_rss_mib);
        cold_ratio.push_back(c.wall_s / tool_wall);
        warm.push_back(w.wall_s);
        warm_cpu.push_back(w.cpu_s);
        warm_rss.push_back(w.peak_rss_mib);
    }
    void print(double n, double tool_rss) const {
        printf("| %s | %.2f s (%.2f s CPU) | %.2fx | %.0f MiB (%.2fx) | %.3f s (%.2f s CPU) | %.0f | %.0f MiB |\n", label.c_str(),
               median(cold), median(cold_cpu), median(cold_ratio), median(cold_rss), median(cold_rss) / tool_rss, median(warm),
               median(warm_cpu), n / median(warm), median(warm_rss));
    }
};

}  // namespace

int main(int argc, char **argv) {
    // As memtracer-symbolize's main does (see there).
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 1 << 28);
    Args a = parse(argc, argv);
    fs::create_directories(a.workdir);
    ObjectInfo info = inspect_object(a.lib);
    const ObjectSlice &slice = info.slices.at(0);
    std::vector<uint64_t> ras = load_addresses(a);
    std::vector<uint64_t> lookups(ras.size());
    for (size_t i = 0; i < ras.size(); ++i) lookups[i] = ras[i] - 1;  // the -1 rule, as our tool applies it
    std::vector<uint64_t> sorted_lookups = lookups;
    std::sort(sorted_lookups.begin(), sorted_lookups.end());
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);
    printf("library: %s, %.1f MB, build id %s\naddresses: %zu unique call-site return addresses; %u jobs; %d reps; %ld CPUs; "
           "load average at start %.2f\n",
           a.lib.c_str(), static_cast<double>(fs::file_size(a.lib)) / 1e6, hex_id(slice.id).c_str(), ras.size(), a.jobs, a.reps,
           sysconf(_SC_NPROCESSORS_ONLN), load[0]);
    fflush(stdout);

    // (a) per process, on a sample
    std::vector<uint64_t> sample(sorted_lookups.begin(), sorted_lookups.begin() + std::min(a.sample, sorted_lookups.size()));
    std::shuffle(sample.begin(), sample.end(), std::mt19937_64(1));
    double per_proc = median(per_process(a.tool, a.lib, sample));
    double a_total = per_proc * static_cast<double>(ras.size());

    // (b), (c) and (d) take turns, so a change in the machine's load hits all of them alike;
    // ratios are taken per round, then the median.
    std::vector<double> b_runs, b_cpu;
    std::vector<SymbolRecord> theirs;

    // (c) cold and (d) warm, through the library exactly as the tool runs them
    uint64_t bias = 0x7f3a00000000, size = 0;
    for (uint64_t r : ras) size = std::max(size, r + 0x1000);
    std::string run1 = a.workdir + "/addresses-1.mt", run2 = a.workdir + "/addresses-2.mt";
    write_address_run(run1, a.lib, slice.id, bias, size, ras, 1);
    write_address_run(run2, a.lib, slice.id, bias, size, ras, 2);
    Config cfg;
    cfg.elfs = {a.lib};
    cfg.backend.jobs = a.jobs;
    std::string lookups_file = a.workdir + "/lookups.txt";
    {
        std::ofstream out(lookups_file);
        for (uint64_t l : sorted_lookups) out << hex_address(l) << '\n';
    }
    std::vector<double> f_wall, f_cpu, f_rss;
    std::vector<CliSeries> clis = {{"memtracer-symbolize, this build", a.cli, {}, {}, {}, {}, {}, {}, {}}};
    if (!a.baseline_cli.empty()) clis.push_back({"memtracer-symbolize, " + a.baseline_cli, a.baseline_cli, {}, {}, {}, {}, {}, {}, {}});
    std::vector<double> c_phase, c_backend, d_phase, c_total, d_total, c_cpu, d_cpu, c_phase_cpu, c_ratio, cb_ratio, d_ratio;
    for (int r = 0; r < a.reps; ++r) {
        double c0b = cpu_children();
        b_runs.push_back(streaming(a.tool, a.lib, sorted_lookups, r == 0 ? &theirs : nullptr));
        b_cpu.push_back(cpu_children() - c0b);
        std::string db = a.workdir + "/cache.db";
        remove_db(db);
        double c0 = cpu_self();
        InputResult cold = ingest_one(db, run1, cfg);
        double c1 = cpu_self();
        InputResult warm = ingest_one(db, run2, cfg);
        c_cpu.push_back(c1 - c0);
        d_cpu.push_back(cpu_self() - c1);
        if (cold.symbols.sent_to_backend != ras.size() || warm.symbols.cache_hits != ras.size() || warm.symbols.sent_to_backend)
            die("unexpected cache behaviour");
        c_phase.push_back(cold.resolve_seconds + cold.symbolize_seconds);
        c_phase_cpu.push_back(cold.resolve_cpu_seconds + cold.symbolize_cpu_seconds);
        c_ratio.push_back(c_phase.back() / b_runs.back());
        cb_ratio.push_back(cold.symbols.backend_seconds / b_runs.back());
        d_ratio.push_back((warm.resolve_seconds + warm.symbolize_seconds) / b_runs.back());
        c_backend.push_back(cold.symbols.backend_seconds);
        c_total.push_back(cold.read_seconds + cold.resolve_seconds + cold.symbolize_seconds + cold.finish_seconds);
        d_phase.push_back(warm.resolve_seconds + warm.symbolize_seconds);
        d_total.push_back(warm.read_seconds + warm.resolve_seconds + warm.symbolize_seconds + warm.finish_seconds);
        // (f) whole command lines, each build in turn after llvm-symbolizer's.
        CliRun t = run_cli({a.tool, "--obj=" + a.lib, "--output-style=JSON", "--no-demangle"}, lookups_file);
        f_wall.push_back(t.wall_s);
        f_cpu.push_back(t.cpu_s);
        f_rss.push_back(t.peak_rss_mib);
        for (CliSeries &c : clis) c.round(a, run1, run2, t.wall_s);
    }

    // Agreement: the builtin backend against llvm-symbolizer's answers from (b).
    auto ours = make_backend({BackendKind::Builtin, a.jobs, "", ""});
    SymbolFile f;
    f.path = a.lib;
    f.kind = info.kind;
    f.slice = slice;
    std::vector<SymbolRecord> mine = ours->symbolize(f, sorted_lookups, BackendContext{});

    // (e) ingest of allocation events (no symbol file: ingest alone)
    std::string events_run = a.workdir + "/events.mt";
    write_event_run(events_run, a.events, a.frames, 4000, 300);
    std::vector<double> e_runs, e_cpu;
    uint64_t e_rows = 0;
    for (int r = 0; r < a.reps; ++r) {
        std::string db = a.workdir + "/events.db";
        remove_db(db);
        double t0 = now_s(), c0 = cpu_self();
        InputResult res = ingest_one(db, events_run, Config{});
        e_runs.push_back(now_s() - t0);
        e_cpu.push_back(cpu_self() - c0);
        e_rows = res.totals.alloc_count;
    }
    double e = median(e_runs);

    double n = static_cast<double>(ras.size());
    double b = median(b_runs);
    printf("\n| step | median wall | addresses/s | vs (b), median per round | median CPU |\n|---|---:|---:|---:|---:|\n");
    printf("| (a) llvm-symbolizer, one process per address (%zu sampled: %.1f ms each), extrapolated | %.0f s | %.0f | %.0fx | |\n",
           sample.size(), per_proc * 1e3, a_total, 1 / per_proc, a_total / b);
    printf("| (b) llvm-symbolizer, one process, all addresses through stdin | %.2f s | %.0f | 1.00x | %.2f s |\n", b, n / b,
           median(b_cpu));
    printf("| (c) ours, cold: resolve + symbolize (%u jobs), symbols stored | %.2f s | %.0f | %.2fx | %.2f s |\n", a.jobs,
           median(c_phase), n / median(c_phase), median(c_ratio), median(c_phase_cpu));
    printf("|     builtin backend alone (inside (c)) | %.2f s | %.0f | %.2fx | |\n", median(c_backend), n / median(c_backend),
           median(cb_ratio));
    printf("|     whole ingest of that run (read, resolve, symbolize, stacks, sites, commit) | %.2f s | | | %.2f s |\n",
           median(c_total), median(c_cpu));
    printf("| (d) ours, warm (every address from the cache): resolve + symbolize | %.3f s | %.0f | %.3fx | |\n",
           median(d_phase), n / median(d_phase), median(d_ratio));
    printf("|     whole ingest of that run | %.2f s | | | %.2f s |\n", median(d_total), median(d_cpu));
    printf("| (e) ingest of %" PRIu64 " allocation events (%" PRIu64 " frames), whole tool run | %.2f s | %.1fM events/s | | %.2f s |\n",
           a.events, a.frames, e, static_cast<double>(a.events) / e / 1e6, median(e_cpu));
    printf("\ntargets (issue 22): (c) <= 0.30x (b): %s (%.2fx); (d) >= 1M addresses/s: %s (%.2fM/s); (e) <= 10 s: %s (%.2f s); "
           "(e) rows: %" PRIu64 " allocations counted\n",
           median(c_ratio) <= 0.30 ? "met" : "NOT met", median(c_ratio), n / median(d_phase) >= 1e6 ? "met" : "NOT met",
           n / median(d_phase) / 1e6, e <= 10 ? "met" : "NOT met", e, e_rows);
    printf("\n(f) whole command lines, each its own process (wall, CPU and peak RSS of the child; median of %d rounds):\n\n"
           "| command | cold wall | cold vs llvm-symbolizer, per round | cold peak RSS (vs llvm-symbolizer) | warm wall | warm addresses/s | warm peak RSS |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n",
           a.reps);
    printf("| llvm-symbolizer --obj=LIB < addresses > /dev/null | %.2f s (%.2f s CPU) | 1.00x | %.0f MiB | | | |\n", median(f_wall),
           median(f_cpu), median(f_rss));
    for (const CliSeries &c : clis) c.print(n, median(f_rss));
    const CliSeries &ours_cli = clis.front();
    printf("targets (issue 22, whole CLI): cold peak RSS <= llvm-symbolizer's: %s (%.0f / %.0f MiB); warm >= 1M addresses/s: %s (%.2fM/s)\n",
           median(ours_cli.cold_rss) <= median(f_rss) ? "met" : "NOT met", median(ours_cli.cold_rss), median(f_rss),
           n / median(ours_cli.warm) >= 1e6 ? "met" : "NOT met", n / median(ours_cli.warm) / 1e6);
    agreement(mine, theirs, sorted_lookups);
    getloadavg(load, 3);
    printf("load average at end %.2f\n", load[0]);
    return 0;
}
