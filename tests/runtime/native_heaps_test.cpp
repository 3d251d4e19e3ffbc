// Native heaps (mt_native_heap, mt_on_native_alloc/_free): a class per heap flagged
// MT_CLASS_NATIVE, GC size = size, stacks from the caller (skip_frames), and with lifetimes a
// death per free in the frame of the free, also when the free comes from another thread.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <thread>

#include "support.h"

// Exported (the test is linked with ENABLE_EXPORTS) so that dladdr names them.
// An allocator's announcing entry point, as an ITT collector's is: the runtime skips its frame.
extern "C" __attribute__((noinline)) void mt_test_native_announce(void *p, void *heap, size_t size) {
    mt_on_native_alloc(p, heap, size, 1);
    asm volatile("" ::: "memory");  // no tail call: this frame exists when the runtime walks
}

extern "C" __attribute__((noinline)) void mt_test_native_allocator_site(void *p, void *heap, size_t size) {
    mt_test_native_announce(p, heap, size);
    asm volatile("" ::: "memory");
}

TEST_CASE("native heaps: allocations with their class, size and caller's stack, frees as deaths", "[native]") {
    std::string path = mtt::temp_path("native");
    mt_config c = mtt::make_config(path);
    c.flags = MT_FLAG_LIFETIMES | MT_FLAG_NATIVE_HEAPS;
    mtt::start(c);
    void *pool = mt_native_heap("pool", "test");
    alignas(16) static char blocks[64][32];
    for (int i = 0; i < 40; ++i) mt_test_native_allocator_site(blocks[i], pool, 32);
    REQUIRE(mt_frame_end(0) == MT_OK);
    for (int i = 0; i < 10; ++i) mt_on_native_free(blocks[i]);
    // Freed on another thread than the one that allocated (drained in either order).
    std::thread([&] { for (int i = 10; i < 20; ++i) mt_on_native_free(blocks[i]); }).join();
    mt_on_native_free(blocks[63]);  // never allocated in this capture: not a death
    mt_on_native_free(nullptr);
    REQUIRE(mt_frame_end(1) == MT_OK);
    auto run = mtt::stop_and_load(path);
    REQUIRE(run.result.clean());
    REQUIRE((run.header.flags & MT_FILE_FLAG_LIFETIMES) != 0);
    REQUIRE(run.classes.size() == 1);
    CHECK(run.classes[0].name == "pool");
    CHECK(run.classes[0].name_space == "test");
    CHECK(run.classes[0].flags == MT_CLASS_NATIVE);
    auto events = mtt::all_events(run);
    REQUIRE(events.size() == 40);
    for (const auto &e : events) {
        CHECK(e.size == 32);
        CHECK(e.gc_size == 32);
        // The first frame is in the allocator's site (the announcing frame was skipped).
        CHECK(mtt::symbol_of(run.stacks.at(e.stack_id).frames.at(0)) == "mt_test_native_allocator_site");
    }
    uint64_t deaths = 0;
    for (const auto &f : run.frames) deaths += f.deaths.size();
    CHECK(deaths == 20);
    CHECK(run.frames[1].deaths.size() == 20);
}

TEST_CASE("native heaps: without MT_FLAG_LIFETIMES frees cost a record and leave nothing", "[native]") {
    std::string path = mtt::temp_path("native-nolife");
    mtt::start(mtt::make_config(path));
    void *pool = mt_native_heap("pool", "test");
    static char b[16];
    mt_on_native_alloc(b, pool, 16, 0);
    mt_on_native_free(b);
    auto run = mtt::stop_and_load(path);
    REQUIRE(run.result.clean());
    CHECK(mtt::all_events(run).size() == 1);
    for (const auto &f : run.frames) CHECK(f.deaths.empty());
}

// Last: it fills the process-wide table (the other cases, in the same process, need room in it).
TEST_CASE("native heaps: the same names give the same handle, NULL and overflow share 'other native heaps'", "[native]") {
    void *a = mt_native_heap("arena", "engine");
    CHECK(a != nullptr);
    CHECK(mt_native_heap("arena", "engine") == a);
    CHECK(mt_native_heap("arena", nullptr) != a);
    void *other = mt_native_heap(nullptr, nullptr);
    CHECK(other != nullptr);
    for (int i = 0; i < MT_MAX_NATIVE_HEAPS + 10; ++i) mt_native_heap(("heap " + std::to_string(i)).c_str(), "many");
    CHECK(mt_native_heap("one too many", "many") == other);
}
