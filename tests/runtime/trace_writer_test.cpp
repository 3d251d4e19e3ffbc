// The encoder alone: every chunk type laid out as format.h describes, checked byte by byte with
// an independent scanner (chunk_scan.h), plus the failure path of a full device.
#include <catch2/catch.hpp>

#include <unistd.h>

#include "chunk_scan.h"
#include "crc_fast.h"
#include "memtracer/trace_writer.h"

using namespace mt;

namespace {

std::string temp_path(const char *name) {
    return std::string("/tmp/mt_rt_") + std::to_string(getpid()) + "_" + name;
}

}  // namespace

TEST_CASE("trace writer lays out every chunk type as format.h says", "[writer]") {
    std::string path = temp_path("writer.mt");
    trace::TraceWriter w;
    REQUIRE(w.open(path.c_str()));
    trace::FileHeaderParams hp;
    hp.start_unix_ns = 1234567890123ull;
    hp.sample_interval_bytes = 4096;
    hp.flags = MT_FILE_FLAG_SAMPLED;
    hp.max_stack_depth = 32;
    hp.arch = MT_ARCH_ARM64;
    w.header(hp);
    trace::KeyValue kv[] = {{"process", "game"}, {"tick_hz", "24000000"}};
    w.info(kv, 2);
    uint8_t uuid[16];
    for (int i = 0; i < 16; ++i) uuid[i] = static_cast<uint8_t>(0xA0 + i);
    trace::ModuleRecord mod{0, MT_MODULE_MACHO, "/app/Game", 0x100000000ull, 0x8000, 0x4000, 0xFFFFC000ull, uuid, 16};
    w.modules(&mod, 1);
    trace::ThreadRecord th{0, 4242, "main"};
    w.threads(&th, 1);
    trace::ClassRecord cl{0, 0x7f0012345678ull, "List`1", "System.Collections.Generic", MT_CLASS_ARRAY, 8};
    w.classes(&cl, 1);
    uint64_t pcs[] = {0x100001000ull, 0x100000800ull, 0x100002000ull};
    trace::StackRecord st{0, pcs, 3};
    w.stacks(&st, 1);
    trace::EventRecord ev[] = {{0, 110, 0, 0, 24, 32, 0x7f0000001000ull}, {0, 105, 0, 0, 40, 48, 0x7f0000000800ull}};
    w.events(0, 100, ev, 2);
    trace::AggregateRecord ag{0, 0, 5, 120, 160, 2};
    w.aggregates(0, &ag, 1);
    trace::GcRecord gc{101, 109, 1 << 20, 1 << 19, 4096, 3};
    w.gc(0, &gc, 1);
    trace::DeathRecord de{0x7f0000002000ull, 0, 0, 0, 32};
    w.deaths(0, &de, 1);
    trace::FrameRecord fr;
    fr.seq = 0; fr.index = 77; fr.start_tick = 100; fr.end_tick = 200; fr.events = 2;
    fr.requested_bytes = 64; fr.gc_bytes = 80; fr.flags = MT_FRAME_FINAL;
    w.frame(fr);
    trace::CountersRecord c{};
    c.allocations_seen = 9; c.gc_callback_rechains = 1;
    w.counters(c);
    w.end(MT_END_STOPPED, "bye");
    REQUIRE(w.flush());
    uint64_t written = w.bytes_written();
    w.close();

    auto bytes = test::slurp(path);
    REQUIRE(bytes.size() == written);
    auto f = test::scan(bytes);
    REQUIRE(f.header_ok);
    REQUIRE(f.chunks_ok);
    CHECK(f.flags == MT_FILE_FLAG_SAMPLED);
    CHECK(f.sample_interval == 4096);
    REQUIRE(f.chunks.size() == 12);
    const uint16_t want[] = {MT_CHUNK_INFO, MT_CHUNK_MODULES, MT_CHUNK_THREADS, MT_CHUNK_CLASSES,
                             MT_CHUNK_STACKS, MT_CHUNK_EVENTS, MT_CHUNK_AGGREGATES, MT_CHUNK_GC,
                             MT_CHUNK_DEATHS, MT_CHUNK_FRAME, MT_CHUNK_COUNTERS, MT_CHUNK_END};
    for (size_t i = 0; i < 12; ++i) CHECK(f.chunks[i].type == want[i]);

    {  // MODULES
        test::Cur c(f.chunks[1].payload);
        CHECK(c.u() == 1);
        CHECK(c.u() == 0);
        CHECK(c.u() == MT_MODULE_MACHO);
        CHECK(c.str() == "/app/Game");
        CHECK(c.u() == 0x100000000ull);
        CHECK(c.u() == 0x8000);
        CHECK(c.u() == 0x4000);
        CHECK(c.u() == 0xFFFFC000ull);
        std::string id = c.str();
        CHECK(id == std::string(reinterpret_cast<char *>(uuid), 16));
        CHECK(c.done());
    }
    {  // STACKS: zigzag deltas from 0, innermost first
        test::Cur c(f.chunks[4].payload);
        CHECK(c.u() == 1);
        CHECK(c.u() == 0);
        CHECK(c.u() == 3);
        uint64_t prev = 0;
        for (uint64_t pc : pcs) CHECK((prev += static_cast<uint64_t>(c.s())) == pc);
        CHECK(c.u() == 0);  // shape: class, size, GC size (none given here)
        CHECK(c.u() == 0);
        CHECK(c.u() == 0);
        CHECK(c.done());
    }
    {  // EVENTS (version 4): dt from the frame start, then from the previous event (negative
       // allowed); the second event's thread, stack and class are its predictions (flags 0x7)
        test::Cur c(f.chunks[5].payload);
        CHECK(c.u() == 0);   // frame_seq
        CHECK(c.u() == 2);   // count
        CHECK(c.u() == 0);   // flags: nothing predicted in a chunk's first event
        CHECK(c.u() == ev[0].thread);
        CHECK(c.s() == 10);  // dt from the frame start 100
        CHECK(c.u() == ev[0].stack_id);
        CHECK(c.u() == ev[0].class_id);
        CHECK(c.u() == ev[0].size);
        CHECK(c.s() == static_cast<int64_t>(ev[0].gc_size - ev[0].size));
        CHECK(c.s() == static_cast<int64_t>(ev[0].address));
        CHECK(c.u() == (MT_EVENT_SAME_THREAD | MT_EVENT_STACK_PREDICTED | MT_EVENT_SAME_CLASS));
        CHECK(c.s() == -5);
        CHECK(c.u() == ev[1].size);
        CHECK(c.s() == static_cast<int64_t>(ev[1].gc_size - ev[1].size));
        CHECK(c.s() == static_cast<int64_t>(ev[1].address - ev[0].address));  // no earlier GC size 48
        CHECK(c.done());
    }
    {  // FRAME
        test::Cur c(f.chunks[9].payload);
        const uint64_t fields[] = {0, 77, 100, 200, 2, 64, 80, 0, 0, 0, MT_FRAME_FINAL};
        for (uint64_t v : fields) CHECK(c.u() == v);
        CHECK(c.done());
    }
    {  // COUNTERS: 17 fields in declaration order
        test::Cur c(f.chunks[10].payload);
        CHECK(c.u() == 9);
        for (int i = 0; i < 15; ++i) c.u();
        CHECK(c.u() == 1);
        CHECK(c.done());
    }
    {  // END
        test::Cur c(f.chunks[11].payload);
        CHECK(c.u() == MT_END_STOPPED);
        CHECK(c.str() == "bye");
        CHECK(c.done());
    }
    unlink(path.c_str());
}

