// The EVENTS encoder the runtime's writer inlines (event_encode.h) against a reference written
// from the decoder's side of the contract: EventPredict's own predict/learn calls, the ones
// decode_events.cpp makes, and codec::put_varint. The encoder reads every prediction, learns,
// then writes (issue 22, seventh session); this pins that it still writes the same bytes as the
// format says, on pseudo-random events that hit every flag, every varint length and chunk resets.
// Also the Buf contract the encoder's one-compare room() relies on.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "memtracer/buf.h"
#include "memtracer/codec.h"
#include "memtracer/event_encode.h"
#include "memtracer/event_predict.h"
#include "memtracer/trace_writer.h"

#include <memtracer/format.h>

using namespace mt;

namespace {

void put(std::vector<uint8_t> &out, uint64_t v) {
    uint8_t b[codec::kMaxVarint];
    out.insert(out.end(), b, b + codec::put_varint(b, v));
}

// One entry as format.h (MT_EVENT_FIELDS, mt_event_flags) and the decoder define it.
void reference_entry(std::vector<uint8_t> &out, const trace::EventRecord &e, trace::EventDeltas &prev,
                     codec::EventPredict &p) {
    uint32_t flags = 0;
    std::vector<uint8_t> f;
    if (p.thread_plus1 == static_cast<uint64_t>(e.thread) + 1) flags |= MT_EVENT_SAME_THREAD;
    else put(f, e.thread);
    put(f, codec::zigzag(static_cast<int64_t>(e.tick - prev.tick)));
    if (p.predict_stack_plus1(true) == static_cast<uint64_t>(e.stack_id) + 1) flags |= MT_EVENT_STACK_PREDICTED;
    else put(f, e.stack_id);
    const codec::EventShape *shape = p.last_shape(e.stack_id);
    if (!shape) shape = e.stack_shape;
    if (shape && shape->class_id == e.class_id) flags |= MT_EVENT_SAME_CLASS;
    else put(f, e.class_id);
    if (shape && shape->size == e.size && shape->gc_size == e.gc_size) {
        flags |= MT_EVENT_SAME_SIZE;
    } else {
        put(f, e.size);
        if (e.gc_size == e.size) flags |= MT_EVENT_NO_GC_EXTRA;
        else put(f, codec::zigzag(static_cast<int64_t>(e.gc_size - e.size)));
    }
    uint64_t predicted = 0;
    bool known = p.predict_addr(e.thread, e.gc_size, &predicted);
    if (known && predicted == e.address) flags |= MT_EVENT_ADDR_PREDICTED;
    else put(f, codec::zigzag(static_cast<int64_t>(e.address - (known ? predicted : prev.address))));
    p.learn(e.thread, e.stack_id, codec::EventShape{e.class_id, e.size, e.gc_size}, e.address);
    prev.tick = e.tick;
    prev.address = e.address;
    out.push_back(static_cast<uint8_t>(flags));
    out.insert(out.end(), f.begin(), f.end());
}

// Events shaped like a game's (loops over a few call sites, free-list strides, runs of one
// thread) with every kind of outlier mixed in: long and backwards ticks, 64-bit sizes and
// addresses, stacks that share a shape slot (ids 256 apart), events with no STACKS shape.
std::vector<trace::EventRecord> random_events(std::mt19937_64 &rng, size_t n, const std::vector<codec::EventShape> &shapes) {
    std::vector<trace::EventRecord> ev(n);
    std::vector<uint64_t> addr(64);
    for (auto &a : addr) a = rng() & 0xffffffffff0ull;
    uint64_t tick = rng() % 1000000;
    uint32_t stack = 0, thread = 0;
    const uint32_t n_stacks = static_cast<uint32_t>(shapes.size());
    for (trace::EventRecord &e : ev) {
        if (rng() % 8 == 0) thread = static_cast<uint32_t>(rng() % 9);
        const int dt_kind = static_cast<int>(rng() % 10);
        tick += dt_kind < 3 ? rng() % 0x80 : dt_kind < 6 ? rng() % 0x4000 : dt_kind < 8 ? rng() % 0x200000
              : dt_kind < 9 ? rng() % (1ull << 40) : 0;
        if (rng() % 50 == 0) tick -= rng() % 1000;  // threads' ticks interleave out of order
        stack = rng() % 4 ? (stack + 1) % (n_stacks < 5 ? n_stacks : 5) : static_cast<uint32_t>(rng() % n_stacks);
        const codec::EventShape &s = shapes[stack];
        uint64_t size = rng() % 4 ? s.size : rng() % 5000000;
        uint64_t gc = rng() % 4 ? (size == s.size ? s.gc_size : size) : size + rng() % 100;
        if (rng() % 200 == 0) {
            size = rng();
            gc = size + (rng() % 2 ? rng() : 0);
        }
        uint64_t &a = addr[(thread * 7 + (gc >> 4)) % addr.size()];
        const int addr_kind = static_cast<int>(rng() % 10);
        a += addr_kind < 6 ? gc : addr_kind < 8 ? gc * (1 + rng() % 4) : addr_kind < 9 ? 0 - rng() % 100000 : rng();
        e = trace::EventRecord{thread, tick, rng() % 5 ? static_cast<uint32_t>(s.class_id) : static_cast<uint32_t>(rng() % 300),
                               stack, size, gc, a, rng() % 5 ? &s : nullptr};
    }
    return ev;
}

// The inline encoder and the reference (reference_entry) side by side, from the same state.
struct Encoders {
    trace::Buf got;
    std::vector<uint8_t> want;
    trace::EventDeltas prev_got, prev_want;
    codec::EventPredict p_got, p_want;
    Encoders() { restart(); }
    // A new chunk: the prediction state starts over on both sides (the bytes so far are kept).
    void restart() {
        p_got.reset();
        p_want.reset();
        prev_got = prev_want = trace::EventDeltas{};
    }
    // Both encode `e`; the reference entry's flags byte.
    uint8_t add(const trace::EventRecord &e) {
        const size_t at = want.size();
        reference_entry(want, e, prev_want, p_want);
        trace::event_encode::encode_event(got, e, prev_got, p_got);
        return want[at];
    }
    bool same() const { return std::vector<uint8_t>(got.data(), got.data() + got.size()) == want; }
};

}  // namespace

