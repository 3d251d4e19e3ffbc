// bench_live.cpp — mt_on_alloc's cost with live streaming on versus off, in the same process:
// captures alternate (off, on, on, off, ...), each timing the same allocations from the same
// call chain. "On" streams to a host thread in this process (the runtime connects out to it,
// MEMTRACER_CONNECT-style) that reads and discards everything, as memtracer-capture would
// store it. Usage: bench_live [--reps N] [--allocs N]. Prints medians and the ratio.
#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "memtracer/memtracer.h"
#include "memtracer/stream_proto.h"
#include "../common/median.h"

using mt::bench::upper_median;

namespace {

constexpr uint64_t kFrameAllocs = 5000;
alignas(64) char g_objects[1 << 20];

__attribute__((noinline)) void leaf(uint64_t i) {
    mt_on_alloc(g_objects + (i * 64 % sizeof g_objects), reinterpret_cast<void *>(0x1000 + (i & 7) * 64), 16 + (i & 240));
    asm volatile("" ::: "memory");
}

__attribute__((noinline)) void chain(int depth, uint64_t begin, uint64_t end) {
    if (depth > 0) {
        chain(depth - 1, begin, end);
        asm volatile("" ::: "memory");
        return;
    }
    for (uint64_t i = begin; i < end; ++i) leaf(i);
}

struct Host {
    int listen_fd = -1;
    int port = 0;
    std::atomic<bool> streaming{false};
    std::atomic<uint64_t> bytes{0};
    std::thread t;

    void start() {
        listen_fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof sa;
        if (bind(listen_fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || listen(listen_fd, 1) != 0 ||
            getsockname(listen_fd, reinterpret_cast<sockaddr *>(&sa), &len) != 0) {
            std::perror("bench_live: host socket");
            std::exit(1);
        }
        port = ntohs(sa.sin_port);
        streaming = false;
        t = std::thread([this] { run(); });
    }

    void run() {
        int fd = accept(listen_fd, nullptr, nullptr);
        uint8_t hello[MT_LIVE_HELLO_FIXED] = {};
        std::memcpy(hello, MT_LIVE_HELLO_MAGIC, 4);
        mt_live_put16(hello + 4, MT_LIVE_VERSION);
        if (send(fd, hello, sizeof hello, 0) != static_cast<ssize_t>(sizeof hello)) std::exit(1);
        std::vector<uint8_t> buf(1 << 16);
        ssize_t n;
        while ((n = recv(fd, buf.data(), buf.size(), 0)) > 0) {
            bytes += static_cast<uint64_t>(n);
            streaming = true;
        }
        close(fd);
    }

    void join() {
        t.join();
        close(listen_fd);
    }
};

uint64_t g_drops[2];

double timed_capture(bool live, uint64_t allocs, uint64_t *streamed) {
    Host host;
    std::string out = "/tmp/bench_live_" + std::to_string(getpid()) + ".mt";
    std::string addr;
    mt_config c;
    mt_config_init(&c);
    c.output_path = out.c_str();
    c.flags = 0;
    c.ring_capacity = 64u << 20;  // the whole rep fits: time the recording path, not the drop path
    if (live) {
        host.start();
        addr = "127.0.0.1:" + std::to_string(host.port);
        c.live_connect = addr.c_str();
    }
    if (mt_start(&c) != MT_OK) {
        std::fprintf(stderr, "bench_live: mt_start: %s\n", mt_last_error());
        std::exit(1);
    }
    // Streaming must be under way before the clock starts (header and INFO received).
    while (live && !host.streaming) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    chain(18, 0, 1);  // the thread's per-capture set-up (slot, ring) stays out of the timing
    auto t0 = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < allocs; i += kFrameAllocs) {
        chain(18, i, std::min(allocs, i + kFrameAllocs));
        mt_frame_end(i / kFrameAllocs);
    }
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / allocs;
    mt_counters k;
    mt_get_counters(&k);
    mt_stop();
    if (live) {
        host.join();
        *streamed = host.bytes;
    }
    g_drops[live] += k.events_dropped;
    unlink(out.c_str());
    return ns;
}

}  // namespace

int main(int argc, char **argv) {
    uint64_t reps = 21, allocs = 200000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--reps")) reps = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--allocs")) allocs = std::strtoull(argv[i + 1], nullptr, 10);
    }
    std::vector<double> off, on;
    uint64_t streamed = 0;
    for (uint64_t r = 0; r < reps; ++r) {
        bool live_first = r % 2;  // alternate the order so neither variant always runs warm
        for (int k = 0; k < 2; ++k) {
            bool live = (k == 0) == live_first;
            (live ? on : off).push_back(timed_capture(live, allocs, &streamed));
        }
    }
    std::printf("bench_live: %llu allocations x %llu reps per variant, chain depth 18, frame every %llu\n",
                (unsigned long long)allocs, (unsigned long long)reps, (unsigned long long)kFrameAllocs);
    std::printf("mt_on_alloc ns per allocation (median [min..max])\n");
    std::printf("  streaming off (baseline) %7.1f [%.1f..%.1f]\n", upper_median(off), *std::min_element(off.begin(), off.end()),
                *std::max_element(off.begin(), off.end()));
    std::printf("  streaming on             %7.1f [%.1f..%.1f]  (%llu bytes streamed in the last capture)\n", upper_median(on),
                *std::min_element(on.begin(), on.end()), *std::max_element(on.begin(), on.end()),
                (unsigned long long)streamed);
    std::printf("  on / off                 %7.2fx\n", upper_median(on) / upper_median(off));
    std::printf("dropped: off %llu, on %llu\n", (unsigned long long)g_drops[0], (unsigned long long)g_drops[1]);
    return 0;
}
