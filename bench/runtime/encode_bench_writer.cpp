// encode_bench_writer.cpp (bench_writer_replay) — the runtime's writer thread fed a capture's
// events (bench_encode_export's flat file) through the real mt_on_alloc, so that its cost per
// event is measured on a stream with a real capture's statistics instead of bench_runtime
// --writer-only's, which repeats every 8 allocations and which the core predicts perfectly
// (docs/benchmarks.md, issue 22 tenth session).
//
// Each of the capture's threads is replayed by a thread of its own, frame by frame: in a frame,
// every thread gives mt_on_alloc its own events of that frame, in order (the class, the requested
// and GC sizes, the address, the call site), then the frame ends and, as bench_runtime does, the
// main thread waits for the writer to commit it. So what the writer sees of each thread is the
// capture's sequence; how the threads' batches interleave, and the ticks, are this run's.
// - the class: a distinct fake Il2CppClass* per class id (the runtime only compares it);
// - the call site: a distinct chain of noinline calls per stack id (its bits pick one of two
//   functions at each level), so each stack id is one frame-pointer stack;
// - the GC size: the patched-libil2cpp bridge (il2cpp_bridge.h), exported by this binary, hands
//   the runtime a gc_size() that answers the replayed event's GC size;
// - the address: passed as the object (the runtime does not dereference it without lifetimes).
// Prints the writer's CPU per event (the process's CPU minus the replay threads') and the file's
// bytes per allocation; asserts nothing.
//
// --merge N replays N of the capture's frames as one (about 5,000 events a frame for N = 13, as
// bench_runtime's frames): the writer's per-frame costs (the wake-up, the commit's write) then
// weigh per event as in bench_runtime, and what is left is mostly per-record work.
//
// --fps F paces the frames as a game does (issue 22, eleventh session): frame n ends F-ths of a
// second after frame n - 1 ended, and nothing waits for the writer, which then wakes at its own
// pace (every drain interval, 2 ms) however few events a frame holds: its per-wake-up costs weigh
// per event as in a game running at F frames a second. --frames N replays the first N frames only.
// --names 1 has each replay thread name itself with mt_set_thread_name first, as Unity names its
// threads (the writer's OS name poll then skips them; issue 22, twelfth session).
//
//   bench_writer_replay FILE.evrec [--mode events|aggregate] [--merge N] [--fps F] [--frames N] [--names 1] [--keep PATH]
#include <memtracer/il2cpp_bridge.h>
#include <memtracer/memtracer.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <dirent.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Ev {
    uint64_t size, gc_size, address;
    uint32_t class_id, stack_id;
};

// The capture's events: per frame, per replay thread.
struct Replay {
    std::vector<std::vector<std::vector<Ev>>> frames;  // [frame][thread]
    uint32_t threads = 0, stacks = 0;
    uint64_t events = 0;
};

bool load(const char *path, uint64_t merge, Replay *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    auto get = [f] {
        uint64_t v = 0;
        if (fread(&v, sizeof v, 1, f) != 1) v = UINT64_MAX;
        return v;
    };
    char magic[8];
    bool ok = fread(magic, 8, 1, f) == 1 && memcmp(magic, "MTEVREC1", 8) == 0;
    const uint64_t nstacks = ok ? get() : 0;
    for (uint64_t i = 0; ok && i < nstacks * 3; ++i) get();  // the STACKS shapes: the runtime makes its own
    out->stacks = static_cast<uint32_t>(nstacks);
    const uint64_t nframes = ok ? get() : 0;
    for (uint64_t fr = 0; ok && fr < nframes && fr < (1u << 24); ++fr) {
        get();  // start tick
        const uint64_t n = get();
        if (fr % merge == 0) out->frames.emplace_back();
        auto &frame = out->frames.back();
        for (uint64_t i = 0; ok && i < n && n < (1u << 26); ++i) {
            uint64_t v[7];
            for (uint64_t &x : v) x = get();
            if (v[0] >= 64) ok = false;  // the runtime's max_threads
            if (!ok) break;
            if (v[0] >= frame.size()) frame.resize(v[0] + 1);
            if (v[0] >= out->threads) out->threads = static_cast<uint32_t>(v[0] + 1);
            frame[v[0]].push_back(Ev{v[4], v[5], v[6], static_cast<uint32_t>(v[2]), static_cast<uint32_t>(v[3])});
            ++out->events;
        }
    }
    fclose(f);
    return ok && out->events && out->stacks <= 256;
}

