// Chunks with a correct CRC whose payload does not decode: a writer bug or a forged file. Each is
// Corrupt at that chunk's offset with a message naming the field, and nothing of it is used.
#include "trace_fixture.h"

#include "memtracer/codec.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

using namespace mt;
using Catch::Contains;
using reader::Stop;

namespace {

// GC and DEATHS chunks are allowed (the header says so) unless a test says otherwise.
constexpr uint32_t kEvents = MT_FILE_FLAG_GC_EVENTS | MT_FILE_FLAG_LIFETIMES;
constexpr uint32_t kAggregate = kEvents | MT_FILE_FLAG_AGGREGATE;

// A real prefix: header, one thread, three classes, one stack, and frame 0 committed with one
// allocation (an event, or an aggregate row in aggregate mode).
std::vector<uint8_t> good_prefix(uint32_t flags = kEvents) {
    test::MemTrace t;
    trace::FileHeaderParams hp;
    hp.flags = flags;
    t.w.header(hp);
    trace::ThreadRecord th{0, 1, "main"};
    trace::ClassRecord cl[3] = {{0, 0x10, "A", "", 0, 0}, {1, 0x20, "B", "", 0, 0}, {2, 0x30, "C", "", 0, 0}};
    uint64_t pc = 0x1000;
    trace::StackRecord st{0, &pc, 1};
    trace::EventRecord ev{0, 10, 2, 0, 16, 16, 0x5000};
    trace::AggregateRecord ag{2, 0, 1, 16, 16, 1};
    trace::FrameRecord f;
    f.events = 1;
    t.w.threads(&th, 1);
    t.w.classes(cl, 3);
    t.w.stacks(&st, 1);
    if (flags & MT_FILE_FLAG_AGGREGATE)
        t.w.aggregates(0, &ag, 1);
    else
        t.w.events(0, 0, &ev, 1);
    t.w.frame(f);
    t.chunk();
    return t.bytes();
}

struct Outcome {
    reader::Run run;
    uint64_t chunk_offset;
};

// Appends the `before` chunks, then `payload` as a correctly signed chunk of `type` (followed by
// an END so the damage is not the last chunk), and reads the file.
Outcome read_with(uint16_t type, const test::Payload &payload, uint32_t flags = kEvents,
                  const std::vector<std::pair<uint16_t, test::Payload>> &before = {}) {
    std::vector<uint8_t> file = good_prefix(flags);
    for (const auto &[t, p] : before) test::raw_chunk(file, t, p.b);
    uint64_t at = file.size();
    test::raw_chunk(file, type, payload.b);
    test::raw_chunk(file, MT_CHUNK_END, test::Payload().u(0).str("").b);
    return {reader::load_buffer(file.data(), file.size()), at};
}

void check_corrupt(const Outcome &o, const std::string &type, const std::string &detail) {
    CHECK(o.run.result.stop == Stop::Corrupt);
    CHECK(o.run.result.stop_offset == o.chunk_offset);
    CHECK_THAT(o.run.result.stop_reason,
               Catch::StartsWith(type + " chunk at offset " + std::to_string(o.chunk_offset) + ": ") &&
                   Contains(detail));
    CHECK(o.run.frames.size() == 1);  // frame 0, committed before the damage, is kept
}

// frame_seq 1, one event with the given fields (flags 0: every field written).
test::Payload event(uint64_t thread, uint64_t cls, uint64_t stack) {
    return test::Payload().u(1).u(1).u(0).u(thread).s(5).u(stack).u(cls).u(16).s(0).s(0x6000);
}

}  // namespace

TEST_CASE("reader: the good prefix itself reads cleanly", "[reader][decode]") {
    std::vector<uint8_t> file = good_prefix();
    reader::Run run = reader::load_buffer(file.data(), file.size());
    CHECK(run.result.stop == Stop::Eof);
    REQUIRE(run.frames.size() == 1);
    CHECK(run.frames[0].event_list.size() == 1);
    Outcome ok = read_with(MT_CHUNK_EVENTS, event(0, 2, 0));
    CHECK(ok.run.result.stop == Stop::End);
    CHECK(ok.run.result.uncommitted_events == 1);
}

