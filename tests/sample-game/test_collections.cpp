// Collections as Unity's runtime makes them (issue 19): the stand-in libil2cpp runs Boehm in
// incremental mode (cycles that allocation finishes raise no GC_EVENT_START/END) and installs its
// own collection callback in il2cpp_init, replacing MemTracer's when MemTracer started first. Every
// collection Boehm completed (its GC_get_gc_no, the game's GC.CollectionCount) must be in run.mt,
// in both modes and both start orders; and the finalizer thread, which allocates before it names
// itself, must carry its name.
#include "game_support.h"
#include "tree.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

#include <algorithm>

namespace fs = std::filesystem;
using namespace mt::test;

TEST_CASE("every collection Boehm completes is recorded, in both modes and both start orders") {
    const std::string hook = GENERATE("patch", "profiler");
    const std::string order = GENERATE("after-init", "before-init");
    INFO("--hook " << hook << " --tracer-start " << order);
    fs::path dir = make_temp_dir("game-collections");
    std::vector<std::string> args = {"--frames", "150", "--workers", "2", "--seed", "7", "--ring-bytes", "16777216",
                                     "--block-when-full", "--hook", hook, "--tracer-start", order, "--gc-events"};
    if (hook == "patch") args.push_back("--lifetimes");
    GameRun g = run_game(dir, hook + "-" + order, args);
    INFO(g.result.output);
    REQUIRE(g.result.exit_code == 0);
    const JValue expect = parse_json(read_file(g.expect));
    const uint64_t first = expect["collections_at_start"].u64();
    const uint64_t last = expect["collections_at_stop"].u64();
    REQUIRE(last > first + 10);  // enough incremental cycles for the check to mean something
    const mt::reader::Run run = mt::reader::load_file(g.out);
    REQUIRE(run.result.clean());
    REQUIRE(run.result.has_counters);

    std::vector<uint64_t> numbers;
    size_t incomplete_frames = 0, inferred = 0;
    for (const auto &f : run.frames) {
        incomplete_frames += (f.flags & MT_FRAME_GC_INCOMPLETE) != 0;
        for (const auto &c : f.gcs) {
            numbers.push_back(c.gc_no);
            CHECK(c.end_tick >= c.start_tick);
            inferred += c.start_tick == c.end_tick;
        }
    }
    // bdwgc's GC_init collects once when incremental mode is on ("get black list set up and/or
    // incremental GC started"), and Unity's order makes it run inside GC_enable_incremental, before
    // il2cpp's GC_set_on_collection_event: only a callback installed earlier (patch mode, MemTracer
    // first) sees that one; il2cpp's profiler never forwards it, and no-patch mode records it from
    // what il2cpp's API says of Boehm (not started at the attach, incremental after il2cpp_init).
    CHECK(numbers.size() == last - first);
    if (hook == "patch") {
        // Numbered by Boehm: each completed collection exactly once.
        std::sort(numbers.begin(), numbers.end());
        std::vector<uint64_t> want;
        for (uint64_t n = first + 1; n <= last; ++n) want.push_back(n);
        CHECK(numbers == want);
        // il2cpp_init replaced the callback once when MemTracer came first; never otherwise.
        CHECK(run.result.counters.gc_callback_rechains == (order == "before-init" ? 1u : 0u));
        if (order == "after-init") CHECK(incomplete_frames == 0);
        if (inferred) CHECK(incomplete_frames > 0);  // collections seen only by gc_no say so
    } else {
        // No-patch: il2cpp's profiler forwards its own callback's events, whoever came first.
        CHECK(run.result.counters.gc_callback_rechains == 0);
        if (order == "after-init") {
            CHECK(incomplete_frames == 0);
        } else {
            // The one collection it cannot forward is recorded where it happened, without timing:
            // in the frame in which il2cpp_init ran (the first; the player starts MemTracer just
            // before it), which says its collections may be incomplete; no later frame does.
            REQUIRE(!run.frames.empty());
            CHECK((run.frames.front().flags & MT_FRAME_GC_INCOMPLETE) != 0);
            CHECK(incomplete_frames == 1);
            CHECK(inferred == 1);
            CHECK(std::any_of(run.frames.front().gcs.begin(), run.frames.front().gcs.end(),
                              [](const auto &c) { return c.start_tick == c.end_tick; }));
        }
    }
    if (order == "before-init") {
        // "GC Finalizer" allocated its Thread object before naming itself, inside the capture.
        bool finalizer_events = false;
        for (const auto &f : run.frames)
            for (const auto &e : f.event_list) finalizer_events |= run.threads.at(e.thread).name == "GC Finalizer";
        CHECK(finalizer_events);
    }
    fs::remove_all(dir);
}
