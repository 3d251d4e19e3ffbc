// bench_lifetimes: what MT_FLAG_LIFETIMES adds to each Boehm collection, against the number of
// live traced objects. For N live objects (10k, 100k, 1M by default) one capture with
// MT_FLAG_GC_EVENTS (the baseline) and one with MT_FLAG_GC_EVENTS | MT_FLAG_LIFETIMES each run
// `reps` full collections (GC_gcollect) over the same heap; printed: median collection time of
// both, the difference, the part spent between GC_EVENT_MARK_END and the end of our
// RECLAIM_START handler (the table scan; seen by a callback chained behind ours) and per-object
// figures. Nothing dies, so this is the steady cost of survivors; deaths add one buffer append.
#include <memtracer/cli.h>

#include <gc/gc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#include "memtracer/memtracer.h"

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point g_mark_end, g_reclaim_start;
void on_event(GC_EventType ev) {
    if (ev == GC_EVENT_MARK_END) g_mark_end = Clock::now();
    if (ev == GC_EVENT_RECLAIM_START) g_reclaim_start = Clock::now();  // runs after memtracer's handler
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Result {
    double gc_ms, scan_ms;
};

void **g_roots = nullptr;

__attribute__((noinline)) void alloc_live(size_t n) {
    g_roots = static_cast<void **>(GC_MALLOC_UNCOLLECTABLE(n * sizeof(void *)));
    for (size_t i = 0; i < n; ++i) {
        g_roots[i] = GC_MALLOC_ATOMIC(32);
        mt_on_alloc(g_roots[i], reinterpret_cast<void *>(0x1000 + (i % 8) * 64), 32);
    }
}

Result run(size_t n, uint32_t flags, int reps) {
    mt_config c;
    mt_config_init(&c);
    std::string path = "/tmp/bench_lifetimes_" + std::to_string(getpid()) + ".mt";
    c.output_path = path.c_str();
    c.flags = flags;
    c.mode = MT_MODE_AGGREGATE;  // the writer's per-event work is not what is measured here
    c.on_full = MT_ON_FULL_BLOCK;
    c.ring_capacity = 16u << 20;
    if (mt_start(&c) != MT_OK) {
        std::fprintf(stderr, "mt_start: %s\n", mt_last_error());
        std::exit(1);
    }
    alloc_live(n);
    mt_frame_end(0);
    GC_gcollect();  // settles the heap and, with lifetimes, drains everything into the table
    std::vector<double> gc, scan;
    for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        GC_gcollect();
        gc.push_back(ms(Clock::now() - t0));
        scan.push_back(ms(g_reclaim_start - g_mark_end));
        mt_frame_end(static_cast<uint64_t>(r + 1));
    }
    mt_stop();
    std::remove(path.c_str());
    GC_FREE(g_roots);
    g_roots = nullptr;
    GC_gcollect();
    return Result{median(gc), median(scan)};
}

}  // namespace

int main(int argc, char **argv) {
    int reps = 9;
    std::vector<size_t> sizes = {10000, 100000, 1000000};
    mt::cli::Parser cli({"bench_lifetimes", "[--reps N] [--sizes 10000,100000,...]", 2, ""});
    cli.app().add_option("--reps", reps, "runs per size (median)")->check(mt::cli::range(1, 1000000));
    cli.app().add_option("--sizes", sizes, "live objects per run")->delimiter(',');
    if (auto code = cli.parse(argc, argv)) return *code;
    setenv("GC_MARKERS", "1", 0);
    GC_INIT();
    GC_expand_hp(512u << 20);
    GC_set_on_collection_event(on_event);
    std::printf("%10s %14s %14s %12s %14s %14s %12s %12s\n", "live objs", "GC ms (base)", "GC ms (life)",
                "ratio", "added ms", "scan ms base", "scan ms life", "ns/obj scan");
    for (size_t n : sizes) {
        Result base = run(n, MT_FLAG_GC_EVENTS, reps);
        Result life = run(n, MT_FLAG_GC_EVENTS | MT_FLAG_LIFETIMES, reps);
        std::printf("%10zu %14.3f %14.3f %11.2fx %14.3f %14.3f %12.3f %12.1f\n", n, base.gc_ms, life.gc_ms,
                    life.gc_ms / base.gc_ms, life.gc_ms - base.gc_ms, base.scan_ms, life.scan_ms,
                    (life.scan_ms - base.scan_ms) * 1e6 / static_cast<double>(n));
    }
    return 0;
}
