// memtracer-sample-game end to end: the run.mt against the game's own tally, the patch hook
// against the profiler hook, determinism, aggregate mode, stacks, and its command line.
#include "game_support.h"
#include "tree.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

#include <algorithm>
#include <set>

namespace fs = std::filesystem;
using namespace mt::test;

namespace {

// Rings large enough for the whole run, and blocking instead of dropping when full: exact counts
// must not depend on how busy the machine is.
const std::vector<std::string> kBase = {"--frames", "150", "--workers", "2", "--seed", "7",
                                        "--ring-bytes", "16777216", "--block-when-full"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string> &more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

JValue load_expect(const GameRun &g) {
    return parse_json(read_file(g.expect));
}

}  // namespace

// Where the runtime is: its own library loaded RTLD_LOCAL (Android's plug-in) or linked into
// GameAssembly (iOS's UnityFramework). A static player (the arm64 stage) has it linked in. Under
// the sanitizers only the first: LeakSanitizer's exit-time scan crashes in its own tracer on the
// in-game library (it reports a dynamic TLS block at 0x41 of 32 GiB), even with --no-trace.
#if defined(MT_GAME_STATIC) || defined(MT_GAME_SANITIZED)
#define MT_RUNTIME_PLACES "separate"
#else
#define MT_RUNTIME_PLACES "separate", "in-game"
#endif

TEST_CASE("run.mt holds exactly what the game allocated, frame by frame and class by class") {
    const std::string hook = GENERATE("patch", "profiler");
    const std::string runtime = GENERATE(MT_RUNTIME_PLACES);
    INFO("--hook " << hook << " --runtime " << runtime);
    fs::path dir = make_temp_dir("game-truth");
    GameRun g = run_game(dir, hook, with(kBase, {"--hook", hook, "--runtime", runtime}));
    INFO(g.result.output);
    REQUIRE(g.result.exit_code == 0);

    const JValue expect = load_expect(g);
    const mt::reader::Run run = mt::reader::load_file(g.out);
    REQUIRE(run.result.stop == mt::reader::Stop::End);
    REQUIRE(run.result.has_counters);
    CHECK(run.result.counters.events_dropped == 0);

    const auto truth = expected_by_klass(expect);
    REQUIRE(truth.size() == 150);
    uint64_t total = 0;
    for (const auto &[frame, classes] : truth)
        for (const auto &[k, cell] : classes) total += cell.count;
    CHECK(total > 150 * 100);  // a busy game: hundreds of allocations a frame
    CHECK(run.result.counters.allocations_seen == total);
    const auto boundaries = frame_boundaries(run);
    REQUIRE(!boundaries.empty());
    CHECK(boundaries.back() == 149);
    CHECK(first_difference(fold(truth, boundaries), recorded_by_klass(run)) == "");
    CHECK(events_in_final_frames(run) == 0);
    // The game's scripted mt_mark calls: "level loaded" before frame 0's work, "boss spawned"
    // before frame 75's; each in the frame whose mt_frame_end(index) closed that game frame
    // (a merged frame covers several indices, so: the first frame with index >= the game frame).
    std::vector<std::pair<std::string, uint64_t>> marks;
    for (size_t i = 0; i < run.frames.size(); ++i)
        for (const auto &m : run.frames[i].marks) {
            uint64_t prev = i == 0 ? 0 : run.frames[i - 1].index + 1;  // first game frame this one holds
            marks.emplace_back(m.label, prev);
            CHECK(run.frames[i].index >= (m.label == "level loaded" ? 0u : 75u));
        }
    REQUIRE(marks.size() == 2);
    CHECK(marks[0].first == "level loaded");
    CHECK(marks[0].second == 0);
    CHECK(marks[1].first == "boss spawned");
    CHECK(marks[1].second <= 75);

    // The file's class dictionary agrees with libil2cpp on names, exactly: the full C# names
    // il2cpp_type_get_name gives, so two classes never share one (no " #2" fallback needed).
    std::map<uint64_t, std::pair<std::string, std::string>> names;
    for (const JValue &c : expect["classes"].a)
        names[c["klass"].u64()] = {c["namespace"].str(), c["name"].str()};
    std::set<std::string> full_names;
    for (const auto &c : run.classes) {
        INFO(c.name_space << " / " << c.name);
        REQUIRE(names.count(c.klass) == 1);
        CHECK(c.name_space == names[c.klass].first);
        CHECK(c.name == names[c.klass].second);
        CHECK(c.name.find(" #") == std::string::npos);
        CHECK(full_names.insert(c.name_space.empty() ? c.name : c.name_space + "." + c.name).second);
    }
    // What Unity's il2cpp_type_get_name (IL format) calls the game's generic instances, nested
    // classes and arrays of them; the three List`1 instances this run allocates among them.
    for (const char *il_name :
         {"System.Collections.Generic.List<Enemy>", "System.Collections.Generic.List<PathNode>",
          "System.Collections.Generic.List<UnityEngine.Vector3>",
          "System.Collections.Generic.Dictionary<System.Int32,System.Single>",
          "System.Collections.Generic.KeyValuePair<System.Int32,System.Single>", "System.Func<Enemy,System.Boolean>",
          "System.Collections.Generic.Dictionary.Entry<System.Int32,System.Single>[]",
          "EnemyManager.<>c__DisplayClass7_0", "Enemy.<>c__DisplayClass12_0", "Pathfinder.<FindPath>d__12",
          "UnityEngine.Vector3[]", "System.String"}) {
        INFO(il_name);
        CHECK(full_names.count(il_name) == 1);
    }
    fs::remove_all(dir);
}

TEST_CASE("the patch hook and the profiler hook record the same allocations") {
    fs::path dir = make_temp_dir("game-hooks");
    GameRun patch = run_game(dir, "patch", with(kBase, {"--hook", "patch"}));
    GameRun profiler = run_game(dir, "profiler", with(kBase, {"--hook", "profiler"}));
    REQUIRE(patch.result.exit_code == 0);
    REQUIRE(profiler.result.exit_code == 0);
    const mt::reader::Run a = mt::reader::load_file(patch.out), b = mt::reader::load_file(profiler.out);
    const auto boundaries = common_boundaries(frame_boundaries(a), frame_boundaries(b));
    REQUIRE(boundaries.size() > 1);
    const auto ta = fold(recorded_by_name(a), boundaries), tb = fold(recorded_by_name(b), boundaries);
    uint64_t total = 0;
    for (const auto &[frame, classes] : ta)
        for (const auto &[name, cell] : classes) total += cell.count;
    CHECK(total > 150 * 100);
    CHECK(first_difference(ta, tb) == "");
    fs::remove_all(dir);
}

TEST_CASE("same seed, same allocations per frame and class whatever the worker count") {
    fs::path dir = make_temp_dir("game-determinism");
    std::vector<Tally<std::string>> runs;
    for (const char *workers : {"0", "1", "3"}) {
        GameRun g = run_game(dir, std::string("w") + workers,
                             {"--frames", "130", "--workers", workers, "--seed", "42", "--no-trace"});
        REQUIRE(g.result.exit_code == 0);
        runs.push_back(expected_by_name(load_expect(g)));
    }
    CHECK(first_difference(runs[0], runs[1]) == "");
    CHECK(first_difference(runs[0], runs[2]) == "");
    GameRun other = run_game(dir, "other-seed", {"--frames", "130", "--seed", "43", "--no-trace"});
    REQUIRE(other.result.exit_code == 0);
    CHECK(first_difference(runs[0], expected_by_name(load_expect(other))) != "");
    fs::remove_all(dir);
}

TEST_CASE("aggregate mode carries the same per-frame counts and bytes") {
    fs::path dir = make_temp_dir("game-aggregate");
    GameRun g = run_game(dir, "aggregate", with(kBase, {"--mode", "aggregate"}));
    INFO(g.result.output);
    REQUIRE(g.result.exit_code == 0);
    const mt::reader::Run run = mt::reader::load_file(g.out);
    REQUIRE(run.result.stop == mt::reader::Stop::End);
    CHECK(first_difference(fold(expected_by_klass(load_expect(g)), frame_boundaries(run)), recorded_by_klass(run)) == "");
    fs::remove_all(dir);
}

TEST_CASE("allocations come from the main thread and the workers through deep generated stacks") {
    fs::path dir = make_temp_dir("game-stacks");
    GameRun g = run_game(dir, "stacks", with(kBase, {"--workers", "3", "--gc-events"}));
    REQUIRE(g.result.exit_code == 0);
    const mt::reader::Run run = mt::reader::load_file(g.out);

    std::set<std::string> threads_with_events;
    std::set<std::string> classes;
    size_t collections = 0;
    for (const auto &f : run.frames) {
        collections += f.gcs.size();
        for (const auto &e : f.event_list) {
            CHECK(e.gc_size >= e.size);  // Boehm's GC_size of the object: the size class it got
            threads_with_events.insert(run.threads.at(e.thread).name);
            const auto &c = run.classes.at(e.class_id);
            classes.insert(c.name);
            if (c.name == "PathNode[]") CHECK((e.size - 32) % 24 == 0);  // header + n * sizeof(PathNode)
            if (c.name == "String") CHECK((e.size - 24) % 2 == 0);
        }
    }
    CHECK(collections > 0);  // the game's Boehm heap is collected while it runs
    CHECK(threads_with_events == std::set<std::string>{"Main Thread", "Job.Worker 0", "Job.Worker 1", "Job.Worker 2"});
    // Every allocation path of libil2cpp is taken: pointer-free (String, Bullet, Char[]), typed
    // (Enemy), conservative (LevelData has no descriptor; Enemy[] is an array of references),
    // and the GC_gcj_vector_malloc path (PathNode[], DamageEvent[], Entry[]).
    for (const char *name : {"String", "Bullet", "Char[]", "Enemy", "LevelData", "Enemy[]", "PathNode[]",
                             "DamageEvent[]", "System.Collections.Generic.Dictionary.Entry<System.Int32,System.Single>[]",
                             "Int32", "Single", "Action", "EnemyManager.<>c__DisplayClass7_0"})
        CHECK(classes.count(name) == 1);

    const mt::reader::Module *game = nullptr;
    for (const auto &m : run.modules)
        if (m.path.find(MT_GAME_MODULE) != std::string::npos) game = &m;
    REQUIRE(game != nullptr);
    size_t deepest = 0, deep = 0;
    for (const auto &s : run.stacks) {
        deepest = std::max(deepest, s.frames.size());
        size_t in_game = std::count_if(s.frames.begin(), s.frames.end(), [&](uint64_t a) { return game->contains(a); });
        if (s.frames.size() >= 15) ++deep;
        CHECK(in_game >= 6);  // libil2cpp plus at least a few generated methods
        CHECK(game->contains(s.frames.front()));  // the innermost frame is libil2cpp's allocation site
    }
    // Player loop or job queue, invoker, scripts, libil2cpp: 15 to 30 frames for most allocations.
    CHECK(deepest >= 25);
    CHECK(deep * 10 >= run.stacks.size() * 8);
    fs::remove_all(dir);
}

TEST_CASE("bad command lines and a missing game library are reported, not run") {
    struct Case {
        std::vector<std::string> args;
        int exit_code;
        const char *says;
    };
    const Case cases[] = {
        {{"--frames", "ten"}, 1, "--frames: 'ten' is not a whole number"},
        {{"--hook", "inline"}, 1, "--hook: 'inline' is not patch or profiler"},
        {{"--mode"}, 1, "--mode: needs a value"},
        {{"--jobs", "0"}, 1, "--jobs: must be at least 1"},
        {{"--bogus"}, 1, "--bogus: unknown option"},
        {{"--game-lib", "/nonexistent/libGameAssembly.so"}, 2, "cannot load the game library"},
        {{"--ring-bytes", "1000", "--frames", "1"}, 2, "MT_ERR_RING_CAPACITY"},
    };
    for (const Case &c : cases) {
        std::vector<std::string> argv = {"--out", "/dev/null"};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        ProcessResult r = run_process(game_argv(argv));
        INFO(r.output);
        CHECK(r.exit_code == c.exit_code);
        CHECK(r.output.find(c.says) != std::string::npos);
    }
}

TEST_CASE("libil2cpp loaded RTLD_LOCAL with Boehm internal: both modes see collections and frames say where GC sizes come from") {
    const std::string hook = GENERATE("patch", "profiler");
    const std::string runtime = GENERATE(MT_RUNTIME_PLACES);
    INFO("--hook " << hook << " --runtime " << runtime);
    fs::path dir = make_temp_dir("game-gc-source");
    GameRun g = run_game(dir, hook, with(kBase, {"--hook", hook, "--runtime", runtime, "--gc-events", "--lifetimes"}));
    INFO(g.result.output);
    REQUIRE(g.result.exit_code == 0);
    const mt::reader::Run run = mt::reader::load_file(g.out);
    size_t collections = 0, exact = 0, estimated = 0, from_profiler = 0, events = 0, above_requested = 0, deaths = 0;
    std::set<std::string> threads_with_events;
    for (const auto &f : run.frames) {
        collections += f.gcs.size();
        deaths += f.deaths.size();
        for (const auto &e : f.event_list) threads_with_events.insert(run.threads.at(e.thread).name);
        exact += (f.flags & MT_FRAME_GC_SIZE_EXACT) != 0;
        estimated += (f.flags & MT_FRAME_GC_SIZE_ESTIMATED) != 0;
        from_profiler += (f.flags & MT_FRAME_GC_FROM_PROFILER) != 0;
        for (const auto &e : f.event_list) {
            ++events;
            CHECK(e.gc_size >= e.size + 1);  // Boehm adds a byte and rounds to 16-byte granules
            CHECK(e.gc_size % 16 == 0);
            above_requested += e.gc_size > e.size;
        }
    }
    CHECK(collections > 0);
    CHECK(events > 0);
    CHECK(above_requested == events);
    CHECK(threads_with_events == std::set<std::string>{"Main Thread", "Job.Worker 0", "Job.Worker 1"});
    if (hook == "patch") {
        CHECK(exact == run.frames.size());
        CHECK(estimated + from_profiler == 0);
        CHECK(deaths > 0);  // lifetimes need Boehm's mark bits: the bridge hands them over
        CHECK((run.header.flags & MT_FILE_FLAG_LIFETIMES) != 0);
    } else {
        CHECK(deaths == 0);  // no-patch: no mark bits, so no lifetimes (and the file says so)
        CHECK((run.header.flags & MT_FILE_FLAG_LIFETIMES) == 0);
        CHECK(estimated == run.frames.size());
        CHECK(from_profiler > 0);
        CHECK(exact == 0);
    }
    fs::remove_all(dir);
}

TEST_CASE("no-patch mode's GC size estimates: never above Boehm's GC_size and close to it in total") {
    fs::path dir = make_temp_dir("game-gc-estimate");
    GameRun patch = run_game(dir, "patch", with(kBase, {"--hook", "patch"}));
    GameRun profiler = run_game(dir, "profiler", with(kBase, {"--hook", "profiler"}));
    REQUIRE(patch.result.exit_code == 0);
    REQUIRE(profiler.result.exit_code == 0);
    const mt::reader::Run exact = mt::reader::load_file(patch.out), est = mt::reader::load_file(profiler.out);
    // Requested size -> the GC sizes Boehm gave it (a size may land in different classes).
    std::map<uint64_t, std::set<uint64_t>> gc_sizes;
    uint64_t exact_total = 0, est_total = 0, exact_events = 0, est_events = 0, equal = 0;
    for (const auto &f : exact.frames)
        for (const auto &e : f.event_list) {
            gc_sizes[e.size].insert(e.gc_size);
            exact_total += e.gc_size;
            ++exact_events;
        }
    for (const auto &f : est.frames)
        for (const auto &e : f.event_list) {
            est_total += e.gc_size;
            ++est_events;
            auto it = gc_sizes.find(e.size);
            if (it == gc_sizes.end()) continue;
            INFO("requested " << e.size << ", estimated " << e.gc_size);
            CHECK(e.gc_size <= *it->second.begin());  // a lower bound of the size class
            equal += it->second.count(e.gc_size);
        }
    REQUIRE(exact_events == est_events);  // the same allocations (checked per class elsewhere)
    REQUIRE(exact_events > 0);
    const double ratio = static_cast<double>(est_total) / static_cast<double>(exact_total);
    const double share_equal = static_cast<double>(equal) / static_cast<double>(est_events);
    WARN("estimated / exact GC bytes: " << ratio << "; events estimated exactly: " << share_equal);
    // A lower bound by construction: bdwgc groups some sizes past the tiny free lists into larger
    // classes depending on what was allocated first. Measured here: 0.945 of the bytes, 97% of
    // the events exact (docs/patching.md); the bound below leaves room for other seeds.
    CHECK(ratio >= 0.9);
    CHECK(ratio <= 1.0);
    CHECK(share_equal >= 0.9);
    fs::remove_all(dir);
}
