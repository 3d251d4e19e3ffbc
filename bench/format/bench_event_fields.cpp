// bench_event_fields: where a run.mt's EVENTS bytes go, field by field, and what other predictors
// would make of the same events (issue 22: bytes per allocation). Reads any run.mt (versions 1-4)
// and re-encodes its events the way the version 4 encoder does (event_predict.h, the encoder's own
// prediction state), counting each field's bytes, then the same with alternatives:
//   v3 stack      STACK_PREDICTED as version 3 had it (the previous event's stack)
//   carried       the prediction state kept per thread across chunks instead of per chunk
//   dt variants   the tick against the same thread's previous tick, or that thread's previous dt
// A chunk is taken to be one frame (the runtime writes a frame's events as one chunk unless it
// holds more than kChunkSpill bytes or the writer's staging bound is passed), so the v4 column is
// close to the file's EVENTS bytes, not equal to them.
//
//   bench_event_fields run.mt
#include <memtracer/codec.h>
#include <memtracer/event_predict.h>
#include <memtracer/reader.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <sys/stat.h>

namespace {

using mt::codec::EventPredict;
using mt::codec::EventShape;
using mt::reader::Event;

int vbytes(uint64_t v) {
    int n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}
int sbytes(int64_t v) { return vbytes(mt::codec::zigzag(v)); }

enum Field { kThread, kDt, kStack, kClass, kSize, kGcExtra, kAddr, kFields };
const char *kNames[kFields] = {"thread", "dt", "stack", "class", "size", "gc_extra", "addr"};

// One encoding's bytes per field (the flags byte is one per event in every variant).
struct Tally {
    double bytes[kFields] = {};
    uint64_t predicted[kFields] = {};
    void add(Field f, bool hit, int n) {
        if (hit) ++predicted[f];
        else bytes[f] += n;
    }
};

// Mirrors encode_event (event_encode.h): what it writes for event e against state p, and
// learns e. `successor`: version 4's stack prediction; `prev_addr` and `prev_tick` are the
// chunk's running values.
// `stacks`: the file's STACKS entries, whose shapes (version 3 on) predict a stack's first event.
void encode(const Event &e, const std::vector<mt::reader::Stack> &stacks, EventPredict &p, bool successor,
            uint64_t &prev_addr, uint64_t &prev_tick, Tally &t) {
    t.add(kThread, p.thread_plus1 == e.thread + 1ull, vbytes(e.thread));
    t.add(kDt, false, sbytes(static_cast<int64_t>(e.tick - prev_tick)));
    prev_tick = e.tick;
    t.add(kStack, p.predict_stack_plus1(successor) == e.stack_id + 1ull, vbytes(e.stack_id));
    const EventShape *shape = p.last_shape(e.stack_id);
    EventShape dict{};
    if (!shape && e.stack_id < stacks.size()) {
        const mt::reader::Stack &s = stacks[e.stack_id];
        dict = EventShape{s.shape_class, s.shape_size, s.shape_gc_size};
        shape = &dict;
    }
    bool same_size = shape && shape->size == e.size && shape->gc_size == e.gc_size;
    t.add(kClass, shape && shape->class_id == e.class_id, vbytes(e.class_id));
    t.add(kSize, same_size, vbytes(e.size));
    t.add(kGcExtra, same_size || e.gc_size == e.size, sbytes(static_cast<int64_t>(e.gc_size - e.size)));
    uint64_t base = prev_addr;
    bool known = p.predict_addr(e.thread, e.gc_size, &base);
    t.add(kAddr, known && base == e.address, sbytes(static_cast<int64_t>(e.address - base)));
    prev_addr = e.address;
    p.learn(e.thread, e.stack_id, EventShape{e.class_id, e.size, e.gc_size}, e.address);
}

void print(const char *name, const Tally &t, uint64_t n) {
    double sum = 1.0;  // the flags byte
    std::printf("%-34s flags 1.00", name);
    for (int f = 0; f < kFields; ++f) {
        std::printf("  %s %.2f", kNames[f], t.bytes[f] / n);
        sum += t.bytes[f] / n;
    }
    std::printf("  = %.2f B/event\n%-34s predicted:", sum, "");
    for (int f = 0; f < kFields; ++f) std::printf(" %s %.1f%%", kNames[f], 100.0 * t.predicted[f] / n);
    std::printf("\n");
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_event_fields run.mt\n");
        return 1;
    }
    mt::reader::Run run = mt::reader::load_file(argv[1]);
    struct stat st{};
    stat(argv[1], &st);
    Tally v4, v3, carried;
    double dt_thread = 0, dt_dod = 0;
    // The carried variant: one state per thread, never reset (a thread's events in file order).
    std::map<uint32_t, std::unique_ptr<EventPredict>> per_thread;
    struct ThreadTicks {
        uint64_t tick = 0;
        int64_t dt = 0;
        bool any = false;
    };
    std::map<uint32_t, ThreadTicks> ticks;
    auto chunk4 = std::make_unique<EventPredict>(), chunk3 = std::make_unique<EventPredict>();
    uint64_t n = 0;
    for (const auto &f : run.frames) {
        chunk4->reset();
        chunk3->reset();
        uint64_t a4 = 0, a3 = 0, t4 = f.start_tick, t3 = f.start_tick;
        uint64_t ac = 0, tc = f.start_tick;
        for (const Event &e : f.event_list) {
            ++n;
            const uint64_t chunk_thread = chunk4->thread_plus1;  // the thread field stays per chunk
            encode(e, run.stacks, *chunk4, true, a4, t4, v4);
            encode(e, run.stacks, *chunk3, false, a3, t3, v3);
            auto &pt = per_thread[e.thread];
            if (!pt) {
                pt = std::make_unique<EventPredict>();
                pt->reset();
            }
            pt->thread_plus1 = chunk_thread;
            encode(e, run.stacks, *pt, true, ac, tc, carried);
            ThreadTicks &tt = ticks[e.thread];
            int64_t dt = static_cast<int64_t>(e.tick - (tt.any ? tt.tick : f.start_tick));
            dt_thread += sbytes(dt);
            dt_dod += sbytes(dt - tt.dt);
            tt = ThreadTicks{e.tick, dt, true};
        }
    }
    if (n == 0) {
        std::fprintf(stderr, "%s: no events (aggregate mode, or nothing committed)\n", argv[1]);
        return 1;
    }
    std::printf("%s: format version %u, %llu events, %zu threads, %zu stacks; file %.2f B/event\n", argv[1],
                run.header.version, static_cast<unsigned long long>(n), run.threads.size(), run.stacks.size(),
                static_cast<double>(st.st_size) / n);
    print("v4 (per chunk = frame)", v4, n);
    print("v3 stack prediction", v3, n);
    print("carried per thread (stack, addr)", carried, n);
    std::printf("dt against the thread's previous tick %.2f B/event, against its previous dt %.2f\n", dt_thread / n,
                dt_dod / n);
    return 0;
}
