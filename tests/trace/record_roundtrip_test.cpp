// One round trip per record type of format.h: the encoder (TraceWriter) writes a chunk into a
// memfd, the decoder (decode_*.cpp, the reader's own) reads its payload back, and every field
// must come back equal, for ordinary values and the boundaries: 0, the largest varint
// (UINT64_MAX, 10 bytes), deltas that wrap, empty strings and lists.
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "decode.h"
#include "memtracer/codec.h"
#include "memtracer/trace_writer.h"

#include <memtracer/format.h>
#include <memtracer/memtracer.h>  // MT_MAX_MARK_LABEL

using namespace mt;
using reader::detail::Cursor;
using reader::detail::DictSizes;

namespace {

constexpr uint64_t kMax = UINT64_MAX;
constexpr uint32_t kMax32 = UINT32_MAX;

struct Chunk {
    uint16_t type;
    std::vector<uint8_t> payload;
};

// Runs `write` against a TraceWriter on a memfd and returns the chunks it produced, checking
// each one's magic, size and CRC on the way (a chunk the reader would refuse fails here).
template <class F>
std::vector<Chunk> written_chunks(F write) {
    int fd = memfd_create("mt_trace_roundtrip", 0);
    REQUIRE(fd >= 0);
    trace::TraceWriter w;
    w.attach(fd);
    write(w);
    REQUIRE(w.flush());
    off_t size = lseek(fd, 0, SEEK_END);
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    REQUIRE(pread(fd, bytes.data(), bytes.size(), 0) == size);
    close(fd);
    std::vector<Chunk> out;
    for (size_t at = 0; at < bytes.size();) {
        REQUIRE(bytes.size() - at >= sizeof(mt_chunk_header));
        const uint8_t *h = bytes.data() + at;
        REQUIRE(codec::get_le32(h) == MT_CHUNK_MAGIC);
        uint16_t type = codec::get_le16(h + 4);
        uint32_t n = codec::get_le32(h + 8);
        REQUIRE(bytes.size() - at - sizeof(mt_chunk_header) >= n);
        const uint8_t *p = h + sizeof(mt_chunk_header);
        REQUIRE(codec::get_le32(h + 12) == codec::chunk_crc(type, 0, n, p));
        out.push_back({type, std::vector<uint8_t>(p, p + n)});
        at += sizeof(mt_chunk_header) + n;
    }
    return out;
}

template <class F>
Chunk one_chunk(uint16_t type, F write) {
    auto chunks = written_chunks(write);
    REQUIRE(chunks.size() == 1);
    REQUIRE(chunks[0].type == type);
    return chunks[0];
}

// References are checked against the dictionaries; these tests define "all of them".
DictSizes all_defined() {
    DictSizes d;
    d.modules = d.threads = d.classes = d.stacks = SIZE_MAX;
    return d;
}

}  // namespace

TEST_CASE("INFO pairs round-trip, empty key and value included", "[trace]") {
    trace::KeyValue kv[] = {{"process", "Game"}, {"", ""}, {"tick_hz", "24000000"}};
    Chunk ch = one_chunk(MT_CHUNK_INFO, [&](trace::TraceWriter &w) { w.info(kv, 3); });
    Cursor c(ch.payload.data(), ch.payload.size());
    auto info = reader::detail::decode_info(c);
    c.finish();
    REQUIRE(info.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(info[i].first == kv[i].key);
        CHECK(info[i].second == kv[i].value);
    }
}

