// Write-then-read equality through the reader: (1) the encoder fed a random but seeded run,
// (2) the whole runtime fed a known sequence of classes, call sites, sizes and frames.
#include <catch2/catch.hpp>

#include <random>
#include <unistd.h>

#include "support.h"
#include "memtracer/trace_writer.h"

using namespace mt;

TEST_CASE("encoder -> reader: dictionaries, events, aggregates, gc, deaths and frames come back equal", "[roundtrip]") {
    std::mt19937_64 rng(7);
    std::string path = mtt::temp_path("encoder");
    trace::TraceWriter w;
    REQUIRE(w.open(path.c_str()));
    trace::FileHeaderParams hp;
    hp.flags = MT_FILE_FLAG_GC_EVENTS | MT_FILE_FLAG_LIFETIMES;
    w.header(hp);
    trace::KeyValue kv[] = {{"process", "rt"}, {"tick_hz", "1000000000"}};
    w.info(kv, 2);
    uint8_t id[20];
    for (auto &b : id) b = static_cast<uint8_t>(rng());
    trace::ModuleRecord m{0, MT_MODULE_ELF, "/lib/libgame.so", 0x7f0000000000ull, 0x200000, 0x7f0000000000ull, 0, id, 20};
    w.modules(&m, 1);
    std::vector<std::string> names;
    for (int i = 0; i < 8; ++i) names.push_back("Class" + std::to_string(i));
    std::vector<trace::ClassRecord> classes;
    for (uint32_t i = 0; i < 8; ++i)
        classes.push_back({i, 0x5500000000ull + i * 0x100, names[i].c_str(), "NS", i % 2 ? MT_CLASS_ARRAY : 0u, i % 2 ? 8u : 0u});
    w.classes(classes.data(), classes.size());
    trace::ThreadRecord threads[] = {{0, 100, "main"}, {1, 101, "worker"}};
    w.threads(threads, 2);
    std::vector<std::vector<uint64_t>> stacks(20);
    std::vector<trace::StackRecord> srec;
    for (uint32_t i = 0; i < stacks.size(); ++i) {
        for (int d = 0; d < 1 + static_cast<int>(rng() % 30); ++d) stacks[i].push_back(0x7f0000001000ull + rng() % 0x100000);
        srec.push_back({i, stacks[i].data(), static_cast<uint32_t>(stacks[i].size())});
    }
    w.stacks(srec.data(), srec.size());
    std::vector<std::vector<trace::EventRecord>> fed(5);
    uint64_t tick = 1000;
    for (uint64_t f = 0; f < fed.size(); ++f) {
        uint64_t start = tick;
        for (int i = 0; i < 200; ++i) {
            trace::EventRecord e{static_cast<uint32_t>(rng() % 2), tick + rng() % 50 - 10, static_cast<uint32_t>(rng() % 8),
                              static_cast<uint32_t>(rng() % 20), 8 + rng() % 4000, 0, 0x7e0000000000ull + rng() % (1ull << 32)};
            e.gc_size = e.size + rng() % 16;
            tick += rng() % 20;
            fed[f].push_back(e);
        }
        // Two chunks for one frame, as the runtime writes when staging overflows.
        w.events(f, start, fed[f].data(), 120);
        w.events(f, start, fed[f].data() + 120, 80);
        trace::GcRecord gc{start + 1, start + 9, 1 << 20, 1 << 18, 4096, f};
        w.gc(f, &gc, 1);
        trace::DeathRecord d{0x7e0000001000ull + f, f, 1, 2, 64};
        w.deaths(f, &d, 1);
        trace::FrameRecord fr;
        fr.seq = f;
        fr.index = 100 + f;
        fr.start_tick = start;
        fr.end_tick = tick;
        fr.events = 200;
        w.frame(fr);
    }
    w.end(MT_END_STOPPED, "done");
    REQUIRE(w.flush());
    w.close();

    auto run = reader::load_file(path);
    unlink(path.c_str());
    REQUIRE(run.result.clean());
    CHECK(run.result.end_message == "done");
    REQUIRE(run.modules.size() == 1);
    CHECK(run.modules[0].path == "/lib/libgame.so");
    CHECK(run.modules[0].build_id == std::vector<uint8_t>(id, id + 20));
    REQUIRE(run.classes.size() == 8);
    for (uint32_t i = 0; i < 8; ++i) {
        CHECK(run.classes[i].name == names[i]);
        CHECK(run.classes[i].klass == classes[i].klass);
        CHECK(run.classes[i].flags == classes[i].flags);
        CHECK(run.classes[i].element_size == classes[i].element_size);
    }
    REQUIRE(run.stacks.size() == stacks.size());
    for (size_t i = 0; i < stacks.size(); ++i) CHECK(run.stacks[i].frames == stacks[i]);
    REQUIRE(run.frames.size() == fed.size());
    for (size_t f = 0; f < fed.size(); ++f) {
        const auto &got = run.frames[f].event_list;
        REQUIRE(got.size() == fed[f].size());
        for (size_t i = 0; i < got.size(); ++i) {
            const auto &a = got[i];
            const auto &b = fed[f][i];
            CHECK((a.thread == b.thread && a.tick == b.tick && a.class_id == b.class_id && a.stack_id == b.stack_id &&
                   a.size == b.size && a.gc_size == b.gc_size && a.address == b.address));
        }
        REQUIRE(run.frames[f].gcs.size() == 1);
        CHECK(run.frames[f].gcs[0].gc_no == f);
        REQUIRE(run.frames[f].deaths.size() == 1);
        CHECK(run.frames[f].deaths[0].address == 0x7e0000001000ull + f);
        CHECK(run.frames[f].index == 100 + f);
    }
}

