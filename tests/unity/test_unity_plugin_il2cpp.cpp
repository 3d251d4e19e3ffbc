// The Unity plug-in over the sample game's libil2cpp, both loaded the way Android loads them
// (dlopen RTLD_LOCAL each, nothing of either in the global scope, this host exporting nothing):
// with MEMTRACER_HOOK unset the plug-in tells a patched libil2cpp (its bridge connects: exact GC
// sizes, counted once) from a shipped one (il2cpp's profiler: estimated GC sizes, collections from
// the profiler), and records every allocation with its class name. Loaded before il2cpp_init over
// a shipped libil2cpp, the frames up to il2cpp's GC set-up say they may miss a collection, and
// Boehm's first one, which runs before il2cpp installs the callback its profiler forwards, is
// recorded in the frame where il2cpp_init ran.
//
// Each case needs a process of its own, as a player has: il2cpp cannot be initialised again after
// il2cpp_shutdown (Unity's cannot either), and a second dlopen of the game returns the first one.
// ctest runs every case on its own (catch_discover_tests); running the binary whole fails by design.
#include "unity_host.h"

#include <memtracer/format.h>
#include <memtracer/reader.h>

#include "mtsample_game.h"

#include <catch2/catch.hpp>
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <map>
#include <string>
#include <vector>

