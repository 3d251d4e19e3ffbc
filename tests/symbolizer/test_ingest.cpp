// End to end through the reader: run.mt files written by the runtime's encoder, with the ELF
// fixture's real return addresses (and the Mach-O fixture's), ingested into SQLite and checked
// table by table.
#include <catch2/catch.hpp>

#include <filesystem>

#include "names.h"
#include "object_info.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "support.h"

using namespace mt::sym;
using mt::test::fixture;
using mt::test::query;
using mt::test::query1;

namespace {

constexpr uint64_t kLibcLoad = 0x7f1200000000, kOutside = 0xdead0000;

// Two frames of raw events over three stacks: the fixture's full allocation stack, one through
// a module without symbols, one with a frame outside every module.
void write_elf_run(const std::string &path, const mt::test::LoadedElf &elf, uint64_t start_ns = 1700000000000000000ull) {
    mt::test::RunWriter w(path, MT_ARCH_X86_64, MT_FILE_FLAG_GC_EVENTS, start_ns);
    mt::test::add_elf_module(w, 0, elf);
    w.module(1, MT_MODULE_ELF, "/usr/lib/x86_64-linux-gnu/libc.so.6", kLibcLoad, 0x200000, kLibcLoad, 0, {0xaa, 0xbb});
    w.thread(0, 101, "main");
    w.thread(1, 102, "render");
    w.klass(0, "String", "System");
    w.klass(1, "Node", "Game");
    const auto &s = elf.slots;
    w.stack(0, {s[0], s[2], s[6], s[7]});
    w.stack(1, {kLibcLoad + 0x1234, s[1]});
    w.stack(2, {kOutside, s[5]});
    w.frame(0, {{0, 1010, 0, 0, 32, 48, 0x10000}, {0, 1020, 0, 0, 32, 48, 0x10040}, {1, 1030, 1, 1, 100, 112, 0x20000}},
            {{1100, 1600, 1 << 20, 1 << 18, 4096, 1}});
    w.frame(1, {{0, 16001100, 0, 0, 32, 48, 0x10080}, {1, 16001200, 1, 2, 10, 16, 0x20100}});
    w.end();
    w.flush();
}

}  // namespace

