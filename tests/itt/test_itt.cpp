// test_itt.cpp — libmemtracer_itt.so loaded by ITT static parts: the stand-in's heap API program
// (exact native figures and lifetimes), real clients (oneTBB and LLVM's OpenMP runtime), the
// collector absent or disabled, and hostile input. Each program runs as its own process, as a game
// would, and the capture is read back with memtracer_reader (and symbolized, where built).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include <memtracer/format.h>
#include <memtracer/reader.h>

#include "process.h"
#include "tree.h"

namespace fs = std::filesystem;
using mt::test::run_process;

namespace {

const std::string kCollector = MT_ITT_COLLECTOR;

// Runs `program` with the collector, recording into dir/name.mt; returns the process's result.
mt::test::ProcessResult traced(const std::string &program, const fs::path &mt, const std::map<std::string, std::string> &env = {}) {
    std::map<std::string, std::string> e{{"INTEL_LIBITTNOTIFY64", kCollector}, {"MEMTRACER_OUTPUT", mt.string()}};
    for (const auto &[k, v] : env) e[k] = v;
    return run_process({program}, e);
}

// stdout only (TBB may warn on stderr about worker limits, with or without a collector).
std::string stdout_of(const std::string &command) {
    auto r = run_process({"sh", "-c", command + " 2>/dev/null"});
    REQUIRE(r.exit_code == 0);
    return r.output;
}

struct ClassFigures {
    uint64_t count = 0, bytes = 0, deaths = 0, dead_bytes = 0;
};

// Per class name (namespace.name): allocations, requested bytes, deaths, over the whole run.
std::map<std::string, ClassFigures> by_class(const mt::reader::Run &run) {
    std::map<std::string, ClassFigures> out;
    auto name = [&](uint32_t id) {
        const auto &c = run.classes.at(id);
        return c.name_space.empty() ? c.name : c.name_space + "." + c.name;
    };
    for (const auto &f : run.frames) {
        for (const auto &e : f.event_list) {
            auto &c = out[name(e.class_id)];
            ++c.count;
            c.bytes += e.size;
        }
        for (const auto &d : f.deaths) {
            auto &c = out[name(d.class_id)];
            ++c.deaths;
            c.dead_bytes += d.gc_size;
        }
    }
    return out;
}

std::vector<std::string> thread_names(const mt::reader::Run &run) {
    std::vector<std::string> out;
    for (const auto &t : run.threads) out.push_back(t.name);
    return out;
}

std::vector<std::string> mark_labels(const mt::reader::Run &run) {
    std::vector<std::string> out;
    for (const auto &f : run.frames)
        for (const auto &m : f.marks) out.push_back(m.label);
    return out;
}

bool has(const std::vector<std::string> &v, const std::string &s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST_CASE("itt: the heap API program's native allocations, exact, with their lifetimes, frames, marks and threads", "[itt]") {
    fs::path dir = mt::test::make_temp_dir("itt-heap");
    fs::path mt = dir / "heap.mt";
    auto r = traced(MT_ITT_HEAP_PROGRAM, mt, {{"MEMTRACER_FLAGS", "3"}});  // GC events + lifetimes
    INFO(r.output);
    REQUIRE(r.exit_code == 0);  // 3: the collector breached the protocol (a row left NULL or foreign)
    auto run = mt::reader::load_file(mt.string());
    INFO(run.result.stop_reason);
    REQUIRE(run.result.clean());
    CHECK(run.result.end_reason == MT_END_STOPPED);
    REQUIRE((run.header.flags & MT_FILE_FLAG_LIFETIMES) != 0);  // no libgc here: native lifetimes claim it

    for (const auto &c : run.classes) CHECK((c.flags & MT_CLASS_NATIVE) != 0);
    auto figures = by_class(run);
    REQUIRE(figures.size() == 2);
    // 100 x 24 + 10 reallocated to 48 + 20 x 100 on the worker; 60 freed + the 10 reallocated.
    CHECK(figures["game.pool_small"].count == 130);
    CHECK(figures["game.pool_small"].bytes == 100 * 24 + 10 * 48 + 20 * 100);
    CHECK(figures["game.pool_small"].deaths == 70);
    CHECK(figures["game.pool_small"].dead_bytes == 70 * 24);
    CHECK(figures["game.pool_big"].count == 50);
    CHECK(figures["game.pool_big"].bytes == 50 * 4096);
    CHECK(figures["game.pool_big"].deaths == 50);

    // Four frames from the "Game" domain, then mt_stop's final one; the frees are in frame 2.
    REQUIRE(run.frames.size() == 5);
    CHECK(run.frames[0].events == 100);
    CHECK(run.frames[1].events == 50);
    CHECK(run.frames[2].events == 10);
    CHECK(run.frames[2].deaths.size() == 120);
    CHECK(run.frames[3].events == 20);
    CHECK((run.frames[4].flags & MT_FRAME_FINAL) != 0);

    auto marks = mark_labels(run);
    std::vector<std::string> frame1;
    for (const auto &m : run.frames[1].marks) frame1.push_back(m.label);
    CHECK(has(frame1, "marker LevelLoaded"));  // in the frame it was called in
    CHECK(has(marks, "frame Loader"));  // another domain's frame: a mark
    CHECK(has(marks, "task LoadChunk"));
    CHECK(has(marks, "task LoadChunk end"));
    CHECK(has(marks, "event Stream"));
    CHECK(has(marks, "event Stream end"));
    auto names = thread_names(run);
    CHECK(has(names, "itt heap main"));
    CHECK(has(names, "itt heap worker"));

    // Every stack starts in the program (pool_alloc/pool_realloc), not in the collector.
    const auto &self = run.modules.at(0);
    for (const auto &s : run.stacks) {
        REQUIRE(!s.frames.empty());
        CHECK(s.frames[0] >= self.load_address);
        CHECK(s.frames[0] < self.load_address + self.size);
    }
}

#ifdef MT_SYMBOLIZE
TEST_CASE("itt: symbolized, the native heaps are the report's native kind, with their sites and survivors", "[itt]") {
    fs::path dir = mt::test::make_temp_dir("itt-heap-db");
    fs::path mt = dir / "heap.mt", db = dir / "heap.db";
    auto r = traced(MT_ITT_HEAP_PROGRAM, mt, {{"MEMTRACER_FLAGS", "3"}});
    REQUIRE(r.exit_code == 0);
    auto s = run_process({MT_SYMBOLIZE, mt.string(), "--elf", MT_ITT_HEAP_PROGRAM, "--no-progress", "-o", db.string()});
    INFO(s.output);
    REQUIRE(s.exit_code == 0);
    auto report = [&](const std::string &args) {  // CSV lines end in CRLF (RFC 4180): compared as LF
        std::string out = stdout_of(std::string(MT_REPORT) + " " + args + " " + db.string() + " --format csv");
        out.erase(std::remove(out.begin(), out.end(), '\r'), out.end());
        return out;
    };
    CHECK(report("top --kind native") ==
          "rank,class,count,requested_bytes,gc_bytes,share\n"
          "1,game.pool_big,50,204800,204800,0.9767264402899657\n"
          "2,game.pool_small,130,4880,4880,0.02327355971003434\n");
    CHECK(report("top --kind managed") == "rank,class,count,requested_bytes,gc_bytes,share\n");
    std::string sites = report("top --by site --kind native");
    INFO(sites);
    CHECK(sites.find("1,pool_alloc (") != std::string::npos);
    CHECK(sites.find(",170,209200,") != std::string::npos);
    CHECK(sites.find("2,pool_realloc (") != std::string::npos);
    // Alive at the end: 30 x 24 + 10 x 48 (reallocated) + 20 x 100 from pool_small, nothing of pool_big.
    std::string leaks = report("leaks --kind native");
    INFO(leaks);
    CHECK(leaks.find("1,game.pool_small,1,60,3200,130,") != std::string::npos);
    CHECK(leaks.find("pool_big") == std::string::npos);
}
#endif

TEST_CASE("itt: without lifetimes, native frees are not recorded and nothing else changes", "[itt]") {
    fs::path dir = mt::test::make_temp_dir("itt-heap-nolife");
    fs::path mt = dir / "heap.mt";
    auto r = traced(MT_ITT_HEAP_PROGRAM, mt);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    auto run = mt::reader::load_file(mt.string());
    REQUIRE(run.result.clean());
    auto figures = by_class(run);
    CHECK(figures["game.pool_small"].count == 130);
    CHECK(figures["game.pool_big"].count == 50);
    CHECK(figures["game.pool_small"].deaths == 0);
    CHECK((run.header.flags & MT_FILE_FLAG_LIFETIMES) == 0);
}

TEST_CASE("itt: the collector absent, or MemTracer disabled, changes nothing in the program's output", "[itt]") {
    fs::path dir = mt::test::make_temp_dir("itt-absent");
    std::vector<std::string> programs{MT_ITT_HEAP_PROGRAM};
#ifdef MT_ITT_TBB_OMP_PROGRAM
    programs.push_back(MT_ITT_TBB_OMP_PROGRAM);
#endif
    for (const auto &p : programs) {
        std::string bare = stdout_of("env -u INTEL_LIBITTNOTIFY64 " + p);
        CHECK(!bare.empty());
        fs::path off = dir / "disabled.mt", on = dir / "on.mt";
        CHECK(stdout_of("env INTEL_LIBITTNOTIFY64=" + kCollector + " MEMTRACER_DISABLE=1 MEMTRACER_OUTPUT=" + off.string() +
                        " " + p) == bare);
        CHECK(!fs::exists(off));  // disabled: no capture at all
        CHECK(stdout_of("env INTEL_LIBITTNOTIFY64=" + kCollector + " MEMTRACER_OUTPUT=" + on.string() + " " + p) == bare);
        CHECK(mt::reader::load_file(on.string()).result.clean());
        fs::remove(on);
    }
}

TEST_CASE("itt: hostile input neither crashes nor blocks, and the capture stays whole", "[itt]") {
    fs::path dir = mt::test::make_temp_dir("itt-hostile");
    fs::path mt = dir / "hostile.mt";
    auto r = traced(MT_ITT_HOSTILE_PROGRAM, mt);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("hostile done") != std::string::npos);
    auto run = mt::reader::load_file(mt.string());
    INFO(run.result.stop_reason);
    REQUIRE(run.result.clean());  // __itt_detach stopped it: END, "stopped"
    CHECK(run.result.end_reason == MT_END_STOPPED);
    auto names = thread_names(run);
    for (int i = 0; i < 16; ++i) CHECK(has(names, "hostile " + std::to_string(i)));
    // 16 x 2000 allocations of 16 bytes from "flood heap" (no domain), nothing lost, nothing else.
    auto figures = by_class(run);
    CHECK(figures["flood heap"].count + run.result.counters.events_dropped == 16 * 2000);
    CHECK(figures["flood heap"].bytes == figures["flood heap"].count * 16);
    // The mark flood is more than the runtime's queue takes: what it dropped is said, not blocked on.
    CHECK(mark_labels(run).size() > 0);
}

#ifdef MT_ITT_TBB_OMP_PROGRAM
TEST_CASE("itt: oneTBB and LLVM's OpenMP runtime load the collector, and their worker names reach the capture", "[itt]") {
    fs::path dir = mt::test::make_temp_dir("itt-tbb-omp");
    fs::path mt = dir / "tbb_omp.mt";
    auto r = traced(MT_ITT_TBB_OMP_PROGRAM, mt, {{"MEMTRACER_FLAGS", "3"}});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    auto run = mt::reader::load_file(mt.string());
    INFO(run.result.stop_reason);
    REQUIRE(run.result.clean());
    auto names = thread_names(run);
    std::string all;
    for (const auto &n : names) all += n + "; ";
    INFO("threads: " << all);
    // libomp names its threads through __itt_thr_name_set, TBB its workers through
    // __itt_thread_set_name (docs/itt.md). num_threads(4): three OpenMP workers whatever the cores.
    CHECK(has(names, "OMP Primary Thread #0"));
    CHECK(std::count_if(names.begin(), names.end(), [](const std::string &n) { return n.rfind("OMP Worker Thread #", 0) == 0; }) == 3);
    CHECK(has(names, "TBB Worker Thread"));  // the program waits until a worker has run an item
    auto figures = by_class(run);
    CHECK(figures["game.tbb_jobs"].count == 3 * 4000);
    CHECK(figures["game.omp_jobs"].count == 3 * 4000);
    CHECK(figures["game.tbb_jobs"].deaths == 3 * 4000);
    CHECK(figures["game.omp_jobs"].deaths == 3 * 4000);
    // Frames: the program's own "Game" domain (TBB and libomp end none by default).
    CHECK(run.frames.size() == 4);
}
#endif
