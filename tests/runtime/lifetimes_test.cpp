// MT_FLAG_LIFETIMES with the real Boehm GC: objects kept reachable never die, dropped ones die at
// a following collection with the class, stack, allocation frame and GC size of their allocation,
// and without the flag no DEATHS chunk appears.
#include <catch2/catch.hpp>

#include <gc/gc.h>

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "support.h"
#include "lifetimes.h"

namespace {

void **g_keep = nullptr;  // a root the collector scans: what it points to stays alive
constexpr int kKept = 300, kDropped = 200;

// The dropped objects' addresses live only in malloc memory (never scanned), and the frame that
// held them in registers is gone by the time the test collects.
__attribute__((noinline)) void alloc_dropped(std::set<uint64_t> *out) {
    for (int i = 0; i < kDropped; ++i) {
        size_t size = 24 + static_cast<size_t>(i % 5) * 40;
        void *obj = GC_MALLOC_ATOMIC(size);
        mt_on_alloc(obj, &mtt::kString, size);
        out->insert(reinterpret_cast<uint64_t>(obj));
    }
    asm volatile("" ::: "memory");
}

__attribute__((noinline)) void alloc_kept(std::set<uint64_t> *out) {
    g_keep = static_cast<void **>(GC_MALLOC(sizeof(void *) * kKept));
    for (int i = 0; i < kKept; ++i) {
        g_keep[i] = GC_MALLOC_ATOMIC(48);
        mt_on_alloc(g_keep[i], &mtt::kPlayer, 48);
        out->insert(reinterpret_cast<uint64_t>(g_keep[i]));
    }
    asm volatile("" ::: "memory");
}

// Boehm scans the stack conservatively: a stale copy of a dropped pointer left in a dead frame
// below GC_gcollect's would keep that object alive. Overwrite that area first.
__attribute__((noinline)) void clear_stack() {
    volatile char buf[64 * 1024];
    for (size_t i = 0; i < sizeof buf; ++i) buf[i] = 0;
}

// Frame 0 allocates, frames 1..kCollections each collect once. Boehm is conservative: a stale
// copy of a dropped pointer in another thread's registers (the writer's, mid-drain) can keep an
// object alive through one collection, more often on a loaded machine. So the test asserts that
// every dropped object dies at some collection, once, with its identity, and gives the collector
// several chances rather than asserting that the very first one frees everything.
constexpr uint64_t kCollections = 6;

mt::reader::Run run_capture(uint32_t flags, mt_mode mode, std::set<uint64_t> *kept, std::set<uint64_t> *dropped) {
    GC_INIT();
    std::string path = mtt::temp_path("life");
    mt_config c = mtt::make_config(path);
    c.flags = flags;
    c.mode = mode;
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    alloc_kept(kept);
    alloc_dropped(dropped);
    clear_stack();
    REQUIRE(mt_frame_end(0) == MT_OK);
    for (uint64_t seq = 1; seq <= kCollections; ++seq) {
        GC_gcollect();
        REQUIRE(mt_frame_end(seq) == MT_OK);
    }
    auto run = mtt::stop_and_load(path);
    std::remove(path.c_str());
    return run;
}

// What `died` lacks from `dropped`, and what it holds beyond it, for a readable failure.
std::string difference(const std::set<uint64_t> &died, const std::set<uint64_t> &dropped) {
    std::ostringstream s;
    s << died.size() << " died of " << dropped.size() << " dropped;";
    for (uint64_t a : dropped)
        if (!died.count(a)) s << " missing 0x" << std::hex << a << std::dec;
    for (uint64_t a : died)
        if (!dropped.count(a)) s << " extra 0x" << std::hex << a << std::dec;
    return s.str();
}

}  // namespace

TEST_CASE("lifetimes: dropped objects die at a following collection with their allocation's identity", "[lifetimes]") {
    std::set<uint64_t> kept, dropped;
    auto run = run_capture(MT_FLAG_LIFETIMES, MT_MODE_EVENTS, &kept, &dropped);
    CHECK((run.header.flags & MT_FILE_FLAG_LIFETIMES) != 0);
    std::map<uint64_t, mt::reader::Event> by_addr;
    for (const auto &e : mtt::all_events(run)) by_addr[e.address] = e;
    REQUIRE(by_addr.size() == static_cast<size_t>(kKept + kDropped));

    std::set<uint64_t> died;
    for (const auto &f : run.frames) {
        for (const auto &d : f.deaths) {
            INFO("death at 0x" << std::hex << d.address << " in frame " << std::dec << f.seq);
            CHECK(f.seq >= 1);  // a frame in which a collection ran, never the allocating one
            CHECK(kept.count(d.address) == 0);
            REQUIRE(by_addr.count(d.address) == 1);
            const auto &e = by_addr[d.address];
            CHECK(d.class_id == e.class_id);
            CHECK(d.stack_id == e.stack_id);
            CHECK(d.gc_size == e.gc_size);
            CHECK(d.alloc_frame_seq == 0);
            CHECK(died.insert(d.address).second);  // no object dies twice
        }
    }
    INFO(difference(died, dropped));
    CHECK(died == dropped);
    REQUIRE(g_keep != nullptr);  // still reachable here, so the kept ones could not die
}