TEST_CASE("EVENTS: the inline encoder writes the reference bytes, every flag and varint length", "[trace]") {
    std::mt19937_64 rng(22);
    size_t compared = 0;
    uint32_t flags_seen = 0;
    for (int trial = 0; trial < 40; ++trial) {
        std::vector<codec::EventShape> shapes(1 + rng() % 600);
        for (auto &s : shapes) {
            s.class_id = rng() % 50;
            s.size = 8 + rng() % 300;
            s.gc_size = s.size + (rng() % 3 ? 0 : rng() % 40);
        }
        std::vector<trace::EventRecord> ev = random_events(rng, 5000, shapes);
        const size_t chunk = 1 + rng() % 6000;  // the prediction state starts over with each chunk
        Encoders enc;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (i % chunk == 0) enc.restart();
            flags_seen |= enc.add(ev[i]);
            REQUIRE(enc.got.size() == enc.want.size());
        }
        REQUIRE(enc.same());
        compared += enc.want.size();
    }
    CHECK(flags_seen == MT_EVENT_FLAGS_ALL);  // every flag was set somewhere, and left clear
    CHECK(compared > 100000);
}

// A game-shaped stream (issue 22, tenth session: a capture's allocations): a few threads, each
// with Boehm-like free lists per GC size that hand out runs of equal steps broken by jumps (a
// live object skipped, a new block), so the address slot's stride is re-learned and kept at
// random, the case the encoder learns with a mask instead of a branch; call sites that mostly
// follow their last successor. Bytes and the whole prediction state against the reference.
TEST_CASE("EVENTS: the inline encoder writes the reference bytes on a game-shaped stream", "[trace]") {
    std::mt19937_64 rng(10);
    std::vector<codec::EventShape> shapes(90);
    for (auto &s : shapes) {
        s.class_id = rng() % 34;
        s.size = 16 + rng() % 200;
        s.gc_size = (s.size + 1 + 15) & ~uint64_t{15};
    }
    uint64_t lists[4][32];
    for (int t = 0; t < 4; ++t)
        for (int g = 0; g < 32; ++g) lists[t][g] = 0x7f0000000000ull + (uint64_t(t) << 32) + (uint64_t(g) << 20);
    Encoders enc;
    uint64_t tick = 0;
    uint32_t thread = 0, stack = 0;
    size_t predicted = 0, written = 0;
    for (int i = 0; i < 60000; ++i) {
        if (i % 400 == 0) {
            REQUIRE(memcmp(&enc.p_got, &enc.p_want, sizeof enc.p_got) == 0);
            enc.restart();
        }
        if (rng() % 32 == 0) thread = rng() % 4;
        stack = rng() % 3 ? (stack * 7 + 1) % 90 : rng() % 90;
        const codec::EventShape &sh = shapes[stack];
        const uint64_t size = rng() % 4 ? sh.size : 16 + rng() % 500;
        const uint64_t gc = size == sh.size ? sh.gc_size : (size + 1 + 15) & ~uint64_t{15};
        uint64_t &a = lists[thread][(gc >> 4) % 32];
        a += rng() % 3 ? gc : gc * (2 + rng() % 5);  // a run's step, or a jump over live objects
        tick += 100 + rng() % 400;
        const uint8_t flags = enc.add(trace::EventRecord{thread, tick, static_cast<uint32_t>(sh.class_id), stack, size, gc, a, &sh});
        ++(flags & MT_EVENT_ADDR_PREDICTED ? predicted : written);
        REQUIRE(enc.got.size() == enc.want.size());
    }
    REQUIRE(enc.same());
    CHECK(memcmp(&enc.p_got, &enc.p_want, sizeof enc.p_got) == 0);
    CHECK(predicted > 10000);  // both outcomes of the address prediction, many times
    CHECK(written > 10000);
}