TEST_CASE("MODULES round-trip every field, empty path and build id included", "[trace]") {
    uint8_t uuid[16];
    for (int i = 0; i < 16; ++i) uuid[i] = static_cast<uint8_t>(0xF0 + i);
    trace::ModuleRecord m[] = {
        {0, MT_MODULE_MACHO, "/private/var/Game", 0x100000000, 0x4000, 0x0, 0x100000000, uuid, 16},
        {1, MT_MODULE_ELF, "", 0, 0, 0, 0, nullptr, 0},
        {2, kMax32, "/x", kMax, kMax, kMax, kMax, uuid, 1},
    };
    Chunk ch = one_chunk(MT_CHUNK_MODULES, [&](trace::TraceWriter &w) { w.modules(m, 3); });
    Cursor c(ch.payload.data(), ch.payload.size());
    auto got = reader::detail::decode_modules(c, 0);
    c.finish();
    REQUIRE(got.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(got[i].id == m[i].id);
        CHECK(got[i].kind == m[i].kind);
        CHECK(got[i].path == m[i].path);
        CHECK(got[i].load_address == m[i].load_address);
        CHECK(got[i].size == m[i].size);
        CHECK(got[i].bias == m[i].bias);
        CHECK(got[i].text_vmaddr == m[i].text_vmaddr);
        CHECK(got[i].build_id == std::vector<uint8_t>(m[i].build_id, m[i].build_id + m[i].build_id_size));
    }
}

TEST_CASE("THREADS round-trip, a rename (known id) included", "[trace]") {
    trace::ThreadRecord t[] = {{0, 0, ""}, {1, kMax, "render"}, {0, 1234, "main"}};
    Chunk ch = one_chunk(MT_CHUNK_THREADS, [&](trace::TraceWriter &w) { w.threads(t, 3); });
    Cursor c(ch.payload.data(), ch.payload.size());
    auto got = reader::detail::decode_threads(c, 0);
    c.finish();
    REQUIRE(got.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(got[i].id == t[i].id);
        CHECK(got[i].os_tid == t[i].os_tid);
        CHECK(got[i].name == t[i].name);
    }
}

TEST_CASE("CLASSES round-trip every field", "[trace]") {
    trace::ClassRecord k[] = {{5, 0x7f00, "String", "System", MT_CLASS_STRING, 0},
                           {6, 0, "", "", 0, 0},
                           {7, kMax, "Int32[]", "System", kMax32, kMax}};
    Chunk ch = one_chunk(MT_CHUNK_CLASSES, [&](trace::TraceWriter &w) { w.classes(k, 3); });
    Cursor c(ch.payload.data(), ch.payload.size());
    auto got = reader::detail::decode_classes(c, 5);  // a later chunk: ids continue at 5
    c.finish();
    REQUIRE(got.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(got[i].id == k[i].id);
        CHECK(got[i].klass == k[i].klass);
        CHECK(got[i].name == k[i].name);
        CHECK(got[i].name_space == k[i].name_space);
        CHECK(got[i].flags == k[i].flags);
        CHECK(got[i].element_size == k[i].element_size);
    }
}

TEST_CASE("STACKS round-trip frames whose deltas wrap, and an empty stack", "[trace]") {
    uint64_t a[] = {0x100001234, 0x100005678, 0x10};
    uint64_t b[] = {kMax, 0, kMax, 1};
    trace::StackRecord s[] = {{0, a, 3}, {1, nullptr, 0}, {2, b, 4}};
    Chunk ch = one_chunk(MT_CHUNK_STACKS, [&](trace::TraceWriter &w) { w.stacks(s, 3); });
    Cursor c(ch.payload.data(), ch.payload.size());
    auto got = reader::detail::decode_stacks(c, 0, MT_FORMAT_VERSION);
    c.finish();
    REQUIRE(got.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(got[i].id == s[i].id);
        CHECK(got[i].frames == std::vector<uint64_t>(s[i].frames, s[i].frames + s[i].depth));
    }
}