TEST_CASE("symbolizer: ELF run: tables - symbols with inline chains - sites - modules without symbols", "[ingest][elf]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_gcc.so"));
    auto lines = mt::test::marker_lines(mt::test::fixture_src("inline_fixture.cpp"), "@LINE:");
    mt::test::TempDir d;
    write_elf_run(d.file("run.mt"), elf);
    Config cfg;
    cfg.elfs = {elf.path};
    auto out = mt::test::ingest(d.file("run.db"), {d.file("run.mt")}, cfg);
    REQUIRE(out.results.size() == 1);
    const InputResult &r = out.results[0];
    CHECK(r.stop == mt::reader::Stop::End);
    CHECK(out.warnings.empty());
    std::string db = d.file("run.db");

    // runs
    auto run = query(db, "SELECT mode, stop, frame_count, alloc_count, requested_bytes, gc_bytes, gc_count, build_id, "
                         "process, tick_hz, duration_ns, source_file FROM runs");
    REQUIRE(run.size() == 1);
    CHECK(run[0][0] == "events");
    CHECK(run[0][1] == "end");
    CHECK(run[0][2] == "2");
    CHECK(run[0][3] == "5");
    CHECK(run[0][4] == std::to_string(32 * 3 + 100 + 10));
    CHECK(run[0][5] == std::to_string(48 * 3 + 112 + 16));
    CHECK(run[0][6] == "1");
    CHECK(run[0][7] == hex_id(elf.build_id));
    CHECK(run[0][8] == "FixtureGame");
    CHECK(run[0][9] == "1000000000.0");
    CHECK(run[0][10] == "32000000");  // two 16 ms frames, ticks at 1 GHz
    CHECK(run[0][11] == d.file("run.mt"));
    CHECK(query1(db, "SELECT value FROM run_info WHERE key = 'session_label'") == "symbolizer test");

    // modules, threads, classes
    auto mods = query(db, "SELECT module_id, kind, build_id, symbol_file FROM modules ORDER BY module_id");
    REQUIRE(mods.size() == 2);
    CHECK(mods[0] == std::vector<std::string>{"0", "elf", hex_id(elf.build_id), elf.path});
    CHECK(mods[1][3] == "NULL");
    CHECK(query1(db, "SELECT group_concat(name, ',') FROM (SELECT name FROM threads ORDER BY thread_id)") == "main,render");
    CHECK(query1(db, "SELECT full_name FROM classes WHERE class_id = 0") == "System.String");

    // stack_frames: raw addresses kept; the frame outside every module has no addr_id
    CHECK(query1(db, "SELECT count(*) FROM stack_frames") == "8");
    CHECK(query1(db, "SELECT address FROM stack_frames WHERE stack_id = 2 AND pos = 0") == std::to_string(kOutside));
    CHECK(query1(db, "SELECT addr_id FROM stack_frames WHERE stack_id = 2 AND pos = 0") == "NULL");
    CHECK(r.outside_modules == 1);

    // The module without symbols keeps module + offset, unsymbolized.
    auto libc = query(db, "SELECT a.module_path, a.file_address, a.symbolized FROM stack_frames f JOIN addresses a USING(addr_id) "
                          "WHERE f.stack_id = 1 AND f.pos = 0");
    REQUIRE(libc.size() == 1);
    CHECK(libc[0] == std::vector<std::string>{"libc.so.6", std::to_string(0x1234), "0"});
    CHECK(r.symbols.no_symbols == 1);

    // The innermost frame: the inline chain inner_helper <- middle_helper <- fx_outer.
    auto chain = query(db, "SELECT s.depth, s.function, s.demangled, s.file, s.line FROM stack_frames f "
                           "JOIN symbols s USING(addr_id) WHERE f.stack_id = 0 AND f.pos = 0 ORDER BY s.depth");
    REQUIRE(chain.size() == 3);
    // gcc gives static inline functions no linkage name: the raw name is then the plain one.
    auto readable = [](const std::vector<std::string> &row) { return row[2].empty() ? row[1] : row[2]; };
    CHECK(readable(chain[0]).rfind("inner_helper", 0) == 0);
    CHECK(std::stoul(chain[0][4]) == lines.at("inner_call"));
    CHECK(readable(chain[1]).rfind("middle_helper", 0) == 0);
    CHECK(std::stoul(chain[1][4]) == lines.at("middle_call"));
    CHECK(chain[2][1] == "fx_outer");
    CHECK(std::stoul(chain[2][4]) == lines.at("outer_call"));
    CHECK(mt::test::basename(chain[2][3]) == "inline_fixture.cpp");
    // The other frames of that stack: call lines of each caller.
    auto callers = query(db, "SELECT f.pos, s.function, s.csharp, s.line FROM stack_frames f JOIN symbols s USING(addr_id) "
                             "WHERE f.stack_id = 0 AND f.pos > 0 ORDER BY f.pos");
    REQUIRE(callers.size() == 3);
    CHECK(callers[0][1] == "_ZN4game7Spawner5spawnEi");
    CHECK(std::stoul(callers[0][3]) == lines.at("spawn_call"));
    CHECK(callers[1][2] == "NodeFactory.CreateNode");
    CHECK(std::stoul(callers[1][3]) == lines.at("il2cpp_call"));
    CHECK(std::stoul(callers[2][3]) == lines.at("run_call"));

    // Sites: the first game frame, innermost first (inlined frames count).
    auto sites = query(db, "SELECT st.stack_id, si.function, si.line FROM stacks st JOIN sites si USING(site_id) ORDER BY st.stack_id");
    REQUIRE(sites.size() == 3);
    CHECK(sites[0][1].rfind("inner_helper", 0) == 0);
    CHECK(std::stoul(sites[0][2]) == lines.at("inner_call"));
    CHECK(sites[1][1] == "fx_outer");  // the libc frame has no name: the named game frame wins
    CHECK(std::stoul(sites[1][2]) == lines.at("outer_plain"));
    CHECK(sites[2][1] == "fx_run");
    CHECK(query1(db, "SELECT depth FROM stacks WHERE stack_id = 0") == "4");

    // Frames, allocations (events aggregated per frame, class, stack), GC, whole-run totals.
    auto frames = query(db, "SELECT seq, frame_index, start_ns, end_ns, alloc_count, gc_count, gc_ns, live_bytes FROM frames ORDER BY seq");
    REQUIRE(frames.size() == 2);
    CHECK(frames[0] == std::vector<std::string>{"0", "100", "0", "16000000", "3", "1", "500", "NULL"});
    CHECK(frames[1][2] == "16000000");
    auto allocs = query(db, "SELECT seq, class_id, stack_id, count, requested_bytes, gc_bytes FROM allocs ORDER BY seq, class_id, stack_id");
    CHECK(allocs == std::vector<std::vector<std::string>>{{"0", "0", "0", "2", "64", "96"},
                                                          {"0", "1", "1", "1", "100", "112"},
                                                          {"1", "0", "0", "1", "32", "48"},
                                                          {"1", "1", "2", "1", "10", "16"}});
    auto rcs = query(db, "SELECT class_id, stack_id, count, gc_bytes, first_seq, last_seq FROM run_class_stack ORDER BY class_id, stack_id");
    CHECK(rcs == std::vector<std::vector<std::string>>{{"0", "0", "3", "144", "0", "1"}, {"1", "1", "1", "112", "0", "0"}, {"1", "2", "1", "16", "1", "1"}});
    CHECK(query(db, "SELECT seq, start_ns, end_ns, heap_size, reclaimed_bytes, gc_no FROM gc_events") ==
          std::vector<std::vector<std::string>>{{"0", "100", "600", std::to_string(1 << 20), "4096", "1"}});

    // Secondary indexes exist, and the file is a single self-contained database.
    CHECK(query1(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'gc_events_by_frame'") == "1");
    CHECK(query1(db, "PRAGMA journal_mode") == "delete");
    CHECK(query1(db, "PRAGMA user_version") == std::to_string(mt::store::kSchemaVersion));
    CHECK_FALSE(std::filesystem::exists(db + "-wal"));
}

TEST_CASE("symbolizer: Mach-O run with --dsym and --il2cpp-symbols - through the command line", "[ingest][macho][cli]") {
    auto uuid = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    auto calls = mt::test::marker_lines(mt::test::fixture_src("unity_framework.c"), "@CALL ");
    const uint64_t load = 0x104a30000, slide = load;  // dylib __TEXT vmaddr is 0
    std::map<std::string, uint64_t> ret;               // callee -> runtime return address
    for (const auto &cs : mt::test::arm64_call_sites(fixture("arm64/UnityFramework"))) ret[cs.callee] = cs.address + 4 + slide;
    const std::string nf = "NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12";
    const std::string gl = "GameLoop_Update_m0123456789ABCDEF0123456789ABCDEF01234567";

    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_ARM64, MT_FILE_FLAG_AGGREGATE);
        w.module(0, MT_MODULE_MACHO, "/private/var/containers/Bundle/Application/X/Game.app/Frameworks/UnityFramework.framework/UnityFramework",
                 load, 0x10000, slide, 0, uuid);
        w.thread(0, 1, "main");
        w.klass(0, "Node", "Game");
        // What the runtime records for an allocation in NodeFactory.CreateNode: the innermost
        // frame is in il2cpp_codegen_object_new, which called the hook.
        w.stack(0, {ret.at("mt_on_alloc"), ret.at("il2cpp_codegen_object_new"), ret.at(nf), ret.at(gl)});
        w.aggregate_frame(0, {{0, 0, 10, 640, 640, 10}});
        w.end();
        w.flush();
    }
    // IL2CPP side files for this "build": the C# method and a C# line for the C line of the call.
    std::filesystem::create_directories(d.file("il2cpp/Symbols"));
    mt::test::write_file(d.file("il2cpp/MethodMap.tsv"),
                         nf + "\tGame.Node Game.NodeFactory::CreateNode(UnityEngine.Object)\tAssembly-CSharp\n");
    mt::test::write_file(d.file("il2cpp/Symbols/LineNumberMappings.json"),
                         "{\"/elsewhere/fixtures/unity_framework.c\" : {\"Assets/Scripts/NodeFactory.cs\" : {\"" +
                             std::to_string(calls.at("il2cpp_codegen_object_new") - 1) + "\" : 42}}}");

    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--dsym", fixture("arm64/UnityFramework.dSYM"), "--il2cpp-symbols",
                                 d.file("il2cpp"), "--jobs", "2"}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    std::string db = d.file("run.db");  // default: beside run.mt
    REQUIRE(std::filesystem::exists(db));
    CHECK(query1(db, "SELECT build_id FROM runs") == hex_id(uuid));
    CHECK(query1(db, "SELECT mode FROM runs") == "aggregate");
    CHECK(query1(db, "SELECT symbol_file FROM modules") == fixture("arm64/UnityFramework.dSYM/Contents/Resources/DWARF/UnityFramework"));
    // The site skips il2cpp_codegen_object_new and lands in NodeFactory.CreateNode, with the
    // full name from MethodMap.tsv and the C# line from LineNumberMappings.json.
    auto site = query(db, "SELECT si.function, si.file, si.line FROM stacks JOIN sites si USING(site_id)");
    REQUIRE(site.size() == 1);
    CHECK(site[0] == std::vector<std::string>{"Game.NodeFactory.CreateNode(UnityEngine.Object)", "Assets/Scripts/NodeFactory.cs", "42"});
    // The raw C frame stays available beside the C# one.
    auto sym = query(db, "SELECT s.function, s.line, s.cs_file, s.cs_line FROM stack_frames f JOIN symbols s USING(addr_id) "
                         "WHERE f.pos = 1");
    REQUIRE(sym.size() == 1);
    CHECK(sym[0][0] == nf);
    CHECK(std::stoul(sym[0][1]) == calls.at("il2cpp_codegen_object_new"));
    // The inlined List`1.Add frame of the third address.
    auto inl = query(db, "SELECT s.depth, s.csharp FROM stack_frames f JOIN symbols s USING(addr_id) WHERE f.pos = 2 ORDER BY s.depth");
    REQUIRE(inl.size() == 2);
    CHECK(inl[0][1] == "List`1.Add");
    CHECK(inl[1][1] == "GameLoop.Update");
    CHECK(query1(db, "SELECT count FROM allocs") == "10");
}