TEST_CASE("lifetimes: aggregate mode tracks the same objects", "[lifetimes]") {
    std::set<uint64_t> kept, dropped;
    auto run = run_capture(MT_FLAG_LIFETIMES | MT_FLAG_GC_EVENTS, MT_MODE_AGGREGATE, &kept, &dropped);
    CHECK((run.header.flags & MT_FILE_FLAG_LIFETIMES) != 0);
    std::set<uint32_t> dropped_classes;
    for (const auto &a : run.frames.at(0).aggregates)
        if (run.classes.at(a.class_id).name == "String") dropped_classes.insert(a.class_id);
    REQUIRE(dropped_classes.size() == 1);
    std::set<uint64_t> died;
    for (const auto &f : run.frames)
        for (const auto &d : f.deaths) {
            CHECK(f.seq >= 1);
            CHECK(dropped_classes.count(d.class_id) == 1);
            CHECK(d.alloc_frame_seq == 0);
            died.insert(d.address);
        }
    INFO(difference(died, dropped));
    CHECK(died == dropped);
    CHECK(run.frames.at(1).gcs.size() >= 1);  // GC events still recorded alongside
}

TEST_CASE("lifetimes: without the flag no DEATHS chunk appears", "[lifetimes]") {
    std::set<uint64_t> kept, dropped;
    auto run = run_capture(MT_FLAG_GC_EVENTS, MT_MODE_EVENTS, &kept, &dropped);
    CHECK((run.header.flags & MT_FILE_FLAG_LIFETIMES) == 0);
    CHECK(run.frames.size() >= 3);
    for (const auto &f : run.frames) CHECK(f.deaths.empty());
}

// The writer drains rings thread by thread, so an object can reach the live table after a newer
// one at the same address (its address was reused in a later frame by a thread whose ring was
// drained first). The older one is the dead one. This ordering made "the sample game's
// collections produce deaths" fail under load (a death in frame 0 of an object from frame 2).
TEST_CASE("lifetimes: a reused address drained out of order keeps the newer object live") {
    void **root = static_cast<void **>(GC_MALLOC_UNCOLLECTABLE(sizeof(void *)));
    *root = GC_MALLOC(64);
    const uint64_t p = reinterpret_cast<uint64_t>(*root);
    REQUIRE(mt::rt::lifetimes_begin());
    std::vector<mt::rt::PendingDeath> deaths;
    auto sink = [](void *ctx, const mt::rt::PendingDeath *d, uint32_t n) {
        static_cast<std::vector<mt::rt::PendingDeath> *>(ctx)->insert(static_cast<std::vector<mt::rt::PendingDeath> *>(ctx)->end(), d, d + n);
    };
    const mt::rt::LiveObject newer{p, 2, 7, 70, 64}, older{p, 0, 5, 50, 64};
    REQUIRE(mt::rt::lifetimes_add(&newer, 1, sink, &deaths));
    REQUIRE(mt::rt::lifetimes_add(&older, 1, sink, &deaths));
    REQUIRE(deaths.size() == 1);
    CHECK(deaths[0].rec.class_id == 5);      // the older object died...
    CHECK(deaths[0].rec.alloc_frame_seq == 0);
    CHECK(deaths[0].epoch == 2);             // ...by the frame its address was handed out again
    CHECK(mt::rt::lifetimes_stats().live == 1);
    // And the same order as drained in time order: the older first.
    deaths.clear();
    const mt::rt::LiveObject newest{p, 3, 9, 90, 64};
    REQUIRE(mt::rt::lifetimes_add(&newest, 1, sink, &deaths));
    REQUIRE(deaths.size() == 1);
    CHECK(deaths[0].rec.class_id == 7);
    CHECK(deaths[0].epoch == 3);
    mt::rt::lifetimes_end();
    GC_FREE(root);
}

#ifdef MT_SAMPLE_GAME
TEST_CASE("lifetimes: the sample game's collections produce deaths", "[lifetimes][sample-game]") {
    std::string path = mtt::temp_path("life-game");
    std::string out = mtt::run_command(std::string(MT_SAMPLE_GAME) + " --lifetimes --frames 200 --seed 3 --quiet --out " +
                                       path + " && echo ok");
    REQUIRE(out.find("ok") != std::string::npos);
    auto run = mt::reader::load_file(path);
    std::remove(path.c_str());
    CHECK((run.header.flags & MT_FILE_FLAG_LIFETIMES) != 0);
    std::set<std::pair<uint64_t, uint64_t>> allocs;  // (address, frame): addresses get reused
    for (const auto &f : run.frames)
        for (const auto &e : f.event_list) allocs.emplace(e.address, f.seq);
    uint64_t deaths = 0, matched = 0;
    for (const auto &f : run.frames) {
        for (const auto &d : f.deaths) {
            ++deaths;
            CHECK(d.alloc_frame_seq <= f.seq);
            CHECK(d.class_id < run.classes.size());
            CHECK(d.stack_id < run.stacks.size());
            matched += allocs.count({d.address, d.alloc_frame_seq});
        }
    }
    CHECK(deaths > 0);
    CHECK(matched == deaths);  // every death names an allocation the file holds
}
#endif
