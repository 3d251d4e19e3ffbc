// main.cpp — memtracer-sample-game: the stand-in for a Unity player. It loads GameAssembly (the
// mini-libil2cpp plus the generated game code), initialises il2cpp, starts MemTracer, then runs
// the frame loop: Update on the main thread, C# jobs on the workers, LateUpdate once every job is
// done, mt_frame_end. See docs/sample-game.md.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <pthread.h>

#include "game_library.h"
#include "ground_truth.h"
#include "job_system.h"
#include "memtracer/memtracer.h"
#include "options.h"
#include "player_loop.h"
#include "tracer.h"

using namespace mtsample;

namespace {

thread_local Il2CppThread *t_attached = nullptr;  // the worker's il2cpp thread (GC registration)
Tracer g_mt;  // the runtime's C API, wherever the runtime is (tracer.h)

int fail(const std::string &what) {
    std::fprintf(stderr, "memtracer-sample-game: %s\n", what.c_str());
    return 2;
}

std::string status_text(mt_status s) {
    std::string text = g_mt.status_string(s);
    const char *why = g_mt.last_error();
    if (why && *why) text += std::string(" (") + why + ")";
    return text;
}

mt_status start_capture(const Options &o) {
    mt_config c;
    mt_status s = g_mt.config_init(&c);
    if (s != MT_OK) return s;
    static std::string label;
    label = "memtracer-sample-game seed=" + std::to_string(o.seed) + " hook=" + o.hook;
    c.output_path = o.out.c_str();
    c.mode = o.mode == "aggregate" ? MT_MODE_AGGREGATE : MT_MODE_EVENTS;
    c.unwinder = o.unwinder == "libunwind" ? MT_UNWIND_LIBUNWIND : MT_UNWIND_FRAME_POINTER;
    c.sample_interval_bytes = o.sample_bytes;
    c.flags = (o.gc_events ? MT_FLAG_GC_EVENTS : 0u) | (o.lifetimes ? MT_FLAG_LIFETIMES : 0u);
    if (o.ring_bytes) c.ring_capacity = o.ring_bytes;
    if (o.block_when_full) c.on_full = MT_ON_FULL_BLOCK;
    c.session_label = label.c_str();
    c.random_seed = o.seed;
    if (!o.listen.empty()) c.live_listen = o.listen.c_str();
    if (!o.connect.empty()) c.live_connect = o.connect.c_str();
    if (!o.token.empty()) c.live_token = o.token.c_str();
    return g_mt.start(&c);
}

void print_summary(const Options &o, const GameLibrary &lib, const GroundTruth &truth, double seconds) {
    std::printf("memtracer-sample-game: %llu frames, %u workers, %u jobs/frame, seed %llu, hook %s, %.2f s\n",
                static_cast<unsigned long long>(o.frames), o.workers, o.jobs,
                static_cast<unsigned long long>(o.seed), o.hook.c_str(), seconds);
    std::printf("game tally: %llu allocations; GC heap %.1f MiB\n",
                static_cast<unsigned long long>(truth.total_count()), lib.il2cpp_gc_get_heap_size() / 1048576.0);
    std::printf("top classes by count:\n%12s %14s  class\n", "count", "bytes");
    for (const auto &[klass, t] : truth.top(10))
        std::printf("%12llu %14llu  %s%s%s\n", static_cast<unsigned long long>(t.count),
                    static_cast<unsigned long long>(t.bytes), t.name_space.c_str(), t.name_space.empty() ? "" : ".",
                    t.name.c_str());
    if (!o.trace) return;
    mt_counters c;
    if (g_mt.get_counters(&c) != MT_OK) return;
    std::printf("memtracer: seen %llu, recorded %llu, dropped %llu, sampled out %llu, written %llu, "
                "%llu bytes, %llu frames, %llu stacks, %llu classes, %llu threads, reentrant %llu%s\n",
                (unsigned long long)c.allocations_seen, (unsigned long long)c.events_recorded,
                (unsigned long long)c.events_dropped, (unsigned long long)c.events_sampled_out,
                (unsigned long long)c.events_written, (unsigned long long)c.bytes_written,
                (unsigned long long)c.frames_written, (unsigned long long)c.stacks_known,
                (unsigned long long)c.classes_known, (unsigned long long)c.threads_known,
                (unsigned long long)c.reentrant_skipped, c.disabled ? ", DISABLED" : "");
}

// Starts the capture (and, for --hook profiler, attaches to il2cpp's profiler); an exit status
// on failure.
std::optional<int> begin_trace(const Options &o) {
    mt_status s = start_capture(o);
    if (s != MT_OK) return fail("mt_start: " + status_text(s));
    if (o.hook == "profiler" && (s = g_mt.attach_il2cpp()) != MT_OK) {
        g_mt.stop();
        return fail("mt_attach_il2cpp: " + status_text(s));
    }
    return std::nullopt;
}

}  // namespace