TEST_CASE("EVENTS round-trip: ticks relative to the frame start, sizes and addresses exact", "[trace]") {
    const uint64_t start = 100;
    trace::EventRecord e[] = {
        {0, 105, 2, 3, 32, 48, 0x7f001000},
        {kMax32, start, 0, 0, 0, 0, 0},                   // tick before the previous: negative dt
        {1, kMax, kMax32, kMax32, kMax, 0, kMax},          // gc_size below size: negative extra
        {2, 0, 1, 1, 16, kMax, 8},                         // a tick that wraps back to 0
    };
    Chunk ch = one_chunk(MT_CHUNK_EVENTS, [&](trace::TraceWriter &w) { w.events(kMax, start, e, 4); });
    Cursor c(ch.payload.data(), ch.payload.size());
    CHECK(c.u("frame_seq") == kMax);
    std::vector<reader::Event> got;
    reader::detail::decode_events(c, all_defined(), MT_FORMAT_VERSION, got);
    c.finish();
    REQUIRE(got.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
        CHECK(got[i].thread == e[i].thread);
        CHECK(got[i].tick == e[i].tick - start);
        CHECK(got[i].class_id == e[i].class_id);
        CHECK(got[i].stack_id == e[i].stack_id);
        CHECK(got[i].size == e[i].size);
        CHECK(got[i].gc_size == e[i].gc_size);
        CHECK(got[i].address == e[i].address);
    }
}

TEST_CASE("EVENTS bytes are the ones format.h draws", "[trace]") {
    // frame_seq 7, count 3. The first event predicts nothing: flags 0, thread 1, dt 5 (zigzag
    // 10), stack 3, class 2, size 32, gc_extra 16 (zigzag 32), addr 0x1000 (zigzag 0x2000 =
    // 0x80 0x40). The second is the next object of the same free list (0x1000 - 48): flags
    // SAME_THREAD | STACK_PREDICTED | SAME_CLASS | SAME_SIZE | ADDR_PREDICTED (0x2f), then dt 5 only.
    // The third, another stack with its shape unknown and its GC size the requested one: flags
    // SAME_THREAD | NO_GC_EXTRA (0x11), dt -2 (zigzag 3), stack 4, class 2, size 64, addr 0x2000
    // against the previous address 0xfd0 (0x1030, zigzag 0x2060 = 0xe0 0x40).
    trace::EventRecord e[] = {{1, 105, 2, 3, 32, 48, 0x1000}, {1, 110, 2, 3, 32, 48, 0xfd0}, {1, 108, 2, 4, 64, 64, 0x2000}};
    Chunk ch = one_chunk(MT_CHUNK_EVENTS, [&](trace::TraceWriter &w) { w.events(7, 100, e, 3); });
    CHECK(ch.payload == std::vector<uint8_t>{7, 3, 0, 1, 10, 3, 2, 32, 32, 0x80, 0x40, 0x2f, 10,
                                             0x11, 3, 4, 2, 64, 0xe0, 0x40});
}

TEST_CASE("EVENTS version 4: STACK_PREDICTED is the stack that followed the previous one last time", "[trace]") {
    // Stacks 3, 4, 3, 4, 4 from one thread, everything else unpredictable (a new class, size and
    // address each time). The fourth event's stack is 4 because 4 followed 3 last time (version
    // 3 predicted only the previous stack, 3, and wrote it); the fifth's is written: 4's successor
    // was 3 last time.
    trace::EventRecord e[5];
    const uint32_t stacks[5] = {3, 4, 3, 4, 4};
    for (uint32_t i = 0; i < 5; ++i) e[i] = {1, 101 + i, i, stacks[i], 8 + 8 * i, 8 + 8 * i, 0x10000u * (i + 1)};
    Chunk ch = one_chunk(MT_CHUNK_EVENTS, [&](trace::TraceWriter &w) { w.events(0, 100, e, 5); });
    // Each entry: flags, [thread], dt 1, [stack], class, size, addr against the previous address.
    const std::vector<uint8_t> want{0, 5,                                   //
                                    0x10, 1, 2, 3, 0, 8, 0x80, 0x80, 0x08,  // the first: nothing predicted
                                    0x11, 2, 4, 1, 16, 0x80, 0x80, 0x08,    // same thread
                                    0x11, 2, 3, 2, 24, 0x80, 0x80, 0x08,    // 3 after 4: 4 had no successor
                                    0x13, 2, 3, 32, 0x80, 0x80, 0x08,       // 4 after 3: predicted
                                    0x11, 2, 4, 4, 40, 0x80, 0x80, 0x08};   // 4 after 4: 3 was predicted
    CHECK(ch.payload == want);
    for (uint32_t version : {3u, 4u}) {
        INFO("decoded as version " << version);
        Cursor c(ch.payload.data(), ch.payload.size());
        CHECK(c.u("frame_seq") == 0);
        std::vector<reader::Event> got;
        reader::detail::decode_events(c, all_defined(), version, got);
        c.finish();
        REQUIRE(got.size() == 5);
        // The same bytes read as version 3 take the previous stack for the fourth event: the
        // decoder follows the header's version, and version 3 files keep their meaning.
        for (uint32_t i = 0; i < 5; ++i) CHECK(got[i].stack_id == (version == 3 && i == 3 ? 3u : stacks[i]));
        for (uint32_t i = 0; i < 5; ++i) CHECK(got[i].address == e[i].address);
    }
}

