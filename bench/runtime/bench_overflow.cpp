// bench_overflow — how long a game thread can be held by mt_on_alloc when its ring is full, in
// the default drop mode. Eight threads allocate in bursts far beyond their ring's capacity while
// the writer wakes rarely, and every call is timed. The same threads with rings large enough
// never to fill are the baseline measured in the same run: scheduling stalls (8 threads on the
// cores this machine has) show up in both, what the full ring adds shows up as the difference.
// Prints percentiles in nanoseconds; asserts nothing.
//
//   bench_overflow [--threads N] [--allocs N]
#include <memtracer/cli.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "memtracer/memtracer.h"

namespace {

int g_klass;

uint64_t now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

struct Result {
    std::vector<uint64_t> ns;     // every call but each thread's first, all threads
    uint64_t first_max = 0;       // slowest first call: binds a slot and maps the thread's ring
    mt_counters counters{};
};

// The first call of a thread is timed apart: it takes the slow path once (slot, ring mmap with
// pre-faulted pages), which is set-up, not waiting on a full ring.
__attribute__((noinline)) void burst(int allocs, std::vector<uint64_t> &out, uint64_t &first, uint64_t base) {
    out.reserve(allocs);
    for (int i = 0; i < allocs; ++i) {
        uint64_t t0 = now_ns();
        mt_on_alloc(reinterpret_cast<void *>(base + uint64_t(i) * 32), &g_klass, 48);
        uint64_t dt = now_ns() - t0;
        if (i == 0)
            first = dt;
        else
            out.push_back(dt);
    }
}

Result run(int threads, int allocs, uint32_t ring, uint32_t drain_us) {
    std::string path = "/tmp/bench_overflow." + std::to_string(getpid()) + ".mt";
    mt_config c;
    mt_config_init(&c);
    c.output_path = path.c_str();
    c.ring_capacity = ring;
    c.drain_interval_us = drain_us;
    c.max_threads = 64;
    if (mt_start(&c) != MT_OK) {
        fprintf(stderr, "bench_overflow: mt_start: %s\n", mt_last_error());
        exit(1);
    }
    std::vector<std::vector<uint64_t>> per(threads);
    std::vector<uint64_t> first(threads);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
        ts.emplace_back([&, t] { burst(allocs, per[t], first[t], 0x100000000ull * (t + 1)); });
    for (auto &t : ts) t.join();
    mt_frame_end(0);
    mt_stop();
    Result r;
    mt_get_counters(&r.counters);
    for (auto &v : per) r.ns.insert(r.ns.end(), v.begin(), v.end());
    r.first_max = *std::max_element(first.begin(), first.end());
    std::sort(r.ns.begin(), r.ns.end());
    unlink(path.c_str());
    return r;
}

uint64_t pct(const std::vector<uint64_t> &v, double p) { return v[std::min(v.size() - 1, size_t(p * v.size()))]; }

void row(const char *name, const Result &r) {
    printf("%-34s %8lu %8lu %8lu %9lu %10lu   %11lu   %9lu %9lu\n", name, pct(r.ns, 0.5), pct(r.ns, 0.99),
           pct(r.ns, 0.999), pct(r.ns, 0.9999), r.ns.back(), r.first_max, r.counters.events_recorded,
           r.counters.events_dropped);
}

}  // namespace

int main(int argc, char **argv) {
    int threads = 8, allocs = 200000;
    mt::cli::Parser cli({"bench_overflow", "[--threads N] [--allocs N]", 2, ""});
    cli.app().add_option("--threads", threads, "allocating threads")->check(mt::cli::range(1, 4096));
    cli.app().add_option("--allocs", allocs, "allocations per thread")->check(mt::cli::range(1, 1000000000));
    if (auto code = cli.parse(argc, argv)) return *code;
    printf("%d threads x %d allocations, drop mode, %u cores; ns per mt_on_alloc call (timer included)\n", threads,
           allocs, std::thread::hardware_concurrency());
    printf("%-34s %8s %8s %8s %9s %10s   %11s   %9s %9s\n", "", "p50", "p99", "p99.9", "p99.99", "max",
           "first call", "recorded", "dropped");
    // Baseline first and last, so a change in machine load during the run shows.
    Result base1 = run(threads, allocs, 64u << 20, 2000);
    Result full = run(threads, allocs, 16u << 10, 500000);
    Result base2 = run(threads, allocs, 64u << 20, 2000);
    row("baseline: 64 MiB rings, never full", base1);
    row("overflow: 16 KiB rings, writer idle", full);
    row("baseline again", base2);
    const Result &b = base1.ns.back() < base2.ns.back() ? base1 : base2;
    printf("\noverflow / baseline: p99.9 %.2fx, p99.99 %.2fx; drops are %.1f%% of calls; recorded + dropped = %lu of %lu\n",
           double(pct(full.ns, 0.999)) / double(std::max<uint64_t>(1, pct(b.ns, 0.999))),
           double(pct(full.ns, 0.9999)) / double(std::max<uint64_t>(1, pct(b.ns, 0.9999))),
           100.0 * double(full.counters.events_dropped) / double(full.ns.size()),
           full.counters.events_recorded + full.counters.events_dropped, uint64_t(threads) * allocs);
    return 0;
}
