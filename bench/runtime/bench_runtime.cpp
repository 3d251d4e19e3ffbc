// bench_runtime — what tracing costs a game's allocations, against a baseline measured in the
// same run. Real Boehm GC (GC_MALLOC, GC_INIT), allocations at the end of a ~20-frame noinline
// call chain, as in the sample game. Prints medians and ratios; asserts nothing.
//
//   bench_runtime [--reps N] [--allocs N] [--phase all|gc|alone|writer] [--clock wall|thread]
//   bench_runtime --count bare|walk|traced|paused [--phase gc|alone] [--allocs N]
//
// --phase picks the cells (for `perf record` of one of them); --clock thread times each thread's
// own CPU (CLOCK_THREAD_CPUTIME_ID) instead of the wall clock: on a loaded machine the wall clock
// also counts the time other processes held the core.
//
// Interleaving: each rep runs its allocations in blocks (--blocks, 20 by default), and within a
// block every variant runs once, in an order that rotates block by block; so the walk and the
// traced run of one rep are measured microseconds apart, and each rep gives its own ratio
// (traced - bare) / (walk - bare). The printed ratio is the median of those per-rep ratios.
// Where the kernel lends a hardware instruction counter (perf_event_open), each cell's
// instructions per allocation and their ratio are printed too (a count, steady where times are
// not); elsewhere (this project's VMs) bench/runtime/hot_instructions.sh counts them with callgrind.
//
// --count runs one cell (one thread, 1,000 allocations of warm-up, then --allocs) and prints
// nothing timed: callgrind's count inside count_loop() divided by --allocs is that cell's
// instructions per allocation (bench/runtime/hot_instructions.sh).
//
// Variants (ns per allocation, median over reps):
//   bare       GC_MALLOC only
//   walk       GC_MALLOC + a bare frame-pointer walk of the same stack (the floor of tracing)
//   traced-fp  GC_MALLOC + mt_on_alloc, frame-pointer unwinder, capture running
//   traced-lu  GC_MALLOC + mt_on_alloc, libunwind unwinder
//   paused     GC_MALLOC + mt_on_alloc with the capture paused
//   paused-slot  GC_MALLOC + a patched libil2cpp's hook slot with the capture paused: the slot is
//              loaded and called if non-NULL, exactly as MEMTRACER_IL2CPP_ON_ALLOC does; this
//              program exports il2cpp_memtracer_bridge (handing over set_alloc_hook only), so the
//              runtime clears the slot on mt_pause as it does a patched game's
#define GC_THREADS
#include <memtracer/cli.h>

#include <gc/gc.h>

#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "memtracer/il2cpp_bridge.h"
#include "memtracer/memtracer.h"
#include "unwind.h"

