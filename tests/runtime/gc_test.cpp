// With the real Boehm GC linked in: gc_size is GC_size(obj), collections arrive as GC chunks in
// the frame they ended in, frames carry heap sizes, and the GC's own callback chain still runs.
#include <catch2/catch.hpp>

#include <gc/gc.h>

#include <algorithm>
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

namespace {

int g_il2cpp_calls = 0;
void il2cpp_like_callback(GC_EventType) { ++g_il2cpp_calls; }

// A capture of collections only (MT_FLAG_GC_EVENTS); returns its path.
std::string start_gc_capture(const std::string &tag) {
    std::string path = mtt::temp_path(tag);
    mt_config c = mtt::make_config(path);
    c.flags = MT_FLAG_GC_EVENTS;
    mtt::start(c);
    return path;
}

// Every collection number from (first, last] appears once among the run's GC records.
void check_every_collection(const mt::reader::Run &run, uint64_t first, uint64_t last) {
    std::vector<uint64_t> seen;
    for (const auto &fr : run.frames)
        for (const auto &g : fr.gcs) seen.push_back(g.gc_no);
    std::sort(seen.begin(), seen.end());
    std::vector<uint64_t> want;
    for (uint64_t n = first + 1; n <= last; ++n) want.push_back(n);
    CHECK(seen == want);
}

}  // namespace

// il2cpp's GarbageCollector::Initialize calls GC_set_on_collection_event unconditionally: when
// MemTracer started first, its callback is replaced. The next frame end re-chains (il2cpp's still
// runs), counts it, and records from gc_no what Boehm completed meanwhile, flagging the frame.
TEST_CASE("real libgc: a replaced collection callback is re-chained and no collection is lost", "[gc]") {
    GC_INIT();
    GC_set_on_collection_event(nullptr);
    const std::string path = start_gc_capture("gc-rechain");
    const uint64_t first = GC_get_gc_no();
    GC_set_on_collection_event(il2cpp_like_callback);  // il2cpp_init after mt_start
    GC_gcollect();
    GC_gcollect();
    const int il2cpp_calls_alone = g_il2cpp_calls;
    REQUIRE(mt_frame_end(0) == MT_OK);  // re-chains
    CHECK(GC_get_on_collection_event() != il2cpp_like_callback);
    GC_gcollect();
    REQUIRE(mt_frame_end(1) == MT_OK);
    CHECK(g_il2cpp_calls > il2cpp_calls_alone);  // il2cpp's callback is still called, through ours
    CHECK(mtt::counters().gc_callback_rechains == 1);
    GC_set_on_collection_event(il2cpp_like_callback);  // replaced again: mt_stop catches this one
    GC_gcollect();
    const uint64_t last = GC_get_gc_no();
    auto run = mtt::stop_and_load(path);
    GC_set_on_collection_event(nullptr);
    REQUIRE(run.frames.size() >= 2);
    check_every_collection(run, first, last);
    // Frame 0's two collections were inferred from gc_no (no timing): the frame says so.
    CHECK(run.frames[0].gcs.size() == 2);
    CHECK((run.frames[0].flags & MT_FRAME_GC_INCOMPLETE) != 0);
    for (const auto &g : run.frames[0].gcs) CHECK(g.start_tick == g.end_tick);
    // Frame 1's collection went through the re-chained callback: timed, not flagged.
    REQUIRE(run.frames[1].gcs.size() == 1);
    CHECK((run.frames[1].flags & MT_FRAME_GC_INCOMPLETE) == 0);
    CHECK(run.frames[1].gcs[0].reclaimed_bytes + run.frames[1].gcs[0].heap_size > 0);
    CHECK(run.result.has_counters);
    CHECK(run.result.counters.gc_callback_rechains == 2);
}

namespace {

int g_starts = 0;
void count_starts(GC_EventType ev) { g_starts += ev == GC_EVENT_START; }

}  // namespace

// Last in this file: incremental mode stays on for the rest of the process. As Unity configures
// Boehm (BoehmGC.cpp): incremental with a 3 ms slice; manual dirty bits (write barriers), which
// these atomic objects need none of. Cycles that allocation finishes in GC_collect_a_little_inner
// raise no GC_EVENT_START/END; each must still be recorded.
TEST_CASE("real libgc: incremental collections without START/END events are each recorded", "[gc]") {
    GC_INIT();
    GC_set_manual_vdb_allowed(1);
    GC_enable_incremental();
    GC_set_time_limit(3);
    REQUIRE(GC_is_incremental_mode());
    GC_set_on_collection_event(count_starts);
    const std::string path = start_gc_capture("gc-incremental");
    const uint64_t first = GC_get_gc_no();
    // Allocate garbage until Boehm has completed a good number of cycles on its own.
    for (uint64_t f = 0; GC_get_gc_no() < first + 20 && f < 100000; ++f) {
        for (int i = 0; i < 256; ++i) {
            void *p = GC_MALLOC_ATOMIC(1024);
            mt_on_alloc(p, &mtt::kPlayer, 1024);
        }
        REQUIRE(mt_frame_end(f) == MT_OK);
    }
    const uint64_t last = GC_get_gc_no();
    auto run = mtt::stop_and_load(path);
    GC_set_on_collection_event(nullptr);
    REQUIRE(last >= first + 20);
    CHECK(g_starts < static_cast<int>(last - first));  // some cycles had no START: the path under test
    check_every_collection(run, first, last);
    for (const auto &fr : run.frames) {
        CHECK((fr.flags & MT_FRAME_GC_INCOMPLETE) == 0);  // all seen by the callback, none inferred
        for (const auto &g : fr.gcs) CHECK(g.end_tick >= g.start_tick);
    }
    CHECK(run.result.counters.gc_callback_rechains == 0);
}