TEST_CASE("EVENTS: a stack's STACKS shape predicts its first event in a chunk", "[trace]") {
    // Written by the runtime's writer, which knows each stack's shape: flags SAME_CLASS |
    // SAME_SIZE (0x0c) on the very first event, so class, size and gc_extra are left out.
    trace::EventRecord e{0, 100, 5, 9, 24, 32, 0x4000};
    const codec::EventShape shape{5, 24, 32};
    e.stack_shape = &shape;
    Chunk ch = one_chunk(MT_CHUNK_EVENTS, [&](trace::TraceWriter &w) { w.events(0, 100, &e, 1); });
    CHECK(ch.payload == std::vector<uint8_t>{0, 1, 0x0c, 0, 0, 9, 0x80, 0x80, 0x02});
    DictSizes d = all_defined();
    d.stack_shapes.assign(10, reader::detail::StackShape{});
    d.stack_shapes[9] = reader::detail::StackShape{5, 24, 32};
    Cursor c(ch.payload.data(), ch.payload.size());
    CHECK(c.u("frame_seq") == 0);
    std::vector<reader::Event> got;
    reader::detail::decode_events(c, d, MT_FORMAT_VERSION, got);
    c.finish();
    REQUIRE(got.size() == 1);
    CHECK(got[0].class_id == 5);
    CHECK(got[0].size == 24);
    CHECK(got[0].gc_size == 32);
    CHECK(got[0].address == 0x4000);
}

TEST_CASE("AGGREGATES round-trip every field", "[trace]") {
    trace::AggregateRecord a[] = {{1, 2, 3, 96, 128, 3}, {0, 0, 0, 0, 0, 0}, {kMax32, kMax32, kMax, kMax, kMax, kMax}};
    Chunk ch = one_chunk(MT_CHUNK_AGGREGATES, [&](trace::TraceWriter &w) { w.aggregates(0, a, 3); });
    Cursor c(ch.payload.data(), ch.payload.size());
    CHECK(c.u("frame_seq") == 0);
    std::vector<reader::Aggregate> got;
    reader::detail::decode_aggregates(c, all_defined(), got);
    c.finish();
    REQUIRE(got.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(got[i].class_id == a[i].class_id);
        CHECK(got[i].stack_id == a[i].stack_id);
        CHECK(got[i].count == a[i].count);
        CHECK(got[i].requested_bytes == a[i].requested_bytes);
        CHECK(got[i].gc_bytes == a[i].gc_bytes);
        CHECK(got[i].samples == a[i].samples);
    }
}