TEST_CASE("symbolizer: Lifetimes: deaths per frame - live bytes - survivors", "[ingest][lifetimes]") {
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_X86_64, MT_FILE_FLAG_LIFETIMES | MT_FILE_FLAG_GC_EVENTS);
        w.thread(0, 1, "main");
        w.klass(0, "String", "System");
        w.klass(1, "Node", "Game");
        w.stack(0, {0x1000});
        w.stack(1, {0x2000});
        // frame 0: 2 strings (stack 0) + 1 node (stack 1); frame 1: 1 string; frame 2: a GC
        // finds one frame-0 string and the frame-1 string dead.
        w.frame(0, {{0, 1010, 0, 0, 20, 32, 0xa000}, {0, 1020, 0, 0, 20, 32, 0xa100}, {0, 1030, 1, 1, 50, 64, 0xb000}});
        w.frame(1, {{0, 16001010, 0, 0, 20, 32, 0xa200}});
        w.frame(2, {}, {{32001100, 32001900, 1 << 20, 1 << 19, 64, 1}},
                {{0xa000, 0, 0, 0, 32}, {0xa200, 1, 0, 0, 32}});
        w.end();
        w.flush();
    }
    auto out = mt::test::ingest(d.file("run.db"), {d.file("run.mt")}, Config{});
    std::string db = d.file("run.db");
    CHECK(query1(db, "SELECT has_lifetimes FROM runs") == "1");
    CHECK(query(db, "SELECT seq, live_bytes FROM frames ORDER BY seq") ==
          std::vector<std::vector<std::string>>{{"0", "128"}, {"1", "160"}, {"2", "96"}});
    CHECK(query(db, "SELECT seq, class_id, count, gc_bytes FROM deaths") == std::vector<std::vector<std::string>>{{"2", "0", "2", "64"}});
    CHECK(query(db, "SELECT class_id, stack_id, count, gc_bytes, first_seq FROM survivors ORDER BY class_id") ==
          std::vector<std::vector<std::string>>{{"0", "0", "1", "32", "0"}, {"1", "1", "1", "64", "0"}});
}

