// encode_bench.cpp — the EVENTS encoder alone (event_encode.h's encode_event), timed natively
// on prepared records, so that its cost can be set against the writer's whole CPU per event
// (bench_runtime --writer-only) and two encoders compared without the ring, the frames and the
// commit around them (docs/benchmarks.md, issue 22 ninth session). Built against one tree's
// headers; bench/runtime/encode_bench.sh builds it for two trees and runs them interleaved.
//
// Two streams of 1,000,000 events: "periodic" is bench_runtime --writer-only's workload (one
// stack, sizes cycling with period 8, Boehm's free-list addresses, a tick that advances by about
// 100), whose branches repeat every 8 events: a history-based predictor learns them, valgrind's
// simulator (a table of 2-bit counters) does not;
// "game" mixes call sites, sizes, threads and address outcomes pseudo-randomly, as a game's
// frame does, so that the encoder's data-dependent branches are not learnable.
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <algorithm>
#include <random>
#include <vector>

#include "memtracer/buf.h"
#include "memtracer/event_encode.h"
#include "memtracer/event_predict.h"

using namespace mt;

namespace {

uint64_t thread_ns() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

constexpr size_t kEvents = 1000000;
constexpr uint64_t kSizes[] = {16, 24, 32, 48, 64, 128, 256, 40};

std::vector<codec::EventShape> g_shapes;

std::vector<trace::EventRecord> periodic(std::mt19937_64 &rng) {
    std::vector<trace::EventRecord> ev(kEvents);
    // As a capture of bench_runtime --writer-only shows (memtracer-dump --events): one stack, the
    // GC size the requested size, about 100 ticks apart (a few thousand now and then), and
    // Boehm's free lists by granule (size + 1 rounded up to 16: 16 and 24 share one list, 32 and
    // 40 another) handing out descending addresses, so 16 and 24 (and 32 and 40) also share an
    // address slot and each finds the other's GC size there.
    uint64_t tick = 1000, list[18];  // by granules: 256 + 1 takes 17
    for (int i = 0; i < 18; ++i) list[i] = 0x7f0000000000ull + (static_cast<uint64_t>(i) << 20);
    for (size_t i = 0; i < kEvents; ++i) {
        tick += rng() % 64 ? 95 + rng() % 40 : 2000 + rng() % 30000;
        const uint64_t size = kSizes[i & 7], granules = (size + 1 + 15) / 16;
        uint64_t &a = list[granules];
        a -= granules * 16;
        if (rng() % 512 == 0) a += 1 << 16;  // a new block now and then
        ev[i] = trace::EventRecord{0, tick, 1, 0, size, size, a, &g_shapes[0]};
    }
    return ev;
}

std::vector<trace::EventRecord> game(std::mt19937_64 &rng) {
    std::vector<trace::EventRecord> ev(kEvents);
    std::vector<uint64_t> addr(64);
    for (size_t i = 0; i < addr.size(); ++i) addr[i] = 0x7f0000000000ull + (i << 22);
    uint64_t tick = 1000;
    uint32_t stack = 0, thread = 0;
    for (trace::EventRecord &e : ev) {
        if (rng() % 16 == 0) thread = static_cast<uint32_t>(rng() % 4);
        tick += rng() % 3 == 0 ? rng() % 100 : 100 + rng() % 3000;  // 1, 2 or 3-byte dt
        stack = rng() % 2 ? (stack + 1) % 300 : static_cast<uint32_t>(rng() % 300);
        const codec::EventShape &s = g_shapes[stack];
        uint64_t size = rng() % 3 ? s.size : 16 + rng() % 2000;  // arrays and strings vary
        uint64_t gc = size == s.size ? s.gc_size : (size + 15) & ~15ull;
        uint64_t &a = addr[(thread * 7 + (gc >> 4)) % addr.size()];
        a += rng() % 4 ? gc : gc * (1 + rng() % 8);
        e = trace::EventRecord{thread, tick, static_cast<uint32_t>(rng() % 8 ? s.class_id : rng() % 500), stack, size, gc, a,
                               &s};
    }
    return ev;
}

// ns per event: the median of reps, each encoding the stream into one buffer in 4 chunks.
double time_stream(const std::vector<trace::EventRecord> &ev, int reps, size_t *bytes) {
    std::vector<double> t;
    trace::Buf buf;
    for (int r = 0; r < reps; ++r) {
        buf.clear();
        codec::EventPredict p;
        trace::EventDeltas prev;
        const uint64_t t0 = thread_ns();
        for (size_t i = 0; i < ev.size(); ++i) {
            if (i % (kEvents / 4) == 0) {
                p.reset();
                prev = trace::EventDeltas{};
            }
            trace::event_encode::encode_event(buf, ev[i], prev, p);
        }
        t.push_back(static_cast<double>(thread_ns() - t0) / static_cast<double>(ev.size()));
        *bytes = buf.size();
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
    const int reps = argc > 1 ? atoi(argv[1]) : 15;
    std::mt19937_64 rng(22);
    g_shapes.resize(300);
    for (auto &s : g_shapes) {
        s.class_id = rng() % 50;
        s.size = kSizes[rng() % 8];
        s.gc_size = (s.size + 15) & ~15ull;
    }
    g_shapes[0] = codec::EventShape{1, 16, 16};  // periodic's one call site: its sizes vary, so rarely SAME_SIZE
    const std::vector<trace::EventRecord> a = periodic(rng), b = game(rng);
    size_t na = 0, nb = 0;
    const double ta = time_stream(a, reps, &na), tb = time_stream(b, reps, &nb);
    printf("periodic %.2f ns/event %.3f bytes/event  game %.2f ns/event %.3f bytes/event\n", ta,
           static_cast<double>(na) / kEvents, tb, static_cast<double>(nb) / kEvents);
    return 0;
}