// The GC size the runtime asks for, set by the replaying thread before each mt_on_alloc.
thread_local uint64_t t_gc_size;
size_t replay_gc_size(const void *) { return t_gc_size; }

uint64_t g_klass[4096];  // a fake Il2CppClass* per class id: &g_klass[id]

// One call site per stack id: 8 levels, each calling one of two functions by the id's bit.
constexpr int kLevels = 8;
void level0(int d, const Ev &e);
void level1(int d, const Ev &e);
__attribute__((noinline)) void leaf(const Ev &e) {
    t_gc_size = e.gc_size;
    mt_on_alloc(reinterpret_cast<void *>(e.address), &g_klass[e.class_id % 4096], e.size);
    asm volatile("" ::: "memory");  // not a tail call: the leaf's frame stays on the stack
}
__attribute__((noinline)) void level0(int d, const Ev &e) {
    if (d == kLevels) leaf(e);
    else if ((e.stack_id >> d) & 1) level1(d + 1, e);
    else level0(d + 1, e);
    asm volatile("" ::: "memory");
}
__attribute__((noinline)) void level1(int d, const Ev &e) {
    if (d == kLevels) leaf(e);
    else if ((e.stack_id >> d) & 1) level1(d + 1, e);
    else level0(d + 1, e);
    asm volatile("" ::: "memory");
}

