// bench_itt — what libmemtracer_itt.so costs an ITT-instrumented program: nanoseconds per heap
// event (an __itt_heap_allocate_end + __itt_heap_free_begin pair around malloc/free of 64 bytes,
// the pair counted as two events) and per frame (__itt_frame_begin_v3 + __itt_frame_end_v3), with
// the collector loaded (recording, lifetimes on) against the same program without it (the static
// part's pointers are then NULL: what a shipped instrumented program pays). Each round runs both
// as child processes, alternately; prints per-round figures, medians and ratios. Asserts nothing.
//
//   bench_itt [--rounds N] [--events N] [--frames N]     (the collector: MT_ITT_COLLECTOR, built in)
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "itt_static_part.h"
#include "../common/median.h"

extern char **environ;

using mt::bench::upper_median;

namespace {

uint64_t now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The child: times the two loops, prints "heap_ns frame_ns" per event / per frame.
int child(long events, long frames) {
    __itt_domain *game = itt_domain_create("Game");
    __itt_heap_function heap = ITT_CALL(heap_function_create, "bench_pool", "bench");
    uint64_t t0 = now_ns();
    for (long i = 0; i < events / 2; ++i) {
        void *p = malloc(64);
        ITT_CALLV(heap_allocate_end, heap, &p, 64, 0);
        static_cast<volatile char *>(p)[0] = 1;
        ITT_CALLV(heap_free_begin, heap, p);
        free(p);
    }
    uint64_t t1 = now_ns();
    for (long i = 0; i < frames; ++i) {
        ITT_CALL_D(frame_begin_v3, game, nullptr);
        ITT_CALL_D(frame_end_v3, game, nullptr);
    }
    uint64_t t2 = now_ns();
    printf("%.2f %.2f\n", static_cast<double>(t1 - t0) / static_cast<double>(events),
           static_cast<double>(t2 - t1) / static_cast<double>(frames));
    return 0;
}

struct Figures {
    double heap_ns = 0, frame_ns = 0;
};

Figures run_child(const char *self, long events, long frames, bool with_collector, const std::string &out) {
    std::string e = std::to_string(events), f = std::to_string(frames);
    std::vector<std::string> env;
    for (char **p = environ; *p; ++p)
        if (strncmp(*p, "INTEL_LIBITTNOTIFY64=", 21) != 0 && strncmp(*p, "MEMTRACER_", 10) != 0) env.push_back(*p);
    if (with_collector) {
        env.push_back(std::string("INTEL_LIBITTNOTIFY64=") + MT_ITT_COLLECTOR);
        env.push_back("MEMTRACER_OUTPUT=" + out);
        env.push_back("MEMTRACER_FLAGS=3");
        env.push_back("MEMTRACER_RING_BYTES=16777216");
    }
    std::vector<char *> envp, argv{const_cast<char *>(self), const_cast<char *>("--child"), e.data(), f.data(), nullptr};
    for (auto &s : env) envp.push_back(s.data());
    envp.push_back(nullptr);
    int fds[2];
    if (pipe(fds) != 0) exit(1);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    if (posix_spawn(&pid, self, &fa, nullptr, argv.data(), envp.data()) != 0) exit(1);
    close(fds[1]);
    char buf[128] = {0};
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    Figures r;
    if (n <= 0 || sscanf(buf, "%lf %lf", &r.heap_ns, &r.frame_ns) != 2) {
        fprintf(stderr, "bench_itt: child failed\n");
        exit(1);
    }
    return r;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--child") == 0) return child(atol(argv[2]), atol(argv[3]));
    long rounds = 7, events = 2000000, frames = 20000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--rounds") == 0) rounds = atol(argv[i + 1]);
        if (strcmp(argv[i], "--events") == 0) events = atol(argv[i + 1]);
        if (strcmp(argv[i], "--frames") == 0) frames = atol(argv[i + 1]);
    }
    std::string out = "/tmp/bench_itt_" + std::to_string(getpid()) + ".mt";
    std::vector<double> bh, bf, ch, cf;
    printf("ITT collector cost: %ld heap events and %ld frames per run, %ld rounds (noisy: shared machine)\n", events,
           frames, rounds);
    printf("%-6s %14s %14s %16s %16s\n", "round", "bare ns/event", "bare ns/frame", "traced ns/event", "traced ns/frame");
    for (long r = 0; r < rounds; ++r) {
        Figures b = run_child(argv[0], events, frames, false, out);
        Figures c = run_child(argv[0], events, frames, true, out);
        bh.push_back(b.heap_ns), bf.push_back(b.frame_ns), ch.push_back(c.heap_ns), cf.push_back(c.frame_ns);
        printf("%-6ld %14.2f %14.2f %16.2f %16.2f\n", r, b.heap_ns, b.frame_ns, c.heap_ns, c.frame_ns);
    }
    unlink(out.c_str());
    printf("median %14.2f %14.2f %16.2f %16.2f\n", upper_median(bh), upper_median(bf), upper_median(ch), upper_median(cf));
    printf("per heap event: %.2f ns more (%.2fx the bare event, malloc/free included)\n", upper_median(ch) - upper_median(bh),
           upper_median(ch) / upper_median(bh));
    printf("per frame:      %.2f ns more (%.2fx)\n", upper_median(cf) - upper_median(bf), upper_median(cf) / upper_median(bf));
    return 0;
}
