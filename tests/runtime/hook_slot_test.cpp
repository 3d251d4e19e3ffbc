// The hook slot of a patched libil2cpp (hook_slot_bridge.cpp) while a capture records, is paused
// and has stopped: with a bridge that hands over set_alloc_hook the runtime clears the slot
// whenever it records nothing (the game then pays a load and a branch, no call) and sets it again
// before it records; with an older bridge (MT_TEST_OLD_BRIDGE) the hook stays and mt_on_alloc
// drops what arrives while not recording. Either way the same allocations are recorded.
#include <catch2/catch.hpp>

#include <memory>

#include "hook_slot_bridge.h"

namespace {

#if defined(MT_TEST_OLD_BRIDGE)
constexpr bool kClears = false;
#else
constexpr bool kClears = true;
#endif

// What the slot must hold while not recording.
mt_il2cpp_alloc_hook idle_hook() { return kClears ? nullptr : &mt_on_alloc; }

void game_allocs(int n, uint64_t base, size_t size) {
    for (int i = 0; i < n; ++i)
        mtt::game_alloc(reinterpret_cast<void *>(base + i * 64), &mtt::kPlayer, size);
}

}  // namespace

TEST_CASE("hook slot: set while recording, cleared while paused and stopped", "[hook_slot]") {
    REQUIRE(mt_attach_il2cpp() == MT_OK);  // connects through the bridge: no profiler
    CHECK(mtt::hook_slot() == idle_hook());  // connected before any capture: nothing records

    std::string path = mtt::temp_path("hook_slot");
    mt_config c = mtt::make_config(path);
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    CHECK(mtt::hook_slot() == &mt_on_alloc);
    game_allocs(100, 0x100000, 100);

    REQUIRE(mt_pause() == MT_OK);
    CHECK(mtt::hook_slot() == idle_hook());
    game_allocs(100, 0x200000, 200);  // not recorded, whichever bridge
    REQUIRE(mt_pause() == MT_OK);      // pausing twice changes nothing
    CHECK(mtt::hook_slot() == idle_hook());

    REQUIRE(mt_resume() == MT_OK);
    CHECK(mtt::hook_slot() == &mt_on_alloc);
    game_allocs(100, 0x300000, 300);
    CHECK(mtt::counters().allocations_seen == 200);

    auto run = mtt::stop_and_load(path);
    CHECK(mtt::hook_slot() == idle_hook());
    auto events = mtt::all_events(run);
    REQUIRE(events.size() == 200);
    size_t at100 = 0, at300 = 0;
    for (const auto &e : events) {
        at100 += e.size == 100;
        at300 += e.size == 300;
    }
    CHECK(at100 == 100);
    CHECK(at300 == 100);

    // Paused, then stopped while paused: the slot stays as idle; the next capture sets it again.
    std::string path2 = mtt::temp_path("hook_slot2");
    mtt::start(mtt::make_config(path2));
    CHECK(mtt::hook_slot() == &mt_on_alloc);
    REQUIRE(mt_pause() == MT_OK);
    game_allocs(10, 0x400000, 400);
    auto run2 = mtt::stop_and_load(path2);
    CHECK(mtt::hook_slot() == idle_hook());
    CHECK(mtt::all_events(run2).empty());
    game_allocs(10, 0x500000, 500);  // after stop: nothing to record, nothing breaks
    CHECK(mtt::counters().allocations_seen == 0);
}

TEST_CASE("hook slot: cleared when the runtime disables itself (the disk is full)", "[hook_slot]") {
    REQUIRE(mt_attach_il2cpp() == MT_OK);
    std::string path = mtt::temp_path("hook_slot_full");
    auto disk = std::make_unique<mtt::FileSizeLimit>(32 * 1024);

    mtt::start(mtt::make_config(path));
    CHECK(mtt::hook_slot() == &mt_on_alloc);
    mtt::frames_until_disabled(0);
    REQUIRE(mtt::counters().disabled == 1);
    CHECK(mtt::hook_slot() == idle_hook());
    CHECK(mt_resume() == MT_ERR_DISABLED);  // and a resume does not set it again
    CHECK(mtt::hook_slot() == idle_hook());
    mtt::stop_and_load(path, MT_ERR_DISABLED);
    disk.reset();
    CHECK(mtt::hook_slot() == idle_hook());
}