TEST_CASE("symbolizer: mt_mark labels become markers rows - frame and ns from the run's start", "[ingest][markers]") {
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"));
        w.thread(0, 1, "main");
        w.klass(0, "String", "System");
        w.stack(0, {0x1000});
        // Ticks are nanoseconds (1 GHz); frame N starts at 1000 + N * 16 ms.
        mt::trace::MarkRecord m0{1500, "level loaded"};
        w.w.marks(0, &m0, 1);
        w.frame(0, {{0, 1010, 0, 0, 20, 32, 0xa000}});
        w.frame(1, {});
        mt::trace::MarkRecord m2[2] = {{32001000 + 7, "boss spawned"}, {32001000 + 9, "boss spawned"}};
        w.w.marks(2, m2, 2);
        w.frame(2, {});
        w.end();
        w.flush();
    }
    mt::test::ingest(d.file("run.db"), {d.file("run.mt")}, Config{});
    CHECK(query(d.file("run.db"), "SELECT run_id, seq, ns, label FROM markers ORDER BY seq, ns") ==
          std::vector<std::vector<std::string>>{
              {"1", "0", "500", "level loaded"}, {"1", "2", "32000007", "boss spawned"}, {"1", "2", "32000009", "boss spawned"}});
}

TEST_CASE("symbolizer: Sampled raw events are weighted by 1/p of the byte-interval sampler", "[ingest][sampling]") {
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_X86_64, MT_FILE_FLAG_SAMPLED, 1700000000000000000ull, 1024);
        w.thread(0, 1, "main");
        w.klass(0, "Big", "");
        w.stack(0, {0x1000});
        w.frame(0, {{0, 1010, 0, 0, 1024, 1024, 0xa000}, {0, 1020, 0, 0, 1 << 20, 1 << 20, 0xb000}});
        w.end();
        w.flush();
    }
    mt::test::ingest(d.file("run.db"), {d.file("run.mt")}, Config{});
    // p(1024 B at 1024 B) = 1 - e^-1 -> weight 1.582; p(1 MiB) ~ 1 -> weight 1.
    CHECK(query1(d.file("run.db"), "SELECT count FROM allocs") == "3");
    CHECK(query1(d.file("run.db"), "SELECT requested_bytes FROM allocs") == std::to_string(1620 + (1 << 20)));
    CHECK(query1(d.file("run.db"), "SELECT full_name FROM classes") == "Big");
}