TEST_CASE("reader: a varint running past the chunk end is Corrupt", "[reader][decode]") {
    check_corrupt(read_with(MT_CHUNK_EVENTS, test::Payload().u(1).u(1).u(0).u(0).raw({0x80, 0x80, 0x80, 0x80, 0x80, 0x80})),
                  "EVENTS", "event 0, payload byte 4 of 10: varint 'dt' runs past the end of the payload");
    check_corrupt(read_with(MT_CHUNK_FRAME, test::Payload().u(1).u(2)), "FRAME",
                  "varint 'start_tick' runs past the end of the payload");
    check_corrupt(read_with(MT_CHUNK_END, test::Payload().u(0).u(20).raw({'a', 'b'})), "END",
                  "string 'message' has length 20 but only 2 bytes are left");
}

TEST_CASE("reader: a varint longer than 10 bytes is Corrupt", "[reader][decode]") {
    test::Payload p;
    p.raw({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
    check_corrupt(read_with(MT_CHUNK_GC, p), "GC", "varint 'frame_seq' is longer than 10 bytes");
}

TEST_CASE("reader: references to undefined ids are Corrupt", "[reader][decode]") {
    check_corrupt(read_with(MT_CHUNK_EVENTS, event(0, 3, 0)), "EVENTS",
                  "event 0, payload byte 7 of 12: 'class' is 3 but only 3 classes are defined");
    check_corrupt(read_with(MT_CHUNK_EVENTS, event(0, 0, 7)), "EVENTS", "'stack' is 7 but only 1 stacks are defined");
    check_corrupt(read_with(MT_CHUNK_EVENTS, event(1, 0, 0)), "EVENTS", "'thread' is 1 but only 1 threads are defined");
    check_corrupt(read_with(MT_CHUNK_DEATHS, test::Payload().u(1).u(1).s(0x100).u(0).u(9).u(0).u(8)), "DEATHS",
                  "death 0, payload byte 6 of 8: 'class' is 9 but only 3 classes are defined");
    check_corrupt(read_with(MT_CHUNK_AGGREGATES, test::Payload().u(1).u(1).u(0).u(1).u(1).u(1).u(1).u(1), kAggregate),
                  "AGGREGATES", "'stack' is 1 but only 1 stacks are defined");
}

TEST_CASE("reader: dictionary ids that are not dense are Corrupt", "[reader][decode]") {
    check_corrupt(read_with(MT_CHUNK_CLASSES, test::Payload().u(1).u(5).u(0x40).str("D").str("").u(0).u(0)), "CLASSES",
                  "class id is 5, expected 3 (ids are dense, in order of definition)");
    check_corrupt(read_with(MT_CHUNK_STACKS, test::Payload().u(1).u(0).u(1).s(4).u(0).u(0).u(0)), "STACKS",
                  "stack id is 0, expected 1");
    check_corrupt(read_with(MT_CHUNK_THREADS, test::Payload().u(1).u(2).u(9).str("x")), "THREADS",
                  "thread id is 2 but only 1 threads are defined");
    check_corrupt(read_with(MT_CHUNK_MODULES, test::Payload().u(1).u(1).u(1).str("m").u(0).u(0).u(0).u(0).str("")),
                  "MODULES", "module id is 1, expected 0");
}

TEST_CASE("reader: counts the payload cannot hold and leftover bytes are Corrupt", "[reader][decode]") {
    check_corrupt(read_with(MT_CHUNK_EVENTS, test::Payload().u(1).u(1000000).u(0)), "EVENTS",
                  "'count' is 1000000 but the 1 bytes left cannot hold that many");
    check_corrupt(read_with(MT_CHUNK_STACKS, test::Payload().u(1).u(1).u(1u << 30)), "STACKS",
                  "'depth' is 1073741824 but the 0 bytes left cannot hold that many");
    check_corrupt(read_with(MT_CHUNK_COUNTERS, test::Payload().raw({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9})),
                  "COUNTERS", "1 bytes left over after the last field");
}

TEST_CASE("reader: frames out of order and data for a committed frame are Corrupt", "[reader][decode]") {
    test::Payload frame2;
    frame2.u(2);
    for (int i = 0; i < 10; ++i) frame2.u(0);
    check_corrupt(read_with(MT_CHUNK_FRAME, frame2), "FRAME", "frame_seq is 2, expected 1");
    check_corrupt(read_with(MT_CHUNK_EVENTS, test::Payload().u(0).u(0)), "EVENTS",
                  "frame_seq 0 names a frame already committed (next is 1)");
}

TEST_CASE("reader: an unknown chunk type and a late INFO are Corrupt", "[reader][decode]") {
    check_corrupt(read_with(99, test::Payload().u(0)), "unknown type 99", "unknown chunk type (this reader knows 1 to 13)");
    check_corrupt(read_with(MT_CHUNK_INFO, test::Payload().u(0)), "INFO", "INFO must be the first chunk and appear once");
}

TEST_CASE("reader: a chunk that fails decoding contributes nothing", "[reader][decode]") {
    // Two good events then an unknown class: the whole chunk is dropped, uncommitted stays 0.
    test::Payload p;
    p.u(1).u(3);
    for (int i = 0; i < 2; ++i) p.u(0).u(0).s(1).u(0).u(0).u(8).s(0).s(8);
    p.u(0).u(0).s(1).u(0).u(42).u(8).s(0).s(8);
    Outcome o = read_with(MT_CHUNK_EVENTS, p);
    check_corrupt(o, "EVENTS", "event 2");
    CHECK(o.run.result.uncommitted_events == 0);
}

namespace {

// FRAME 1 saying `events` allocations, its other fields zero.
test::Payload frame1(uint64_t events) {
    test::Payload p;
    p.u(1).u(0).u(0).u(0).u(events);
    for (int i = 0; i < 6; ++i) p.u(0);
    return p;
}

}  // namespace

TEST_CASE("reader: a FRAME whose event count disagrees with its EVENTS chunks is Corrupt", "[reader][decode]") {
    Outcome ok = read_with(MT_CHUNK_FRAME, frame1(1), kEvents, {{MT_CHUNK_EVENTS, event(0, 2, 0)}});
    CHECK(ok.run.result.stop == Stop::End);
    CHECK(ok.run.frames.size() == 2);
    // An EVENTS chunk lost: the FRAME says more than was read.
    check_corrupt(read_with(MT_CHUNK_FRAME, frame1(2), kEvents, {{MT_CHUNK_EVENTS, event(0, 2, 0)}}), "FRAME",
                  "frame_seq 1 (frame index 0) commits 2 events, but its EVENTS chunks hold 1: an EVENTS chunk "
                  "was duplicated or lost");
    // The same chunk twice: more than the FRAME says. The frame is not delivered, its data is
    // counted as uncommitted.
    Outcome dup = read_with(MT_CHUNK_FRAME, frame1(1), kEvents,
                            {{MT_CHUNK_EVENTS, event(0, 2, 0)}, {MT_CHUNK_EVENTS, event(0, 2, 0)}});
    check_corrupt(dup, "FRAME", "commits 1 events, but its EVENTS chunks hold 2");
    CHECK(dup.run.result.uncommitted_events == 2);
    check_corrupt(read_with(MT_CHUNK_FRAME, frame1(0), kEvents, {{MT_CHUNK_EVENTS, event(0, 2, 0)}}), "FRAME",
                  "commits 0 events, but its EVENTS chunks hold 1");
}

TEST_CASE("reader: in aggregate mode the FRAME count is the rows' samples, not their estimates", "[reader][decode]") {
    // Sampled: the row estimates 100 allocations from 3 recorded ones; the FRAME counts recorded ones.
    test::Payload row = test::Payload().u(1).u(1).u(2).u(0).u(100).u(3200).u(3200).u(3);
    Outcome ok = read_with(MT_CHUNK_FRAME, frame1(3), kAggregate, {{MT_CHUNK_AGGREGATES, row}});
    CHECK(ok.run.result.stop == Stop::End);
    REQUIRE(ok.run.frames.size() == 2);
    CHECK(ok.run.frames[1].aggregates.at(0).count == 100);
    check_corrupt(read_with(MT_CHUNK_FRAME, frame1(100), kAggregate, {{MT_CHUNK_AGGREGATES, row}}), "FRAME",
                  "frame_seq 1 (frame index 0) commits 100 allocations, but its AGGREGATES chunks record 3: an "
                  "AGGREGATES chunk was duplicated or lost");
}

TEST_CASE("reader: frame data chunks the header rules out are Corrupt", "[reader][decode]") {
    check_corrupt(read_with(MT_CHUNK_AGGREGATES, test::Payload().u(1).u(1).u(0).u(0).u(1).u(8).u(8).u(1)), "AGGREGATES",
                  "the file header says events mode (flag 0x1 clear), whose frames carry EVENTS chunks, not "
                  "AGGREGATES");
    check_corrupt(read_with(MT_CHUNK_EVENTS, event(0, 2, 0), kAggregate), "EVENTS",
                  "the file header says aggregate mode (flag 0x1 set), whose frames carry AGGREGATES chunks, not "
                  "EVENTS");
    check_corrupt(read_with(MT_CHUNK_GC, test::Payload().u(1).u(0), kEvents & ~MT_FILE_FLAG_GC_EVENTS), "GC",
                  "the file header does not set GC events (flag 0x10), so no GC chunk may appear");
    check_corrupt(read_with(MT_CHUNK_DEATHS, test::Payload().u(1).u(0), kEvents & ~MT_FILE_FLAG_LIFETIMES), "DEATHS",
                  "the file header does not set lifetimes (flag 0x8), so no DEATHS chunk may appear");
}

TEST_CASE("reader: MARKS are read into their frame, and a version 1 file cannot carry them", "[reader][decode]") {
    test::Payload mark = test::Payload().u(1).u(1).u(77).str("boss spawned");
    std::vector<uint8_t> file = good_prefix();
    test::raw_chunk(file, MT_CHUNK_MARKS, mark.b);
    test::raw_chunk(file, MT_CHUNK_FRAME, test::Payload().u(1).u(0).u(50).u(0).u(0).u(0).u(0).u(0).u(0).u(0).u(0).b);
    reader::Run run = reader::load_buffer(file.data(), file.size());
    REQUIRE(run.frames.size() == 2);
    REQUIRE(run.frames[1].marks.size() == 1);
    CHECK(run.frames[1].marks[0].tick == 77);
    CHECK(run.frames[1].marks[0].label == "boss spawned");

    // Version 1 files (written before mt_mark) are still read; a MARKS chunk in one is damage.
    // (The header of the good prefix, as version 1, and an empty frame 0: version 1 dictionaries
    // and events have the version 2 layout, which version_2_test.cpp reads.)
    std::vector<uint8_t> v1(file.begin(), file.begin() + sizeof(mt_file_header));
    codec::put_le32(v1.data() + 8, 1);
    test::fix_header_crc(v1);
    test::raw_chunk(v1, MT_CHUNK_FRAME, test::Payload().u(0).u(0).u(0).u(0).u(0).u(0).u(0).u(0).u(0).u(0).u(0).b);
    CHECK(reader::load_buffer(v1.data(), v1.size()).frames.size() == 1);
    uint64_t at = v1.size();
    test::raw_chunk(v1, MT_CHUNK_MARKS, mark.b);
    test::raw_chunk(v1, MT_CHUNK_END, test::Payload().u(0).str("").b);
    check_corrupt({reader::load_buffer(v1.data(), v1.size()), at}, "MARKS",
                  "MARKS chunks appear from format version 2 on, this file is version 1");

    check_corrupt(read_with(MT_CHUNK_MARKS, test::Payload().u(1).u(1).u(77).u(40).raw({'a', 'b'})), "MARKS",
                  "mark 0");
}