namespace {

constexpr int kChainDepth = 18;  // + bench frames above it: ~20 frames to the allocation
constexpr size_t kSizes[] = {16, 24, 32, 48, 64, 128, 256, 40};

enum Variant { BARE, WALK, TRACED, PAUSED_CALL, PAUSED_SLOT };
constexpr int kVariants = 5;

// A patched libil2cpp's hook slot (memtracer_il2cpp_hooks.h), filled and cleared by the runtime
// through the bridge below.
std::atomic<mt_il2cpp_alloc_hook> g_hook_slot{nullptr};
void set_alloc_hook(mt_il2cpp_alloc_hook hook) { g_hook_slot.store(hook, std::memory_order_release); }
bool g_bridge_called = false;

void **g_pool = nullptr;  // preallocated GC objects for the cells without GC_MALLOC
bool g_use_pool = false;

struct Ctx {
    Variant v;
    uintptr_t lo, hi;
    size_t i;
    void *sink;
    uint64_t frames_sink;
};

int g_klass;  // stands in for an Il2CppClass*

clockid_t g_cell_clock = CLOCK_MONOTONIC;  // --clock thread: CLOCK_THREAD_CPUTIME_ID

uint64_t now_ns(clockid_t clk = CLOCK_MONOTONIC) {
    timespec ts;
    clock_gettime(clk, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

__attribute__((noinline)) void leaf(Ctx &c) {
    size_t size = kSizes[c.i & 7];
    void *obj = g_use_pool ? g_pool[c.i & 4095] : GC_MALLOC(size);
    if (c.v == WALK) {
        uint64_t frames[64];
        uint32_t n = mt::rt::fp_walk(reinterpret_cast<uintptr_t>(__builtin_return_address(0)),
                                     *static_cast<uintptr_t *>(__builtin_frame_address(0)), c.lo, c.hi, frames, 64);
        c.frames_sink += frames[n - 1];
    } else if (c.v == PAUSED_SLOT) {
        // MEMTRACER_IL2CPP_ON_ALLOC: one relaxed load, a call only while the runtime records.
        mt_il2cpp_alloc_hook h = g_hook_slot.load(std::memory_order_relaxed);
        if (h) h(obj, &g_klass, size);
    } else if (c.v != BARE) {
        mt_on_alloc(obj, &g_klass, size);
    }
    c.sink = obj;
    asm volatile("" ::: "memory");
}

// Two leaf call sites alternate, so the traced stacks are not all one.
__attribute__((noinline)) void chain(int depth, Ctx &c) {
    if (depth == 0) {
        if (c.i & 1) leaf(c); else leaf(c);
    } else {
        chain(depth - 1, c);
    }
    asm volatile("" ::: "memory");
}

void stack_bounds(uintptr_t *lo, uintptr_t *hi) {
    pthread_attr_t a;
    void *addr;
    size_t size;
    pthread_getattr_np(pthread_self(), &a);
    pthread_attr_getstack(&a, &addr, &size);
    pthread_attr_destroy(&a);
    *lo = reinterpret_cast<uintptr_t>(addr);
    *hi = *lo + size;
}

// Instructions this thread retires in user space, where the kernel lends a hardware counter
// (perf_event_open); count() is -1 elsewhere (this project's VMs, a strict perf_event_paranoid).
struct InsnCounter {
    int fd = -1;
    InsnCounter() {
        perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.type = PERF_TYPE_HARDWARE;
        a.size = sizeof a;
        a.config = PERF_COUNT_HW_INSTRUCTIONS;
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        fd = static_cast<int>(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
    }
    ~InsnCounter() {
        if (fd >= 0) close(fd);
    }
    InsnCounter(const InsnCounter &) = delete;
    InsnCounter &operator=(const InsnCounter &) = delete;
    int64_t count() const {
        uint64_t v = 0;
        return fd >= 0 && read(fd, &v, sizeof v) == static_cast<ssize_t>(sizeof v) ? static_cast<int64_t>(v) : -1;
    }
};

// What one thread's blocks of one variant took in one rep, summed.
struct Sample {
    double ns = 0;
    double insns = 0;
    bool counted = true;  // every block had an instruction count
};

// One block: n allocations of variant v, timed (and counted) as a whole.
void run_block(Variant v, Ctx &c, size_t n, const InsnCounter &ic, Sample *out) {
    c.v = v;
    const int64_t i0 = ic.count();
    const uint64_t t0 = now_ns(g_cell_clock);
    for (size_t k = 0; k < n; ++k, ++c.i) chain(kChainDepth, c);
    const uint64_t t1 = now_ns(g_cell_clock);
    const int64_t i1 = ic.count();
    out->ns += static_cast<double>(t1 - t0);
    if (i0 >= 0 && i1 >= 0)
        out->insns += static_cast<double>(i1 - i0);
    else
        out->counted = false;
}

// A rep, shared by its threads. Every block runs each variant once, in an order rotated block by
// block and rep by rep, so no variant always runs first or after the same one; thread 0 pauses or
// resumes the capture for the next variant while the others wait at the barrier.
struct Rep {
    int threads, blocks, rep;
    size_t per_block;
    pthread_barrier_t bar;
};

// The frames the bare walk of leaf() takes, found by the same walk from the same depth (a copy of
// chain and leaf, so the timed leaf stays exactly the walk; mt_on_alloc's walk records one more).
__attribute__((noinline)) void probe_leaf(uint32_t *depth) {
    uintptr_t lo, hi;
    stack_bounds(&lo, &hi);
    uint64_t frames[64];
    *depth = mt::rt::fp_walk(reinterpret_cast<uintptr_t>(__builtin_return_address(0)),
                             *static_cast<uintptr_t *>(__builtin_frame_address(0)), lo, hi, frames, 64);
}
__attribute__((noinline)) void probe_chain(int depth, uint32_t *out) {
    if (depth == 0)
        probe_leaf(out);
    else
        probe_chain(depth - 1, out);
    asm volatile("" ::: "memory");
}

uint32_t g_walk_depth = 0;  // thread 0's bare walk

void rep_thread(Rep &rp, int t, Sample out[kVariants]) {
    Ctx c{BARE, 0, 0, 0, nullptr, 0};
    stack_bounds(&c.lo, &c.hi);
    InsnCounter ic;
    for (int b = 0; b < rp.blocks; ++b)
        for (int k = 0; k < kVariants; ++k) {
            const auto v = static_cast<Variant>((k + b + rp.rep + 2 * kVariants) % kVariants);
            if (rp.threads > 1) pthread_barrier_wait(&rp.bar);
            if (t == 0) {
                if (v == TRACED) mt_resume(); else mt_pause();
            }
            if (rp.threads > 1) pthread_barrier_wait(&rp.bar);
            run_block(v, c, rp.per_block, ic, &out[v]);
        }
    if (t == 0) probe_chain(kChainDepth, &g_walk_depth);
}

// Per-thread ns (and instructions) per allocation of each variant in one rep, averaged over the
// threads. Collections are kept out of the rep (GC_disable; collected before it): they would add
// the same cost to every variant, with far more noise than the differences measured here.
struct RepResult {
    double ns[kVariants];
    double insns[kVariants];  // < 0: no instruction counter
};

RepResult run_rep(size_t n, int threads, int blocks, int rep) {
    Rep rp{threads, blocks, rep, std::max<size_t>(1, n / static_cast<size_t>(blocks)), {}};
    std::vector<std::array<Sample, kVariants>> per(static_cast<size_t>(threads));
    GC_gcollect();
    GC_disable();
    if (threads == 1) {
        rep_thread(rp, 0, per[0].data());
    } else {
        pthread_barrier_init(&rp.bar, nullptr, static_cast<unsigned>(threads));
        struct Arg {
            Rep *rp;
            int t;
            Sample *out;
        };
        std::vector<Arg> args(static_cast<size_t>(threads));
        std::vector<pthread_t> ts(static_cast<size_t>(threads));
        for (int t = 0; t < threads; ++t) {
            args[t] = {&rp, t, per[t].data()};
            // GC_THREADS redirects pthread_create so the thread is registered with the collector.
            pthread_create(&ts[t], nullptr, [](void *p) -> void * {
                Arg *a = static_cast<Arg *>(p);
                rep_thread(*a->rp, a->t, a->out);
                return nullptr;
            }, &args[t]);
        }
        for (int t = 0; t < threads; ++t) pthread_join(ts[t], nullptr);
        pthread_barrier_destroy(&rp.bar);
    }
    GC_enable();
    RepResult r;
    const double allocs = static_cast<double>(rp.per_block) * blocks;
    for (int v = 0; v < kVariants; ++v) {
        double ns = 0, in = 0;
        bool counted = true;
        for (auto &p : per) {
            ns += p[v].ns;
            in += p[v].insns;
            counted = counted && p[v].counted;
        }
        r.ns[v] = ns / threads / allocs;
        r.insns[v] = counted ? in / threads / allocs : -1;
    }
    return r;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

struct Opts {
    int reps = 21;
    size_t allocs = 200000;
};

mt_status start_capture(const char *path, mt_unwinder u, mt_mode mode) {
    mt_config c;
    mt_config_init(&c);
    c.output_path = path;
    c.unwinder = u;
    c.mode = mode;
    c.ring_capacity = 16u << 20;
    c.session_label = "bench_runtime";
    mt_status st = mt_start(&c);
    if (st != MT_OK) fprintf(stderr, "mt_start: %s\n", mt_last_error());
    return st;
}

uint64_t g_frame = 0;

struct Cells {
    double bare, walk, paused, traced;  // medians over reps, ns per allocation
    double d_walk, d_traced, d_paused;  // medians of each rep's difference against its own bare run
    double ratio;                       // median of the per-rep ratios (traced - bare) / (walk - bare)
    double ratio_lo, ratio_hi;          // their smallest and largest
    double i_bare, i_walk, i_traced, i_paused;  // instructions per allocation (medians); < 0: no counter
    uint32_t walk_depth;                // frames of the bare walk (thread 0)
    double paused_slot, d_paused_slot, i_paused_slot;  // the hook-slot cell, as paused above
};

int g_blocks = 20;  // --blocks: blocks per rep (each variant runs once per block)

// One capture; the variants interleaved block by block inside each rep (run_rep).
Cells measure_all(const char *path, mt_unwinder u, size_t n, int threads, int reps) {
    Cells out{};
    if (start_capture(path, u, MT_MODE_EVENTS) != MT_OK) return out;
    std::vector<double> ns[kVariants], in[kVariants], d[kVariants], ratio;
    bool counted = true;
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up, not counted
        RepResult rr = run_rep(n, threads, g_blocks, r);
        mt_frame_end(g_frame++);
        if (r < 0) continue;
        for (int v = 0; v < kVariants; ++v) {
            ns[v].push_back(rr.ns[v]);
            in[v].push_back(rr.insns[v]);
            counted = counted && rr.insns[v] >= 0;
            d[v].push_back(rr.ns[v] - rr.ns[BARE]);
        }
        const double walk = rr.ns[WALK] - rr.ns[BARE];
        ratio.push_back(walk > 0 ? (rr.ns[TRACED] - rr.ns[BARE]) / walk : 0.0);
    }
    mt_resume();
    mt_stop();
    unlink(path);
    out = Cells{median(ns[BARE]), median(ns[WALK]), median(ns[PAUSED_CALL]), median(ns[TRACED]),
                median(d[WALK]), median(d[TRACED]), median(d[PAUSED_CALL]),
                median(ratio), *std::min_element(ratio.begin(), ratio.end()),
                *std::max_element(ratio.begin(), ratio.end()),
                counted ? median(in[BARE]) : -1, counted ? median(in[WALK]) : -1,
                counted ? median(in[TRACED]) : -1, counted ? median(in[PAUSED_CALL]) : -1, g_walk_depth,
                median(ns[PAUSED_SLOT]), median(d[PAUSED_SLOT]), counted ? median(in[PAUSED_SLOT]) : -1};
    return out;
}

struct WriterCost {
    double writer_cpu_ns_per_frame, commit_ns_median, bytes_per_alloc;
};

// 200 frames of 5000 allocations each; the writer's CPU is the process's minus this thread's
// (GC_MARKERS=1, so the collector runs no threads of its own).
bool g_keep_trace = false;  // --keep-trace: the writer's capture stays for a look at its bytes
// --writer-frames: 200 by default (the figure the docs quote). The writer has 256 frame slots, so
// 200 frames each open a slot for the first time (its staging list grows from empty); more than
// 256 also measure reused, warm slots (docs/benchmarks.md, issue 22 ninth session).
int g_writer_frames = 200;

WriterCost writer_cost(mt_mode mode, const char *path) {
    WriterCost w{0, 0, 0};
    if (start_capture(path, MT_UNWIND_FRAME_POINTER, mode) != MT_OK) return w;
    const int kFrames = g_writer_frames;
    constexpr int kPer = 5000;
    std::vector<double> commits;
    uint64_t p0 = now_ns(CLOCK_PROCESS_CPUTIME_ID), t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    Ctx c{TRACED, 0, 0, 0, nullptr, 0};
    stack_bounds(&c.lo, &c.hi);
    for (int f = 0; f < kFrames; ++f) {
        for (int i = 0; i < kPer; ++i, ++c.i) chain(kChainDepth, c);
        mt_frame_end(static_cast<uint64_t>(f));
        mt_counters k;
        for (int spin = 0; spin < 100000; ++spin) {  // wait for the commit to read its duration
            mt_get_counters(&k);
            if (k.frames_written > static_cast<uint64_t>(f)) break;
            usleep(50);
        }
        commits.push_back(static_cast<double>(k.last_flush_duration_ns));
    }
    mt_stop();
    uint64_t p1 = now_ns(CLOCK_PROCESS_CPUTIME_ID), t1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    mt_counters k;
    mt_get_counters(&k);
    w.writer_cpu_ns_per_frame = static_cast<double>((p1 - p0) - (t1 - t0)) / kFrames;
    w.commit_ns_median = median(commits);
    w.bytes_per_alloc = k.events_written ? static_cast<double>(k.bytes_written) / static_cast<double>(k.events_written) : 0;
    if (!g_keep_trace) unlink(path);
    return w;
}

// The writer's CPU per frame (and per event) and the file's bytes per allocation, each mode.
bool writer_table(const std::string &base) {
    printf("\nwriter, %d frames x 5000 allocations, frame-pointer stacks\n", g_writer_frames);
    for (mt_mode m : {MT_MODE_EVENTS, MT_MODE_AGGREGATE}) {
        std::string path = base + (m == MT_MODE_EVENTS ? ".events.mt" : ".aggregate.mt");
        WriterCost w = writer_cost(m, path.c_str());
        printf("%-10s writer CPU %.0f us/frame (%.1f ns/event), commit %.0f us/frame (median), %.2f bytes/allocation\n",
               m == MT_MODE_EVENTS ? "events" : "aggregate", w.writer_cpu_ns_per_frame / 1000,
               w.writer_cpu_ns_per_frame / 5000, w.commit_ns_median / 1000, w.bytes_per_alloc);
        if (g_keep_trace) printf("           kept %s\n", path.c_str());
    }
    return true;
}

void row(const char *name, double a, double b) { printf("%-34s %10.1f %10.1f\n", name, a, b); }

// The figures each rep gives on its own (against the bare run of the same rep, measured block by
// block alongside it): slow drift of the machine's load and clock cancels out of each of them.
void per_rep(const Cells &c) {
    printf("           per rep (medians): walk %.1f ns (%u frames), traced overhead %.1f ns, paused overhead %.1f ns "
           "(mt_on_alloc called), %.1f ns (hook slot cleared); traced overhead / walk %.2fx (reps %.2f-%.2f; target <= 1.5)\n",
           c.d_walk, c.walk_depth, c.d_traced, c.d_paused, c.d_paused_slot, c.ratio, c.ratio_lo, c.ratio_hi);
    if (c.i_bare >= 0) {
        const double walk = c.i_walk - c.i_bare, over = c.i_traced - c.i_bare;
        printf("           instructions per allocation: walk %.1f, traced overhead %.1f -> %.2fx the walk; paused %.1f "
               "(mt_on_alloc called), %.1f (hook slot cleared)\n",
               walk, over, walk > 0 ? over / walk : 0.0, c.i_paused - c.i_bare, c.i_paused_slot - c.i_bare);
    } else {
        printf("           instructions per allocation: no hardware counter here (bench/runtime/hot_instructions.sh "
               "counts them with callgrind)\n");
    }
}

// With GC_MALLOC in the loop: frame-pointer and libunwind unwinders, 1 and 2 threads.
void gc_phase(const std::string &path, size_t n, int reps) {
    Cells fp[2], lu[2];
    for (int t = 0; t < 2; ++t) {
        fp[t] = measure_all(path.c_str(), MT_UNWIND_FRAME_POINTER, n, t + 1, reps);
        lu[t] = measure_all(path.c_str(), MT_UNWIND_LIBUNWIND, n / 4, t + 1, reps);
    }
    printf("%-34s %10s %10s\n", "ns per allocation (median)", "1 thread", "2 threads");
    row("bare GC_MALLOC", fp[0].bare, fp[1].bare);
    row("GC_MALLOC + fp walk (floor)", fp[0].walk, fp[1].walk);
    row("traced, frame pointers", fp[0].traced, fp[1].traced);
    row("paused, mt_on_alloc called", fp[0].paused, fp[1].paused);
    row("paused, hook slot cleared", fp[0].paused_slot, fp[1].paused_slot);
    row("bare GC_MALLOC (libunwind phase)", lu[0].bare, lu[1].bare);
    row("traced, libunwind", lu[0].traced, lu[1].traced);

    printf("\nratios (each against the bare GC_MALLOC measured in the same phase)\n");
    for (int t = 0; t < 2; ++t) {
        double walk_cost = fp[t].walk - fp[t].bare, over = fp[t].traced - fp[t].bare;
        printf("%d thread%s: fp walk %.1f ns, traced-fp overhead %.1f ns -> %.2fx the walk (target <= 1.5)\n", t + 1,
               t ? "s" : " ", walk_cost, over, walk_cost > 0 ? over / walk_cost : 0.0);
        printf("           paused overhead %.1f ns with mt_on_alloc called, %.1f ns with the hook slot cleared "
               "(target <= 2); libunwind overhead %.1f ns\n",
               fp[t].paused - fp[t].bare, fp[t].paused_slot - fp[t].bare, lu[t].traced - lu[t].bare);
        per_rep(fp[t]);
    }
    printf("per-thread time, 2 threads / 1 thread: traced-fp %.2fx (target <= 1.20), bare GC_MALLOC %.2fx, "
           "tracing overhead alone %.2fx\n",
           fp[1].traced / fp[0].traced, fp[1].bare / fp[0].bare,
           (fp[1].traced - fp[1].bare) / (fp[0].traced - fp[0].bare));

}

// The tracer's own cost: objects preallocated, no GC_MALLOC in the loop.
void alone_phase(const std::string &path, size_t n, int reps) {
    // The same without GC_MALLOC in the loop (objects preallocated): the tracer's own cost, free
    // of the collector's variance.
    g_use_pool = true;
    Cells np[2];
    for (int t = 0; t < 2; ++t) np[t] = measure_all(path.c_str(), MT_UNWIND_FRAME_POINTER, n, t + 1, reps);
    g_use_pool = false;
    printf("\ntracer alone (same chain and stacks, objects preallocated, no GC_MALLOC in the loop)\n");
    printf("%-34s %10s %10s\n", "ns per allocation (median)", "1 thread", "2 threads");
    row("call chain only", np[0].bare, np[1].bare);
    row("chain + fp walk (floor)", np[0].walk, np[1].walk);
    row("chain + mt_on_alloc, traced", np[0].traced, np[1].traced);
    row("chain + mt_on_alloc, paused", np[0].paused, np[1].paused);
    row("chain + hook slot, paused", np[0].paused_slot, np[1].paused_slot);
    for (int t = 0; t < 2; ++t) {
        double walk_cost = np[t].walk - np[t].bare, over = np[t].traced - np[t].bare;
        printf("%d thread%s: fp walk %.1f ns, traced overhead %.1f ns -> %.2fx the walk; paused overhead %.1f ns "
               "(mt_on_alloc called), %.1f ns (hook slot cleared)\n", t + 1,
               t ? "s" : " ", walk_cost, over, walk_cost > 0 ? over / walk_cost : 0.0, np[t].paused - np[t].bare,
               np[t].paused_slot - np[t].bare);
        per_rep(np[t]);
    }
    printf("tracing overhead per thread, 2 threads / 1 thread: %.2fx\n",
           (np[1].traced - np[1].bare) / (np[0].traced - np[0].bare));

}

// The counted cell of --count: callgrind's --toggle-collect names this function.
__attribute__((noinline)) void count_loop(Ctx &c, size_t n) {
    for (size_t k = 0; k < n; ++k, ++c.i) chain(kChainDepth, c);
}

// --count: one cell on this thread, for an instruction count (no timing printed). A traced or
// paused cell runs inside an events-mode capture; 1,000 allocations first bind the thread's slot
// and send its two stacks, so the counted ones are the steady state (short records).
int count_cell(Variant v, size_t n, const std::string &path) {
    const bool capture = v == TRACED || v == PAUSED_CALL || v == PAUSED_SLOT;
    if (capture && start_capture(path.c_str(), MT_UNWIND_FRAME_POINTER, MT_MODE_EVENTS) != MT_OK) return 1;
    if (v == PAUSED_CALL || v == PAUSED_SLOT) mt_pause();
    GC_gcollect();
    GC_disable();
    Ctx c{v, 0, 0, 0, nullptr, 0};
    stack_bounds(&c.lo, &c.hi);
    for (int k = 0; k < 1000; ++k, ++c.i) chain(kChainDepth, c);
    count_loop(c, n);
    GC_enable();
    if (capture) {
        mt_resume();
        mt_stop();
        unlink(path.c_str());
    }
    printf("counted %zu allocations of one cell (sink %p)\n", n, c.sink);
    return 0;
}

}  // namespace

// A patched libil2cpp's bridge (memtracer/il2cpp_bridge.h) handing over set_alloc_hook only: no
// GC functions, so the GC sizes and class names stay as without a bridge.
extern "C" __attribute__((visibility("default"))) int il2cpp_memtracer_bridge(mt_il2cpp_alloc_hook hook,
                                                                               mt_il2cpp_bridge *out) {
    if (!out || out->struct_size < sizeof(mt_il2cpp_bridge)) return 0;
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->version = MT_IL2CPP_BRIDGE_VERSION;
    out->set_alloc_hook = &set_alloc_hook;
    g_bridge_called = true;
    g_hook_slot.store(hook, std::memory_order_release);
    return MT_IL2CPP_BRIDGE_VERSION;
}

int main(int argc, char **argv) {
    Opts o;
    mt::cli::Parser cli({"bench_runtime", "[--reps N] [--allocs N]", 2, ""});
    cli.app().add_option("--reps", o.reps, "runs per timing (median)")->check(mt::cli::range(1, 1000000));
    cli.app().add_option("--allocs", o.allocs, "allocations per run")->check(mt::cli::range(1, 1ull << 40));
    bool writer_only = false;
    cli.app().add_flag("--writer-only", writer_only, "only the writer's cost and bytes per allocation (--phase writer)");
    std::string phase = "all", clock = "wall";
    cli.app()
        .add_option("--phase", phase, "cells to run: all, gc (with GC_MALLOC), alone (tracer alone), writer")
        ->check(CLI::IsMember({"all", "gc", "alone", "writer"}));
    cli.app()
        .add_option("--clock", clock, "per-thread cell timing: wall (CLOCK_MONOTONIC) or thread (the thread's CPU time)")
        ->check(CLI::IsMember({"wall", "thread"}));
    cli.app().add_flag("--keep-trace", g_keep_trace, "keep the writer's captures (their paths are printed)");
    cli.app()
        .add_option("--writer-frames", g_writer_frames, "frames of the writer cells (default 200; the writer has 256 frame slots)")
        ->check(CLI::Range(1, 100000));
    std::string count;
    cli.app()
        .add_option("--count", count, "run one cell for callgrind's count (bench/runtime/hot_instructions.sh): "
                                      "bare, walk, traced, paused or paused-slot; with --phase gc or alone")
        ->check(CLI::IsMember({"bare", "walk", "traced", "paused", "paused-slot"}));
    cli.app()
        .add_option("--blocks", g_blocks, "blocks per rep: each variant runs once per block, interleaved (default 20)")
        ->check(CLI::Range(1, 100000));
    if (auto code = cli.parse(argc, argv)) return *code;
    if (writer_only) phase = "writer";
    if (clock == "thread") g_cell_clock = CLOCK_THREAD_CPUTIME_ID;
    setenv("GC_MARKERS", "1", 0);  // no parallel markers: their CPU would blur the writer's
    GC_INIT();
    GC_allow_register_threads();
    GC_expand_hp(256u << 20);  // heap grown up front: no expansion inside timed regions
    g_pool = static_cast<void **>(GC_MALLOC_UNCOLLECTABLE(4096 * sizeof(void *)));
    for (int i = 0; i < 4096; ++i) g_pool[i] = GC_MALLOC(kSizes[i & 7]);
    {  // touch the heap once so page faults stay out of the timed regions
        GC_disable();
        for (int i = 0; i < 2000000; ++i) GC_MALLOC(kSizes[i & 7]);
        GC_enable();
        GC_gcollect();
    }
    std::string path = "/tmp/bench_runtime_" + std::to_string(getpid()) + ".mt";
    const size_t n = o.allocs;
    // Connects the runtime to the bridge below (no profiler): mt_pause clears g_hook_slot.
    if (mt_attach_il2cpp() != MT_OK || !g_bridge_called) {
        fprintf(stderr, "bench_runtime: the runtime did not connect to il2cpp_memtracer_bridge: %s\n", mt_last_error());
        return 1;
    }
    if (!count.empty()) {
        g_use_pool = phase == "alone";
        const Variant v = count == "bare" ? BARE : count == "walk" ? WALK : count == "traced" ? TRACED
                        : count == "paused" ? PAUSED_CALL : PAUSED_SLOT;
        return count_cell(v, n, path);
    }

    printf("bench_runtime: %zu allocations x %d reps per cell in %d interleaved blocks, chain depth %d, GC_MALLOC of "
           "16-256 B, %s clock\n",
           n, o.reps, g_blocks, kChainDepth, clock == "thread" ? "thread CPU" : "wall");
    if (phase == "writer") return writer_table(path) ? 0 : 1;
    if (phase != "alone") gc_phase(path, n, o.reps);
    if (phase != "gc") alone_phase(path, n, o.reps);
    return phase == "all" ? (writer_table(path) ? 0 : 1) : 0;
}