struct Fed {
    mtt::FakeClass *k;
    uint64_t addr, size;
    int depth;
};

// Exported (not in an anonymous namespace) so dladdr can name it.
__attribute__((noinline)) void roundtrip_feed(const std::vector<Fed> &v) {
    for (const auto &f : v) mtt::alloc_at_depth(f.depth, reinterpret_cast<void *>(f.addr), f.k, f.size);
    asm volatile("" ::: "memory");
}

TEST_CASE("runtime -> reader: what the game fed is what the file says", "[roundtrip]") {
    std::string path = mtt::temp_path("runtime_rt");
    mt_config c = mtt::make_config(path);
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    mtt::FakeClass *ks[] = {&mtt::kString, &mtt::kIntArray, &mtt::kVector3, &mtt::kPlayer};
    std::vector<std::vector<Fed>> frames(4);
    uint64_t addr = 0x7a0000000000ull;
    for (size_t f = 0; f < frames.size(); ++f) {
        for (int i = 0; i < 50 + static_cast<int>(f) * 10; ++i)
            frames[f].push_back({ks[(i + f) % 4], addr += 48 + i % 7 * 16, static_cast<uint64_t>(16 + i % 9 * 8), 1 + i % 4});
        roundtrip_feed(frames[f]);
        REQUIRE(mt_frame_end(1000 + f) == MT_OK);
    }
    auto run = mtt::stop_and_load(path);

    CHECK(run.header.info_value("session_label") == "runtime-test");
    CHECK(run.header.info_value("mode") == "events");
    CHECK(run.header.tick_hz > 1e6);
    REQUIRE(run.frames.size() == frames.size() + 1);  // + FINAL (empty)
    CHECK(run.frames.back().event_list.empty());
    for (size_t f = 0; f < frames.size(); ++f) {
        const auto &got = run.frames[f];
        CHECK(got.index == 1000 + f);
        REQUIRE(got.event_list.size() == frames[f].size());
        for (size_t i = 0; i < frames[f].size(); ++i) {
            const auto &e = got.event_list[i];
            const Fed &want = frames[f][i];
            const auto &cls = run.classes.at(e.class_id);
            CHECK(cls.name == want.k->name);
            CHECK(cls.name_space == want.k->name_space);
            CHECK(cls.klass == reinterpret_cast<uint64_t>(want.k));
            CHECK(e.address == want.addr);
            CHECK(e.size == want.size);
            CHECK(e.gc_size == want.size);  // no libgc in this binary: GC_size is absent
            CHECK(e.tick >= got.start_tick);
            CHECK(e.tick <= got.end_tick);
            // Innermost frame: the call to mt_on_alloc inside alloc_at_depth, then depth-1 more
            // alloc_at_depth frames, then feed.
            const auto &st = run.stacks.at(e.stack_id).frames;
            REQUIRE(st.size() >= static_cast<size_t>(want.depth) + 1);
            for (int d = 0; d < want.depth; ++d) CHECK(mtt::symbol_of(st[d]).find("alloc_at_depth") != std::string::npos);
            CHECK(mtt::symbol_of(st[want.depth]).find("roundtrip_feed") != std::string::npos);
        }
    }
    // Class flags as the stand-in API describes them.
    for (const auto &cls : run.classes) {
        if (cls.name == "String") CHECK(cls.flags == MT_CLASS_STRING);
        if (cls.name == "Int32[]") {
            CHECK(cls.flags == MT_CLASS_ARRAY);
            CHECK(cls.element_size == 4);
        }
        if (cls.name == "Vector3") CHECK(cls.flags == MT_CLASS_VALUE_TYPE);
        if (cls.name == "Player") CHECK(cls.flags == 0);
    }
    CHECK(run.classes.size() == 4);
    CHECK(mtt::counters().classes_known == 4);
}