TEST_CASE("GC round-trip every field", "[trace]") {
    trace::GcRecord g[] = {{10, 20, 1 << 20, 4096, 512, 1}, {0, 0, 0, 0, 0, 0}, {kMax, kMax, kMax, kMax, kMax, kMax}};
    Chunk ch = one_chunk(MT_CHUNK_GC, [&](trace::TraceWriter &w) { w.gc(3, g, 3); });
    Cursor c(ch.payload.data(), ch.payload.size());
    CHECK(c.u("frame_seq") == 3);
    std::vector<reader::GcEvent> got;
    reader::detail::decode_gcs(c, got);
    c.finish();
    REQUIRE(got.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(got[i].start_tick == g[i].start_tick);
        CHECK(got[i].end_tick == g[i].end_tick);
        CHECK(got[i].heap_size == g[i].heap_size);
        CHECK(got[i].free_bytes == g[i].free_bytes);
        CHECK(got[i].reclaimed_bytes == g[i].reclaimed_bytes);
        CHECK(got[i].gc_no == g[i].gc_no);
    }
}

TEST_CASE("DEATHS round-trip, addresses going down and wrapping", "[trace]") {
    trace::DeathRecord d[] = {{0x7f002000, 4, 1, 2, 48}, {0x10, 0, 0, 0, 0}, {kMax, kMax, kMax32, kMax32, kMax},
                           {0, 1, 1, 1, 1}};
    Chunk ch = one_chunk(MT_CHUNK_DEATHS, [&](trace::TraceWriter &w) { w.deaths(9, d, 4); });
    Cursor c(ch.payload.data(), ch.payload.size());
    CHECK(c.u("frame_seq") == 9);
    std::vector<reader::Death> got;
    reader::detail::decode_deaths(c, all_defined(), got);
    c.finish();
    REQUIRE(got.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
        CHECK(got[i].address == d[i].address);
        CHECK(got[i].alloc_frame_seq == d[i].alloc_frame_seq);
        CHECK(got[i].class_id == d[i].class_id);
        CHECK(got[i].stack_id == d[i].stack_id);
        CHECK(got[i].gc_size == d[i].gc_size);
    }
}

TEST_CASE("MARKS round-trip, an empty label and the largest tick included", "[trace]") {
    std::string longest(MT_MAX_MARK_LABEL, 'x');
    trace::MarkRecord m[] = {{1000, "level loaded"}, {0, ""}, {kMax, longest.c_str()}, {5, "boss spawned"}};
    Chunk ch = one_chunk(MT_CHUNK_MARKS, [&](trace::TraceWriter &w) { w.marks(12, m, 4); });
    Cursor c(ch.payload.data(), ch.payload.size());
    CHECK(c.u("frame_seq") == 12);
    std::vector<reader::Mark> got;
    reader::detail::decode_marks(c, got);
    c.finish();
    REQUIRE(got.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
        CHECK(got[i].tick == m[i].tick);
        CHECK(got[i].label == m[i].label);
    }
}

TEST_CASE("empty list chunks round-trip as empty", "[trace]") {
    auto chunks = written_chunks([](trace::TraceWriter &w) {
        w.modules(nullptr, 0);
        w.events(0, 0, nullptr, 0);
        w.deaths(0, nullptr, 0);
    });
    REQUIRE(chunks.size() == 3);
    Cursor m(chunks[0].payload.data(), chunks[0].payload.size());
    CHECK(reader::detail::decode_modules(m, 0).empty());
    m.finish();
    for (int i : {1, 2}) {
        Cursor c(chunks[i].payload.data(), chunks[i].payload.size());
        CHECK(c.u("frame_seq") == 0);
        std::vector<reader::Event> ev;
        std::vector<reader::Death> de;
        if (i == 1) reader::detail::decode_events(c, all_defined(), MT_FORMAT_VERSION, ev);
        else reader::detail::decode_deaths(c, all_defined(), de);
        c.finish();
        CHECK(ev.empty());
        CHECK(de.empty());
    }
}

