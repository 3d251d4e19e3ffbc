// The Unity plug-in entry, loaded the way the player loads it (dlopen + UnityPluginLoad) into a
// stand-in host: frames end on the host's frame callback, threads get the names the host
// registers, and the capture is complete after UnityPluginUnload.
#include "unity_host.h"

#include <memtracer/memtracer.h>
#include <memtracer/reader.h>

#include <memtracer/format.h>

#include <catch2/catch.hpp>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>

// The class API the runtime resolves names through, exported by this executable as libil2cpp
// exports it from a player.
struct FakeClass { const char *name; const char *ns; };
extern "C" __attribute__((visibility("default"))) const char *il2cpp_class_get_name(void *k) { return static_cast<FakeClass *>(k)->name; }
extern "C" __attribute__((visibility("default"))) const char *il2cpp_class_get_namespace(void *k) { return static_cast<FakeClass *>(k)->ns; }

namespace {

FakeClass g_string{"String", "System"};
FakeClass g_enemy{"Enemy", "Game"};

struct Plugin {
    void *handle = dlopen(MEMTRACER_UNITY_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    using Load = void (*)(IUnityInterfaces *);
    using Unload = void (*)();
    using OnAlloc = void (*)(void *, void *, size_t);
    Load load = handle ? reinterpret_cast<Load>(dlsym(handle, "UnityPluginLoad")) : nullptr;
    Unload unload = handle ? reinterpret_cast<Unload>(dlsym(handle, "UnityPluginUnload")) : nullptr;
    OnAlloc on_alloc = handle ? reinterpret_cast<OnAlloc>(dlsym(handle, "mt_on_alloc")) : nullptr;
};

std::string temp_path(const char *name) {
    return std::string(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") + "/" + name + "." + std::to_string(getpid());
}

}  // namespace

TEST_CASE("Unity plug-in: frame callback ends frames, thread callback names threads") {
    const std::string out = temp_path("unity-plugin.mt");
    setenv("MEMTRACER_OUTPUT", out.c_str(), 1);
    setenv("MEMTRACER_HOOK", "patch", 1);  // the allocations below come straight to mt_on_alloc

    Plugin plugin;
    REQUIRE(plugin.handle != nullptr);
    REQUIRE(plugin.load != nullptr);
    REQUIRE(plugin.unload != nullptr);
    REQUIRE(plugin.on_alloc != nullptr);

    unity_host::Host &host = unity_host::instance();
    plugin.load(&host.interfaces);
    REQUIRE(host.frame_callbacks.size() == 1);
    REQUIRE(host.thread_callbacks.size() == 1);

    // The main thread registers itself; a worker is registered from the main thread (the
    // callback names another thread) before it allocates anything.
    host.register_thread(reinterpret_cast<uintptr_t>(pthread_self()), "Main Thread");
    constexpr int kFrames = 5;
    for (int frame = 0; frame < kFrames; ++frame) {
        char obj[64];
        for (int i = 0; i <= frame; ++i) plugin.on_alloc(obj, &g_string, 32);
        // The worker waits until it is named: this test asserts the name-first order, so it
        // enforces it (the name-after order is the next test case's).
        std::atomic<bool> named{false};
        std::thread worker([&] {
            while (!named.load(std::memory_order_acquire)) std::this_thread::yield();
            plugin.on_alloc(obj, &g_enemy, 48);
        });
        host.register_thread(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(worker.native_handle())),
                             ("Job.Worker " + std::to_string(frame)).c_str());
        named.store(true, std::memory_order_release);
        worker.join();
        host.new_frame();
    }
    plugin.unload();
    CHECK(host.frame_callbacks.empty());
    CHECK(host.thread_callbacks.empty());

    mt::reader::Run run = mt::reader::load_file(out);
    CHECK(run.result.stop == mt::reader::Stop::End);