uint64_t now_ns(clockid_t clk) {
    timespec ts;
    clock_gettime(clk, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The writer thread's own CPU time so far (Linux): the thread named "memtracer" in
// /proc/self/task, read through its per-thread CPU clock (the kernel's
// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)). Unlike the process's CPU minus the replay threads',
// it holds the writer's work alone. 0 if there is no such thread (or not Linux).
uint64_t writer_thread_cpu_ns() {
#if defined(__linux__)
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    uint64_t ns = 0;
    while (dirent *e = readdir(d)) {
        const int tid = atoi(e->d_name);
        if (tid <= 0) continue;
        char path[64], comm[32] = {0};
        snprintf(path, sizeof path, "/proc/self/task/%d/comm", tid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        const bool writer = fgets(comm, sizeof comm, f) && strncmp(comm, "memtracer\n", 10) == 0;
        fclose(f);
        if (!writer) continue;
        const clockid_t clk = static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6);
        ns = now_ns(clk);
        break;
    }
    closedir(d);
    return ns;
#else
    return 0;
#endif
}

}  // namespace

// The bridge a patched libil2cpp exports (il2cpp_bridge.h): here only GC_size.
extern "C" __attribute__((visibility("default"))) int il2cpp_memtracer_bridge(mt_il2cpp_alloc_hook, mt_il2cpp_bridge *out) {
    mt_il2cpp_bridge t{};
    t.struct_size = out->struct_size < sizeof t ? out->struct_size : static_cast<uint32_t>(sizeof t);
    t.version = MT_IL2CPP_BRIDGE_VERSION;
    t.gc_size = replay_gc_size;
    memcpy(out, &t, t.struct_size);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_writer_replay FILE.evrec [--mode events|aggregate] [--merge N] [--keep PATH]\n");
        return 1;
    }
    mt_mode mode = MT_MODE_EVENTS;
    std::string path = "/tmp/bench_writer_replay." + std::to_string(getpid()) + ".mt";
    bool keep = false;
    uint64_t merge = 1;
    double fps = 0;  // 0: each frame ends when the writer has committed the one before
    size_t max_frames = SIZE_MAX;
    bool names = false;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--mode")) mode = strcmp(argv[i + 1], "aggregate") ? MT_MODE_EVENTS : MT_MODE_AGGREGATE;
        else if (!strcmp(argv[i], "--keep")) path = argv[i + 1], keep = true;
        else if (!strcmp(argv[i], "--merge")) merge = std::max(1, atoi(argv[i + 1]));
        else if (!strcmp(argv[i], "--fps")) fps = std::max(0.0, atof(argv[i + 1]));
        else if (!strcmp(argv[i], "--names")) names = atoi(argv[i + 1]) != 0;
        else if (!strcmp(argv[i], "--frames")) max_frames = static_cast<size_t>(std::max(1, atoi(argv[i + 1])));
    }
    Replay rp;
    if (!load(argv[1], merge, &rp)) {
        fprintf(stderr, "%s: not an encode_bench_export file (or over 64 threads or 256 stacks)\n", argv[1]);
        return 1;
    }
    mt_config c;
    mt_config_init(&c);
    c.output_path = path.c_str();
    c.unwinder = MT_UNWIND_FRAME_POINTER;
    c.mode = mode;
    c.ring_capacity = 16u << 20;
    c.session_label = "bench_writer_replay";
    if (mt_start(&c) != MT_OK) {
        fprintf(stderr, "mt_start: %s\n", mt_last_error());
        return 1;
    }
    // Frame by frame: every replay thread gives its events, then (the barrier's completion, on
    // one of them) the frame ends and the writer commits it.
    const size_t nframes = std::min(rp.frames.size(), max_frames);
    uint64_t events = 0;
    for (size_t f = 0; f < nframes; ++f)
        for (const auto &t : rp.frames[f]) events += t.size();
    size_t frame = 0;
    std::atomic<uint64_t> replay_cpu{0};
    const uint64_t w0 = now_ns(CLOCK_MONOTONIC);
    auto end_frame = [&]() noexcept {
        if (fps > 0) {  // paced: the frame ends on its time, and the game goes on
            const uint64_t due = w0 + static_cast<uint64_t>(1e9 * static_cast<double>(frame + 1) / fps);
            const uint64_t now = now_ns(CLOCK_MONOTONIC);
            if (due > now) {
                timespec ts{static_cast<time_t>((due - now) / 1000000000ull), static_cast<long>((due - now) % 1000000000ull)};
                nanosleep(&ts, nullptr);
            }
            mt_frame_end(frame++);
            return;
        }
        mt_frame_end(frame);
        mt_counters k;
        for (int spin = 0; spin < 100000; ++spin) {
            mt_get_counters(&k);
            if (k.frames_written > frame) break;
            usleep(50);
        }
        ++frame;
    };
    std::barrier sync(static_cast<ptrdiff_t>(rp.threads), end_frame);
    const uint64_t p0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    std::vector<std::thread> ts;
    for (uint32_t t = 0; t < rp.threads; ++t) {
        ts.emplace_back([&, t] {
            if (names) mt_set_thread_name(("replay " + std::to_string(t)).c_str());
            const uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
            for (size_t f = 0; f < nframes; ++f) {
                if (t < rp.frames[f].size())
                    for (const Ev &e : rp.frames[f][t]) level0(0, e);
                sync.arrive_and_wait();
            }
            replay_cpu += now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
        });
    }
    for (auto &t : ts) t.join();
    const uint64_t writer_thread_ns = writer_thread_cpu_ns();  // before mt_stop ends the thread
    mt_stop();
    const uint64_t p1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    mt_counters k;
    mt_get_counters(&k);
    const double writer_ns = static_cast<double>((p1 - p0) - replay_cpu.load());
    printf("replayed %llu events, %zu frames, %u threads: writer CPU %.1f ns/event, %.3f bytes/allocation (%s)\n",
           static_cast<unsigned long long>(events), nframes, rp.threads, writer_ns / static_cast<double>(events),
           k.events_written ? static_cast<double>(k.bytes_written) / static_cast<double>(k.events_written) : 0.0,
           mode == MT_MODE_EVENTS ? "events" : "aggregate");
    if (writer_thread_ns)
        printf("the writer thread alone (up to mt_stop): %.1f ns/event\n",
               static_cast<double>(writer_thread_ns) / static_cast<double>(events));
    if (!keep) unlink(path.c_str());
    return 0;
}
