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
// frame does, so that the encoder's data-dependent branches are not learnable. With --real FILE,
// "real": a capture's events (bench_encode_export's file), one chunk per frame as the writer
// writes them, so its bytes are the capture's EVENTS bytes; a real game's stream sits between
// the two, much nearer the periodic one (issue 22, tenth session).
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <random>
#include <utility>
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

// A stream and where its chunks start (the prediction state restarts there, the tick deltas from
// the chunk's base tick): the synthetic streams in 4 chunks, a capture's one per frame.
struct Stream {
    const char *name;
    std::vector<trace::EventRecord> ev;
    std::vector<std::pair<size_t, uint64_t>> chunks;  // first event, base tick
};

Stream quarters(const char *name, std::vector<trace::EventRecord> ev) {
    Stream s{name, std::move(ev), {}};
    for (size_t i = 0; i < 4; ++i) s.chunks.emplace_back(s.ev.size() / 4 * i, 0);
    return s;
}

// A capture's events (encode_bench_export's flat file): the stacks' STACKS shapes go to
// g_real_shapes, so that the first event of a stack in a chunk is predicted as the writer
// predicts it.
std::vector<codec::EventShape> g_real_shapes;

bool load_real(const char *path, Stream *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char magic[8];
    auto get = [f] {
        uint64_t v = 0;
        if (fread(&v, sizeof v, 1, f) != 1) v = UINT64_MAX;
        return v;
    };
    bool ok = fread(magic, 8, 1, f) == 1 && memcmp(magic, "MTEVREC1", 8) == 0;
    const uint64_t nstacks = ok ? get() : 0;
    ok = ok && nstacks < (1u << 24);
    for (uint64_t i = 0; ok && i < nstacks; ++i) {
        const uint64_t c = get(), sz = get(), gc = get();
        g_real_shapes.push_back(codec::EventShape{c, sz, gc});
    }
    const uint64_t nframes = ok ? get() : 0;
    for (uint64_t fr = 0; ok && fr < nframes; ++fr) {
        const uint64_t base = get(), n = get();
        if (n > (1u << 26)) ok = false;
        out->chunks.emplace_back(out->ev.size(), base);
        for (uint64_t i = 0; ok && i < n; ++i) {
            uint64_t v[7];
            for (uint64_t &x : v) x = get();
            const uint32_t stack = static_cast<uint32_t>(v[3]);
            out->ev.push_back(trace::EventRecord{static_cast<uint32_t>(v[0]), v[1], static_cast<uint32_t>(v[2]), stack, v[4],
                                                 v[5], v[6], nullptr});
        }
    }
    fclose(f);
    // Pointers into g_real_shapes only once it stops growing.
    for (trace::EventRecord &e : out->ev) e.stack_shape = e.stack_id < g_real_shapes.size() ? &g_real_shapes[e.stack_id] : nullptr;
    return ok && !out->ev.empty();
}

// A chunk's start (ListEncoder::begin): out of line, so that encode_bench_counts.sh can leave its
// memset out of the per-event counts (valgrind replaces memset with a byte loop).
__attribute__((noinline)) void start_chunk(codec::EventPredict &p, trace::EventDeltas &prev, uint64_t base_tick) {
    p.reset();
    prev = trace::EventDeltas{base_tick, 0};
}

// One pass over the stream into buf, chunk by chunk.
__attribute__((noinline)) void encode_stream(const Stream &s, trace::Buf &buf) {  // valgrind counts inside it
    codec::EventPredict p;
    trace::EventDeltas prev;
    size_t c = 0;
    for (size_t i = 0; i < s.ev.size(); ++i) {
        if (c < s.chunks.size() && s.chunks[c].first == i) start_chunk(p, prev, s.chunks[c++].second);
        trace::event_encode::encode_event(buf, s.ev[i], prev, p);
    }
}

// FNV-1a of the bytes: base and new encoders must print the same for each stream.
uint64_t digest(const trace::Buf &b) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < b.size(); ++i) h = (h ^ b.data()[i]) * 1099511628211ull;
    return h;
}

// ns per event: the median of reps, each encoding the whole stream into one buffer.
double time_stream(const Stream &s, int reps, size_t *bytes, uint64_t *hash) {
    std::vector<double> t;
    trace::Buf buf;
    for (int r = 0; r < reps; ++r) {
        buf.clear();
        const uint64_t t0 = thread_ns();
        encode_stream(s, buf);
        t.push_back(static_cast<double>(thread_ns() - t0) / static_cast<double>(s.ev.size()));
    }
    *bytes = buf.size();
    *hash = digest(buf);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace

// bench_encode [REPS] [--real FILE] [--only NAME]: every stream's median ns per event, bytes per
// event and digest of the bytes; --real adds a capture's stream (encode_bench_export), --only
// runs one stream (for valgrind's per-stream counts: `--only real 1`).
int main(int argc, char **argv) {
    int reps = 15;
    const char *real = nullptr, *only = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--real") && i + 1 < argc) real = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else reps = atoi(argv[i]);
    }
    std::mt19937_64 rng(22);
    g_shapes.resize(300);
    for (auto &s : g_shapes) {
        s.class_id = rng() % 50;
        s.size = kSizes[rng() % 8];
        s.gc_size = (s.size + 15) & ~15ull;
    }
    g_shapes[0] = codec::EventShape{1, 16, 16};  // periodic's one call site: its sizes vary, so rarely SAME_SIZE
    std::vector<Stream> streams;
    streams.push_back(quarters("periodic", periodic(rng)));
    streams.push_back(quarters("game", game(rng)));
    if (real) {
        Stream s{"real", {}, {}};
        if (!load_real(real, &s)) {
            fprintf(stderr, "%s: not an encode_bench_export file\n", real);
            return 1;
        }
        streams.push_back(std::move(s));
    }
    for (const Stream &s : streams) {
        if (only && strcmp(only, s.name)) continue;
        size_t n = 0;
        uint64_t h = 0;
        const double t = time_stream(s, reps, &n, &h);
        printf("%s %.2f ns/event %.3f bytes/event %016llx  ", s.name, t, static_cast<double>(n) / static_cast<double>(s.ev.size()),
               static_cast<unsigned long long>(h));
    }
    printf("\n");
    return 0;
}