TEST_CASE("trace writer reports a full device and names it", "[writer]") {
    trace::TraceWriter w;
    REQUIRE(w.open("/dev/full"));
    trace::FileHeaderParams hp;
    w.header(hp);
    w.end(MT_END_STOPPED, "");
    CHECK_FALSE(w.flush());
    CHECK(w.last_errno() == ENOSPC);
    CHECK(std::string(w.error()).find("/dev/full") != std::string::npos);
    CHECK(w.pending() == 0);
    CHECK(w.bytes_written() == 0);
}

TEST_CASE("trace writer reports a path it cannot create", "[writer]") {
    trace::TraceWriter w;
    CHECK_FALSE(w.open("/nonexistent-dir/x/run.mt"));
    CHECK(std::string(w.error()).find("/nonexistent-dir/x/run.mt") != std::string::npos);
    CHECK(w.last_errno() == ENOENT);
}

TEST_CASE("the fast CRC-32C equals codec.h's table CRC", "[writer]") {
    std::vector<uint8_t> buf(4099);
    uint64_t x = 1;
    for (auto &b : buf) b = static_cast<uint8_t>((x = x * 6364136223846793005ull + 1) >> 56);
    for (size_t n : {0, 1, 7, 8, 9, 63, 64, 1000, 4099}) {
        CHECK(trace::crc32c_fast(0, buf.data(), n) == codec::crc32c_update(0, buf.data(), n));
        uint32_t a = trace::crc32c_fast(trace::crc32c_fast(0, buf.data(), n / 3), buf.data() + n / 3, n - n / 3);
        CHECK(a == codec::crc32c_update(0, buf.data(), n));
    }
    CHECK(trace::crc32c_fast(0, "123456789", 9) == 0xE3069283u);  // the CRC-32C check value
    CHECK(trace::chunk_crc_fast(6, 0, 5, "hello") == codec::chunk_crc(6, 0, 5, "hello"));
    INFO("hardware CRC: " << trace::crc32c_hardware());
}