int main(int argc, char **argv) {
    Options parsed;
    if (auto code = parse_options(argc, argv, parsed)) return *code;
    const Options o = parsed;
    std::string error;

    GameLibrary lib;
    std::string path =
        o.game_lib.empty() ? default_game_library(o.runtime == "in-game" ? o.hook + "-in-game" : o.hook) : o.game_lib;
    if (!load_game_library(path, lib, error)) return fail(error);
    if (!load_tracer(o.runtime, o.runtime_lib, lib, g_mt, error)) return fail(error);
    // --tracer-start before-init: MemTracer first, as a plug-in loaded before il2cpp_init
    // (UnityPluginLoad); il2cpp's GarbageCollector::Initialize then replaces its GC callback.
    const bool before_init = o.trace && o.tracer_start == "before-init";
    if (before_init) {
        if (auto code = begin_trace(o)) return *code;
    }
    lib.il2cpp_init("IL2CPP Root Domain");
    // Every way out after init quits as a player does: il2cpp_shutdown stops the finalizer thread
    // (a thread left running at exit breaks LeakSanitizer's exit scan). Declared before the job
    // system, so the workers are joined first.
    struct Shutdown {
        GameLibrary &lib;
        ~Shutdown() { lib.il2cpp_shutdown(); }
    } shutdown{lib};
    lib.start(o.seed, o.jobs);  // GameManager.Awake: startup allocations, before the capture

    std::vector<mtsample_tally_row> rows(1024);
    lib.take_tally(rows.data(), static_cast<uint32_t>(rows.size()));  // drop the startup tally
    GroundTruth truth;

    pthread_setname_np(pthread_self(), "Main Thread");
    g_mt.set_thread_name("Main Thread");
    {
        JobSystem jobs(
            o.workers, o.jobs, [&](uint64_t frame, uint32_t job) { JobQueue::Exec(lib, frame, job); },
            [&](uint32_t worker) {
                std::string name = "Job.Worker " + std::to_string(worker);
                pthread_setname_np(pthread_self(), name.c_str());
                g_mt.set_thread_name(name.c_str());
                t_attached = lib.il2cpp_thread_attach(lib.il2cpp_domain_get());
            },
            [&](uint32_t) { lib.il2cpp_thread_detach(t_attached); });

        if (o.trace && !before_init) {
            if (auto code = begin_trace(o)) return *code;
        }
        const uint64_t collections_at_start = before_init ? 0 : lib.collection_count();

        auto t0 = std::chrono::steady_clock::now();
        uint64_t tick = 0;  // the game's own frame count: more than `frame` with --alloc-scale above 1
        for (uint64_t frame = 0; frame < o.frames; ++frame) {
            // --fps: frame N starts at t0 + N/fps, as a vsync'd player loop does (no catch-up burst).
            if (o.fps) std::this_thread::sleep_until(t0 + std::chrono::microseconds(frame * 1000000 / o.fps));
            // Scripted markers, so a demo's timeline has labelled points to range over.
            if (o.trace && frame == 0) g_mt.mark("level loaded");
            if (o.trace && frame == o.frames / 2) g_mt.mark("boss spawned");
            if (o.trace && frame == o.leak_from) g_mt.mark("leak starts");
            for (uint64_t t = ticks_in_frame(o.alloc_permille, frame); t > 0; --t, ++tick) {
                PlayerLoop::Update(lib, tick);
                jobs.run_frame(tick);
                PlayerLoop::LateUpdate(lib, tick);
            }
            if (frame >= o.leak_from) lib.leak(frame);
            uint32_t n = lib.take_tally(rows.data(), static_cast<uint32_t>(rows.size()));
            truth.add_frame(frame, rows.data(), n);
            if (o.trace) g_mt.frame_end(frame);
        }
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

        truth.set_collections(collections_at_start, lib.collection_count());
        if (o.trace) {
            mt_status s = g_mt.stop();
            // MT_ERR_NOT_STARTED: a live host stopped the capture already.
            if (s != MT_OK && s != MT_ERR_NOT_STARTED) std::fprintf(stderr, "memtracer-sample-game: mt_stop: %s\n", status_text(s).c_str());
        }
        if (!o.expect_json.empty() && !truth.write_json(o.expect_json, o, error)) return fail(error);
        if (!o.quiet) print_summary(o, lib, truth, seconds);
    }
    return 0;
}