    std::map<std::string, int> per_class;
    int committed = 0;
    for (const auto &f : run.frames) {
        if (f.flags & MT_FRAME_FINAL) continue;
        int strings = 0;
        for (const auto &e : f.event_list) {
            const auto &c = run.classes.at(e.class_id);
            ++per_class[c.name_space + "." + c.name];
            strings += c.name == "String";
        }
        CHECK(f.index == static_cast<uint64_t>(committed));
        CHECK(strings == committed + 1);  // frame N allocated N+1 strings on the main thread
        ++committed;
    }
    CHECK(committed == kFrames);
    CHECK(per_class["System.String"] == kFrames * (kFrames + 1) / 2);
    CHECK(per_class["Game.Enemy"] == kFrames);

    std::map<std::string, int> names;
    for (const auto &t : run.threads) ++names[t.name];
    CHECK(names.count("Main Thread") == 1);
    int workers_named = 0;
    for (const auto &[name, n] : names) workers_named += name.rfind("Job.Worker ", 0) == 0;
    CHECK(workers_named == kFrames);
    unlink(out.c_str());
}

TEST_CASE("Unity plug-in: MEMTRACER_DISABLE leaves the player untouched") {
    setenv("MEMTRACER_DISABLE", "1", 1);
    Plugin plugin;
    REQUIRE(plugin.load != nullptr);
    unity_host::Host &host = unity_host::instance();
    int requests = host.interface_requests;
    plugin.load(&host.interfaces);
    CHECK(host.interface_requests == requests);
    CHECK(host.frame_callbacks.empty());
    plugin.unload();
    unsetenv("MEMTRACER_DISABLE");
}

TEST_CASE("Unity plug-in: a thread named before and after its first allocation keeps the name") {
    const std::string out = temp_path("unity-names.mt");
    setenv("MEMTRACER_OUTPUT", out.c_str(), 1);
    setenv("MEMTRACER_HOOK", "patch", 1);
    Plugin plugin;
    REQUIRE(plugin.load != nullptr);
    unity_host::Host &host = unity_host::instance();
    plugin.load(&host.interfaces);

    // Each worker waits at a gate so the test decides whether the name arrives first.
    auto run_worker = [&](bool name_first, const char *name) {
        std::atomic<int> gate{0};
        char obj[32];
        std::thread worker([&] {
            while (gate.load() == 0) std::this_thread::yield();
            plugin.on_alloc(obj, &g_enemy, 16);
            gate.store(2);
            while (gate.load() != 3) std::this_thread::yield();
        });
        const uint64_t id = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(worker.native_handle()));
        if (name_first) host.register_thread(id, name);
        gate.store(1);
        while (gate.load() != 2) std::this_thread::yield();
        if (!name_first) host.register_thread(id, name);  // the thread is bound: renamed in place
        gate.store(3);
        worker.join();
    };
    run_worker(true, "Loading.AsyncRead");
    run_worker(false, "Job.Worker late");
    host.new_frame();
    plugin.unload();

    mt::reader::Run run = mt::reader::load_file(out);
    std::map<std::string, int> names;
    for (const auto &t : run.threads) ++names[t.name];
    CHECK(names["Loading.AsyncRead"] == 1);
    CHECK(names["Job.Worker late"] == 1);
    unlink(out.c_str());
}

namespace {

// Every (frame, label) the capture's frames carry; frames counted from the capture's first (the
// plug-in numbers Unity's frames for the whole process, and earlier cases ran some).
std::vector<std::pair<uint64_t, std::string>> marks_of(const std::string &path) {
    mt::reader::Run run = mt::reader::load_file(path);
    REQUIRE(run.result.stop == mt::reader::Stop::End);
    REQUIRE(!run.frames.empty());
    std::vector<std::pair<uint64_t, std::string>> out;
    for (const auto &f : run.frames)
        for (const auto &m : f.marks) out.emplace_back(f.index - run.frames.front().index, m.label);
    return out;
}

}  // namespace