TEST_CASE("symbolizer: journal modes - a new database uses the rollback journal and an existing one WAL", "[ingest][durability]") {
    mt::test::TempDir d;
    std::string path = d.file("run.db");
    {
        auto fresh = mt::store::open_database(path);
        CHECK(fresh.created);
        CHECK(fresh.db.query_int("PRAGMA user_version") == mt::store::kSchemaVersion);
        mt::store::Stmt mode = fresh.db.prepare("PRAGMA journal_mode");
        REQUIRE(mode.step());
        CHECK(mode.text(0) == "delete");
        CHECK(fresh.db.query_int("PRAGMA synchronous") == 2);  // FULL
    }
    {
        // Appending: a reader (the viewer) may hold the file open, so WAL while ingesting...
        auto existing = mt::store::open_database(path);
        CHECK_FALSE(existing.created);
        mt::store::Stmt mode = existing.db.prepare("PRAGMA journal_mode");
        REQUIRE(mode.step());
        CHECK(mode.text(0) == "wal");
        CHECK(existing.db.query_int("PRAGMA synchronous") == 1);  // NORMAL
        mode = mt::store::Stmt();
        mt::store::finish_database(existing.db);
    }
    // ...and one self-contained file afterwards.
    CHECK(query1(path, "PRAGMA journal_mode") == "delete");
    CHECK_FALSE(std::filesystem::exists(path + "-wal"));
}