// Every varint length boundary (and 2^28, where a 4-byte word stops holding a varint, and the
// 64-bit and zigzag extremes) in each field the encoder writes: the thread, dt, the stack, the
// class, the size, the GC extra and the address delta, one field varied at a time, the others
// kept so that their predictions hold or fail as the value makes them.
TEST_CASE("EVENTS: the inline encoder writes the reference bytes at every varint length boundary", "[trace]") {
    std::vector<uint64_t> values = {0, 1, 2, 63, 64, (1ull << 28) - 1, 1ull << 28, (1ull << 28) + 1, 1ull << 63,
                                    ~0ull, ~0ull - 1, (1ull << 63) - 1, (1ull << 63) + 1};
    for (int bits = 7; bits <= 63; bits += 7) {
        values.push_back((1ull << bits) - 1);
        values.push_back(1ull << bits);
    }
    size_t compared = 0;
    for (int field = 0; field < 7; ++field) {
        Encoders enc;
        uint64_t tick = 1000, address = 0x100000;
        for (uint64_t v : values) {
            for (uint64_t sign : {0ull, 1ull}) {  // v and its negation, where the field is a signed delta
                const uint64_t sv = sign ? 0 - v : v;
                trace::EventRecord e{0, tick += 10, 3, 4, 40, 48, address += 48};
                switch (field) {
                    case 0: e.thread = static_cast<uint32_t>(sv); break;
                    case 1: e.tick = tick += sv; break;
                    case 2: e.stack_id = static_cast<uint32_t>(sv); break;
                    case 3: e.class_id = static_cast<uint32_t>(sv); break;
                    case 4: e.size = sv; e.gc_size = sv; break;
                    case 5: e.gc_size = e.size + sv; break;
                    default: e.address = address += sv; break;
                }
                enc.add(e);
                REQUIRE(enc.got.size() == enc.want.size());
            }
        }
        REQUIRE(enc.same());
        compared += enc.want.size();
    }
    CHECK(compared > 1000);
}