TEST_CASE("Unity plug-in: Unity's scene-load marker becomes an mt_mark, once per load") {
    const std::string out = temp_path("unity-marks.mt");
    setenv("MEMTRACER_OUTPUT", out.c_str(), 1);
    setenv("MEMTRACER_HOOK", "patch", 1);
    unsetenv("MEMTRACER_UNITY_MARKS");  // the default: the scene-load integration step
    unity_host::Host &host = unity_host::instance();
    // The marker exists before the plug-in loads (Unity creates its own at startup); another
    // Loading marker is never forwarded.
    const UnityProfilerMarkerDesc *load = host.create_marker("Application.LoadLevelAsync Integrate");
    const UnityProfilerMarkerDesc *read = host.create_marker("Loading.ReadObject");
    Plugin plugin;
    REQUIRE(plugin.load != nullptr);
    plugin.load(&host.interfaces);
    CHECK(host.create_marker_callbacks.size() == 1);
    CHECK(host.marker_event_callbacks() == 1);

    host.new_frame();                                          // frame 0 ends
    host.emit(load, kUnityProfilerMarkerEventTypeBegin);       // frame 1: a load starts
    host.emit(load, kUnityProfilerMarkerEventTypeEnd);
    host.emit(read, kUnityProfilerMarkerEventTypeBegin);
    host.new_frame();
    host.emit(load, kUnityProfilerMarkerEventTypeBegin);       // frame 2: its next step
    host.emit(load, kUnityProfilerMarkerEventTypeEnd);
    host.new_frame();
    host.new_frame();                                          // frame 3: nothing
    host.emit(load, kUnityProfilerMarkerEventTypeSingle);     // frame 4: the next load
    host.new_frame();
    plugin.unload();
    CHECK(host.create_marker_callbacks.empty());
    CHECK(host.marker_event_callbacks() == 0);

    auto marks = marks_of(out);
    REQUIRE(marks.size() == 2);
    CHECK(marks[0] == std::make_pair(uint64_t{1}, std::string("Application.LoadLevelAsync Integrate")));
    CHECK(marks[1] == std::make_pair(uint64_t{4}, std::string("Application.LoadLevelAsync Integrate")));
    unlink(out.c_str());
}

TEST_CASE("Unity plug-in: MEMTRACER_UNITY_MARKS names the markers to forward, created before or after load") {
    const std::string out = temp_path("unity-marks-env.mt");
    setenv("MEMTRACER_OUTPUT", out.c_str(), 1);
    setenv("MEMTRACER_HOOK", "patch", 1);
    setenv("MEMTRACER_UNITY_MARKS", "Game.BossSpawn,Game.LevelReady", 1);
    unity_host::Host &host = unity_host::instance();
    const UnityProfilerMarkerDesc *ready = host.create_marker("Game.LevelReady");
    const UnityProfilerMarkerDesc *scene = host.create_marker("Application.LoadLevelAsync Integrate");
    Plugin plugin;
    REQUIRE(plugin.load != nullptr);
    plugin.load(&host.interfaces);
    // A marker created after the plug-in loaded (a C# ProfilerMarker) is forwarded too.
    const UnityProfilerMarkerDesc *boss = host.create_marker("Game.BossSpawn");
    CHECK(host.marker_event_callbacks() == 2);

    host.emit(ready, kUnityProfilerMarkerEventTypeBegin);  // frame 0
    host.emit(scene, kUnityProfilerMarkerEventTypeBegin);  // not in the list
    host.new_frame();
    host.new_frame();
    host.emit(boss, kUnityProfilerMarkerEventTypeSingle);  // frame 2
    host.new_frame();
    plugin.unload();
    CHECK(host.marker_event_callbacks() == 0);
    unsetenv("MEMTRACER_UNITY_MARKS");

    auto marks = marks_of(out);
    REQUIRE(marks.size() == 2);
    CHECK(marks[0] == std::make_pair(uint64_t{0}, std::string("Game.LevelReady")));
    CHECK(marks[1] == std::make_pair(uint64_t{2}, std::string("Game.BossSpawn")));
    unlink(out.c_str());
}
