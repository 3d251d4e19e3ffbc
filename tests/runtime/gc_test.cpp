// With the real Boehm GC linked in: gc_size is GC_size(obj), collections arrive as GC chunks in
// the frame they ended in, frames carry heap sizes, and the GC's own callback chain still runs.
#include <catch2/catch.hpp>

#include <gc/gc.h>

#include <tuple>

#include "support.h"

namespace {

int g_prev_calls = 0;
void previous_callback(GC_EventType) { ++g_prev_calls; }

}  // namespace

TEST_CASE("real libgc: GC_size, collections and heap sizes reach the file", "[gc]") {
    GC_INIT();
    GC_set_on_collection_event(previous_callback);  // the game's own callback keeps running
    std::string path = mtt::temp_path("gc");
    mt_config c = mtt::make_config(path);
    c.flags = MT_FLAG_GC_EVENTS;
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> fed;  // (address, requested, GC_size)
    for (int f = 0; f < 3; ++f) {
        for (int i = 0; i < 200; ++i) {
            size_t size = 8 + static_cast<size_t>(i % 37) * 12;
            void *obj = GC_MALLOC(size);
            mt_on_alloc(obj, &mtt::kPlayer, size);
            fed.emplace_back(reinterpret_cast<uint64_t>(obj), size, GC_size(obj));  // before any collection frees it
        }
        GC_gcollect();
        REQUIRE(mt_frame_end(static_cast<uint64_t>(f)) == MT_OK);
    }
    auto run = mtt::stop_and_load(path);
    GC_set_on_collection_event(nullptr);
    CHECK((run.header.flags & MT_FILE_FLAG_GC_EVENTS) != 0);
    auto events = mtt::all_events(run);
    REQUIRE(events.size() == fed.size());
    for (size_t i = 0; i < events.size(); ++i) {
        CHECK(events[i].address == std::get<0>(fed[i]));
        CHECK(events[i].size == std::get<1>(fed[i]));
        CHECK(events[i].gc_size >= events[i].size);
        CHECK(events[i].gc_size == std::get<2>(fed[i]));
    }
    uint64_t collections = 0;
    for (size_t f = 0; f < 3; ++f) {
        const auto &fr = run.frames.at(f);
        CHECK(fr.heap_size > 0);
        CHECK(fr.gcs.size() >= 1);  // the GC_gcollect of that frame
        for (const auto &g : fr.gcs) {
            CHECK(g.end_tick >= g.start_tick);
            CHECK(g.heap_size > 0);
            CHECK(g.gc_no > 0);
            CHECK(g.start_tick >= fr.start_tick);
            CHECK(g.end_tick <= fr.end_tick);
        }
        collections += fr.gcs.size();
    }
    CHECK(g_prev_calls > 0);
    CHECK(collections >= 3);
}