// The encoder learns an address slot inline (the ninth session of issue 22 also tried selects and
// masks there) rather than through EventPredict::learn_addr: every transition of one slot, step
// by step, against the reference, with the slot's state compared too (the next entries depend
// on it).
TEST_CASE("EVENTS: the address slot learns as learn_addr does, transition by transition", "[trace]") {
    struct Step {
        uint32_t thread;
        uint64_t gc, address;
    };
    // One thread and GC size (slot 2 for thread 0, gc 32): a new slot, the first step (stride
    // still minus the GC size), the same step twice (the stride becomes it), a step that breaks
    // the run (stride kept), the run again; then another GC size and another thread that land in
    // the same slot (mt_event_addr_slot: gc >> 4 plus 37 per thread, mod 128), which take it
    // over and start again; an address below the last (a negative step); a repeat of zero.
    const uint64_t gc_same_slot = 32 + 16 * MT_EVENT_ADDR_SLOTS;  // (gc >> 4) % 128 == 2
    const Step steps[] = {
        {0, 32, 0x10000}, {0, 32, 0x10020}, {0, 32, 0x10040}, {0, 32, 0x10060}, {0, 32, 0x10100},
        {0, 32, 0x10120}, {0, 32, 0x10140}, {0, gc_same_slot, 0x90000}, {0, 32, 0x10160},
        {0, 32, 0x10180}, {0, 32, 0x101a0}, {1, 32 + 16 * (128 - 37), 0x20000}, {0, 32, 0x101c0},
        {0, 32, 0x10000}, {0, 32, 0xfe40}, {0, 32, 0xfc80}, {0, 32, 0xfc80}, {0, 32, 0xfc80},
    };
    REQUIRE(mt_event_addr_slot(0, gc_same_slot) == mt_event_addr_slot(0, 32));
    REQUIRE(mt_event_addr_slot(1, 32 + 16 * (128 - 37)) == mt_event_addr_slot(0, 32));
    Encoders enc;
    uint64_t tick = 0;
    uint32_t flags_seen = 0;
    for (const Step &s : steps) {
        const trace::EventRecord e{s.thread, tick += 10, 3, 4, s.gc, s.gc, s.address};
        flags_seen |= enc.add(e);
        REQUIRE(enc.same());
        const auto &a = enc.p_got.addr_of(s.thread, s.gc), &b = enc.p_want.addr_of(s.thread, s.gc);
        CHECK(a.thread_plus1 == b.thread_plus1);
        CHECK(a.gc_size == b.gc_size);
        CHECK(a.address == b.address);
        CHECK(a.stride == b.stride);
        CHECK(a.step == b.step);
    }
    CHECK((flags_seen & MT_EVENT_ADDR_PREDICTED) != 0);
}

TEST_CASE("EVENTS: the writer's stack_shape() is asked only for a stack its slot does not hold", "[trace]") {
    const codec::EventShape shape{5, 24, 32};
    trace::ListEncoder l;
    l.begin(100);
    int asked = 0;
    auto lookup = [&] {
        ++asked;
        return &shape;
    };
    trace::EventRecord e{0, 100, 5, 9, 24, 32, 0x4000};
    l.add(e, lookup);  // stack 9's first event: its STACKS shape
    CHECK(asked == 1);
    e.tick = 110;
    e.address = 0x4020;
    l.add(e, lookup);  // the slot holds stack 9 now
    CHECK(asked == 1);
    e.stack_id = 9 + MT_EVENT_SHAPE_SLOTS;  // same slot, another stack: asked again
    l.add(e, lookup);
    CHECK(asked == 2);
    // The same bytes as the record carrying the shape itself.
    trace::ListEncoder m;
    m.begin(100);
    trace::EventRecord f{0, 100, 5, 9, 24, 32, 0x4000, &shape};
    m.add(f);
    f.tick = 110;
    f.address = 0x4020;
    m.add(f);
    f.stack_id = 9 + MT_EVENT_SHAPE_SLOTS;
    m.add(f);
    REQUIRE(l.bytes() == m.bytes());
    CHECK(std::vector<uint8_t>(l.body().data(), l.body().data() + l.bytes()) ==
          std::vector<uint8_t>(m.body().data(), m.body().data() + m.bytes()));
}

TEST_CASE("Buf: a failed buffer has no room until reset, then works from its start", "[trace]") {
    trace::Buf b;
    b.put_bytes("abcd", 4);
    REQUIRE(b.room(8) != nullptr);
    b.set_failed();
    CHECK(b.failed());
    CHECK(b.room(1) == nullptr);  // room()'s one compare must see the failure
    CHECK(b.reserve(1) == nullptr);
    b.put_u(300);  // a no-op
    CHECK(b.size() == 4);
    trace::EventDeltas prev;
    codec::EventPredict p;
    p.reset();
    trace::event_encode::encode_event(b, trace::EventRecord{0, 1, 0, 0, 8, 8, 16}, prev, p);
    CHECK(b.size() == 4);  // no entry on a failed buffer
    b.reset();
    CHECK_FALSE(b.failed());
    b.put_u(300);
    REQUIRE(b.size() == 2);
    CHECK(b.data()[0] == 0xac);
    CHECK(b.data()[1] == 0x02);
    uint8_t *w = b.room(100);
    REQUIRE(w != nullptr);
    CHECK(w == b.data() + 2);
}