TEST_CASE("FRAME round-trips every field", "[trace]") {
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{300}, kMax}) {
        trace::FrameRecord f;
        f.seq = v;
        f.index = v ^ 1;
        f.start_tick = v / 2;
        f.end_tick = v;
        f.events = v / 3;
        f.requested_bytes = v / 5;
        f.gc_bytes = v / 7;
        f.dropped = v / 11;
        f.heap_size = v / 13;
        f.free_bytes = v / 17;
        f.flags = static_cast<uint32_t>(v);
        Chunk ch = one_chunk(MT_CHUNK_FRAME, [&](trace::TraceWriter &w) { w.frame(f); });
        Cursor c(ch.payload.data(), ch.payload.size());
        reader::Frame got;
        reader::detail::decode_frame_fields(c, got);
        c.finish();
        CHECK(got.seq == f.seq);
        CHECK(got.index == f.index);
        CHECK(got.start_tick == f.start_tick);
        CHECK(got.end_tick == f.end_tick);
        CHECK(got.events == f.events);
        CHECK(got.requested_bytes == f.requested_bytes);
        CHECK(got.gc_bytes == f.gc_bytes);
        CHECK(got.dropped == f.dropped);
        CHECK(got.heap_size == f.heap_size);
        CHECK(got.free_bytes == f.free_bytes);
        CHECK(got.flags == f.flags);
    }
}

TEST_CASE("COUNTERS round-trip every mt_counters field", "[trace]") {
    trace::CountersRecord k{};
    uint64_t *wide[] = {&k.allocations_seen, &k.events_recorded, &k.events_dropped, &k.events_sampled_out,
                        &k.events_written, &k.bytes_written, &k.frames_written, &k.stacks_known,
                        &k.classes_known, &k.threads_known, &k.last_flush_unix_ns, &k.last_flush_duration_ns,
                        &k.reentrant_skipped};
    uint64_t v = 1;
    for (uint64_t *f : wide) *f = v++ * 1000003;  // distinct values: a swapped pair shows
    k.allocations_seen = kMax;
    k.running = 1;
    k.paused = 0;
    k.disabled = kMax32;
    k.gc_callback_rechains = 7;
    Chunk ch = one_chunk(MT_CHUNK_COUNTERS, [&](trace::TraceWriter &w) { w.counters(k); });
    Cursor c(ch.payload.data(), ch.payload.size());
    reader::Counters got = reader::detail::decode_counters(c);
    c.finish();
    CHECK(got.allocations_seen == k.allocations_seen);
    CHECK(got.events_recorded == k.events_recorded);
    CHECK(got.events_dropped == k.events_dropped);
    CHECK(got.events_sampled_out == k.events_sampled_out);
    CHECK(got.events_written == k.events_written);
    CHECK(got.bytes_written == k.bytes_written);
    CHECK(got.frames_written == k.frames_written);
    CHECK(got.stacks_known == k.stacks_known);
    CHECK(got.classes_known == k.classes_known);
    CHECK(got.threads_known == k.threads_known);
    CHECK(got.last_flush_unix_ns == k.last_flush_unix_ns);
    CHECK(got.last_flush_duration_ns == k.last_flush_duration_ns);
    CHECK(got.reentrant_skipped == k.reentrant_skipped);
    CHECK(got.running == k.running);
    CHECK(got.paused == k.paused);
    CHECK(got.disabled == k.disabled);
    CHECK(got.gc_callback_rechains == k.gc_callback_rechains);
}

TEST_CASE("END round-trips reason and message, empty message included", "[trace]") {
    for (auto [reason, message] : {std::pair<uint32_t, const char *>{MT_END_STOPPED, "stopped"},
                                   {MT_END_DISABLED, ""}, {kMax32, "x"}}) {
        Chunk ch = one_chunk(MT_CHUNK_END, [&](trace::TraceWriter &w) { w.end(reason, message); });
        Cursor c(ch.payload.data(), ch.payload.size());
        auto got = reader::detail::decode_end(c);
        c.finish();
        CHECK(got.reason == reason);
        CHECK(got.message == message);
    }
}