namespace {

struct Game {
    void *handle;
    int (*init)(const char *);
    mtsample_start_fn start;
    mtsample_update_fn update;
    mtsample_late_update_fn late_update;
    mtsample_take_tally_fn take_tally;
    void (*collect)(int);
    void (*shutdown)();
};

template <class F>
void resolve(void *h, F &fn, const char *name) {
    fn = reinterpret_cast<F>(dlsym(h, name));
    INFO(name);
    REQUIRE(fn != nullptr);
}

Game load_game(const char *path) {
    Game g{};
    g.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    INFO(path << ": " << (g.handle ? "" : dlerror()));
    REQUIRE(g.handle != nullptr);
    resolve(g.handle, g.init, "il2cpp_init");
    resolve(g.handle, g.start, "mtsample_start");
    resolve(g.handle, g.update, "mtsample_update");
    resolve(g.handle, g.late_update, "mtsample_late_update");
    resolve(g.handle, g.take_tally, "mtsample_take_tally");
    resolve(g.handle, g.collect, "il2cpp_gc_collect");
    resolve(g.handle, g.shutdown, "il2cpp_shutdown");
    return g;
}

std::string trace_path(const char *name) {
    return std::string(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") + "/" + name + "." + std::to_string(getpid()) +
           ".mt";
}

// The plug-in, loaded as Unity loads it; it captures GC events, its hook chosen automatically.
struct Plugin {
    void (*load)(IUnityInterfaces *);
    void (*unload)();
};

Plugin open_plugin() {
    setenv("MEMTRACER_FLAGS", "1", 1);  // MT_FLAG_GC_EVENTS
    unsetenv("MEMTRACER_HOOK");         // automatic
    void *plugin = dlopen(MEMTRACER_UNITY_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    REQUIRE(plugin != nullptr);
    Plugin p{reinterpret_cast<void (*)(IUnityInterfaces *)>(dlsym(plugin, "UnityPluginLoad")),
             reinterpret_cast<void (*)()>(dlsym(plugin, "UnityPluginUnload"))};
    REQUIRE((p.load && p.unload));
    return p;
}

void run_and_check(const char *game_path, bool patched) {
    REQUIRE(dlsym(RTLD_DEFAULT, "il2cpp_init") == nullptr);  // nothing of il2cpp in the global scope
    Game game = load_game(game_path);
    REQUIRE(dlsym(RTLD_DEFAULT, "il2cpp_init") == nullptr);
    REQUIRE(dlsym(RTLD_DEFAULT, "GC_size") == nullptr);
    REQUIRE(game.init("unity-plugin-il2cpp") == 1);
    game.start(11, 8);  // GameManager.Awake
    std::vector<mtsample_tally_row> rows(1024);
    game.take_tally(rows.data(), static_cast<uint32_t>(rows.size()));  // the startup tally

    const std::string out = trace_path("unity-il2cpp");
    setenv("MEMTRACER_OUTPUT", out.c_str(), 1);
    const auto [load, unload] = open_plugin();
    unity_host::Host &host = unity_host::instance();
    load(&host.interfaces);

    std::map<std::string, uint64_t> tally;
    uint64_t total = 0;
    for (uint64_t frame = 0; frame < 30; ++frame) {
        game.update(frame);
        game.late_update(frame);
        if (frame % 10 == 9) game.collect(0);  // a collection every 10 frames, whatever the heap does
        uint32_t n = game.take_tally(rows.data(), static_cast<uint32_t>(rows.size()));
        for (uint32_t i = 0; i < n; ++i) {
            tally[rows[i].name] += rows[i].count;
            total += rows[i].count;
        }
        host.new_frame();
    }
    unload();
    game.shutdown();  // as a player quitting: il2cpp's finalizer thread stops before exit

    const mt::reader::Run run = mt::reader::load_file(out);
    unlink(out.c_str());
    REQUIRE(run.result.has_counters);
    CHECK(run.result.counters.allocations_seen == total);  // every allocation, once
    std::map<std::string, uint64_t> recorded;
    size_t collections = 0, exact = 0, estimated = 0, from_profiler = 0;
    for (const auto &f : run.frames) {
        collections += f.gcs.size();
        exact += (f.flags & MT_FRAME_GC_SIZE_EXACT) != 0;
        estimated += (f.flags & MT_FRAME_GC_SIZE_ESTIMATED) != 0;
        from_profiler += (f.flags & MT_FRAME_GC_FROM_PROFILER) != 0;
        for (const auto &e : f.event_list) ++recorded[run.classes.at(e.class_id).name];
    }
    CHECK(recorded == tally);  // class names resolved through il2cpp loaded RTLD_LOCAL
    CHECK(collections >= 3);
    CHECK(exact == (patched ? run.frames.size() : 0));
    CHECK(estimated == (patched ? 0 : run.frames.size()));
    CHECK((from_profiler > 0) == !patched);
}

// The capture at `path`, read whole and removed.
mt::reader::Run take_run(const std::string &path, size_t min_frames) {
    mt::reader::Run run = mt::reader::load_file(path);
    unlink(path.c_str());
    REQUIRE(run.result.clean());
    REQUIRE(run.frames.size() >= min_frames);
    return run;
}

// Player frames [first, last): a collection every 5th, the tally dropped (these tests count
// collections, not allocations).
void play_frames(Game &game, unity_host::Host &host, uint64_t first, uint64_t last) {
    std::vector<mtsample_tally_row> rows(1024);
    for (uint64_t frame = first; frame < last; ++frame) {
        game.update(frame);
        game.late_update(frame);
        if (frame % 5 == 4) game.collect(0);
        game.take_tally(rows.data(), static_cast<uint32_t>(rows.size()));
        host.new_frame();
    }
}

// MemTracer loaded before il2cpp_init; with `boehm_first`, something started Boehm before that
// (here il2cpp_gc_collect), so nothing of Boehm's start-up falls in the capture.
void run_before_init(bool boehm_first) {
    Game game = load_game(MT_GAME_PROFILER);
    mtsample_collection_count_fn boehm_count = nullptr;
    resolve(game.handle, boehm_count, "mtsample_collection_count");
    if (boehm_first) game.collect(0);
    const uint64_t boehm_at_load = boehm_count();
    REQUIRE((boehm_at_load > 0) == boehm_first);
    const std::string out = trace_path("unity-il2cpp-before-init");
    setenv("MEMTRACER_OUTPUT", out.c_str(), 1);
    const auto [load, unload] = open_plugin();
    unity_host::Host &host = unity_host::instance();
    load(&host.interfaces);  // il2cpp not initialised: the plug-in attaches il2cpp's profiler

    host.new_frame();  // frames 0 and 1: before il2cpp_init
    host.new_frame();
    REQUIRE(game.init("unity-plugin-il2cpp-before-init") == 1);  // frame 2: il2cpp sets up Boehm
    game.start(11, 8);
    host.new_frame();
    play_frames(game, host, 3, 20);
    const uint64_t boehm_at_end = boehm_count();
    unload();
    game.shutdown();

    const mt::reader::Run run = take_run(out, 20);
    size_t collections = 0;
    for (size_t i = 0; i < run.frames.size(); ++i) {
        INFO("frame " << i);
        const auto &f = run.frames[i];
        if (i > 2) CHECK((f.flags & MT_FRAME_GC_FROM_PROFILER) != 0);  // once il2cpp forwarded one
        CHECK(((f.flags & MT_FRAME_GC_INCOMPLETE) != 0) == (i <= 2));  // no longer once il2cpp forwards
        collections += f.gcs.size();
    }
    CHECK(boehm_at_end > boehm_at_load + 3);
    // Every collection il2cpp forwarded, and Boehm's first (inside GC_init, when it starts in the
    // capture) inferred in frame 2; when Boehm had started before, nothing is inferred.
    CHECK(collections == boehm_at_end - boehm_at_load);
    size_t inferred = 0;
    for (const auto &c : run.frames[2].gcs) inferred += c.start_tick == c.end_tick;
    CHECK(inferred == (boehm_first ? 0u : 1u));
}

}  // namespace

TEST_CASE("Unity plug-in loaded before il2cpp_init over a shipped libil2cpp: frames up to il2cpp's GC set-up are "
          "flagged gc-incomplete, Boehm's first collection recorded") {
    run_before_init(false);
}

TEST_CASE("Unity plug-in loaded before il2cpp_init, Boehm started before it: nothing inferred") {
    run_before_init(true);
}

TEST_CASE("Unity plug-in over a patched libil2cpp loaded RTLD_LOCAL: the patch's bridge, counted once") {
    run_and_check(MT_GAME_PATCH, true);
}

TEST_CASE("Unity plug-in over a shipped libil2cpp loaded RTLD_LOCAL: il2cpp's profiler, estimated GC sizes") {
    run_and_check(MT_GAME_PROFILER, false);
}

TEST_CASE("Unity plug-in attached before il2cpp_init, next capture after it: no frame flagged gc-incomplete") {
    Game game = load_game(MT_GAME_PROFILER);
    const auto [load, unload] = open_plugin();
    unity_host::Host &host = unity_host::instance();
    const std::string first = trace_path("unity-il2cpp-first"), second = trace_path("unity-il2cpp-second");
    setenv("MEMTRACER_OUTPUT", first.c_str(), 1);
    load(&host.interfaces);  // attaches il2cpp's profiler before il2cpp_init (for good: it has no detach)
    unload();                // this capture ends before il2cpp_init
    unlink(first.c_str());

    REQUIRE(game.init("unity-plugin-il2cpp-second") == 1);  // Boehm's first collection: no capture running
    game.start(11, 8);
    setenv("MEMTRACER_OUTPUT", second.c_str(), 1);
    load(&host.interfaces);
    play_frames(game, host, 0, 10);
    unload();
    game.shutdown();

    const mt::reader::Run run = take_run(second, 10);
    size_t collections = 0;
    for (const auto &f : run.frames) {
        CHECK((f.flags & MT_FRAME_GC_INCOMPLETE) == 0);  // nothing of il2cpp's set-up fell in this capture
        collections += f.gcs.size();
    }
    CHECK(collections >= 2);
}
