// The sample game's own capture against its own binaries: memtracer-sample-game records a real
// run.mt (real Boehm GC, real unwinder, the patched il2cpp allocation path), then the tool
// symbolizes it with --symbols over the build's lib/ directory. The game's own tally
// (--expect-json) is the ground truth for what was allocated, frame by frame and class by class.
#include <catch2/catch.hpp>

#ifdef MT_SAMPLE_GAME_EXE
#include <llvm/Support/JSON.h>

#include <map>
#include <set>

#include "sites.h"
#include "support.h"

using mt::test::query;
using mt::test::query1;

TEST_CASE("symbolizer: Sample game run symbolized against its own binaries", "[sample-game]") {
    // Both ways the runtime gets its allocations: the patched il2cpp (Object::New calls the hook)
    // and il2cpp's profiler API (Profiler::Allocation calls it).
    std::string hook = GENERATE(std::string("patch"), std::string("profiler"));
    INFO("--hook " << hook);
    mt::test::TempDir d;
    std::string cmd = std::string(MT_SAMPLE_GAME_EXE) + " --frames 40 --quiet --hook " + hook + " --out " + d.file("run.mt") +
                      " --expect-json " + d.file("truth.json") + " > " + d.file("game.log") + " 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);

    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--symbols", MT_SAMPLE_GAME_LIBDIR, "--elf", MT_SAMPLE_GAME_EXE, "--no-progress"}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    std::string db = d.file("run.db");
    CHECK(query1(db, "SELECT stop FROM runs") == "end");

    // What was allocated: per (game frame, class) exactly the game's own tally.
    auto truth = llvm::json::parse(mt::test::read_file(d.file("truth.json")));
    REQUIRE(bool(truth));
    const llvm::json::Object &t = *truth->getAsObject();
    std::map<std::string, std::string> names;
    for (const auto &c : *t.getArray("classes")) {
        const auto &o = *c.getAsObject();
        std::string ns = o.getString("namespace")->str(), n = o.getString("name")->str();
        names[o.getString("klass")->str()] = ns.empty() ? n : ns + "." + n;
    }
    std::map<std::pair<int64_t, std::string>, int64_t> expected, got;
    for (const auto &a : *t.getArray("allocations")) {
        const auto &o = *a.getAsObject();
        expected[{*o.getInteger("frame"), names.at(o.getString("klass")->str())}] += *o.getInteger("count");
    }
    for (const auto &row : query(db, "SELECT f.frame_index, c.full_name, sum(a.count) FROM allocs a "
                                     "JOIN frames f ON f.run_id = a.run_id AND f.seq = a.seq "
                                     "JOIN classes c ON c.run_id = a.run_id AND c.class_id = a.class_id GROUP BY 1, 2"))
        got[{std::stoll(row[0]), row[1]}] += std::stoll(row[2]);
    REQUIRE(expected.size() > 100);
    CHECK(got == expected);

    // Every address in the game's code is symbolized with a file and line.
    auto game = query(db, "SELECT count(*), sum(EXISTS (SELECT 1 FROM symbols s WHERE s.addr_id = a.addr_id AND s.file != '' AND s.line > 0)) "
                          "FROM addresses a WHERE a.module_path LIKE 'libGameAssembly%'");
    REQUIRE(std::stoll(game[0][0]) > 20);
    CHECK(game[0][1] == game[0][0]);

    // The innermost frame of every stack is the allocation call in il2cpp's Object/Array code,
    // and no site is an il2cpp, GC or MemTracer internal.
    auto inner = query(db, "SELECT DISTINCT s.demangled FROM stack_frames f JOIN symbols s USING(addr_id) WHERE f.pos = 0 AND s.depth = 0");
    REQUIRE_FALSE(inner.empty());
    for (const auto &row : inner) {
        INFO(row[0]);
        CHECK(row[0].rfind("il2cpp::vm::", 0) == 0);
    }
    auto sites = query(db, "SELECT DISTINCT si.function, si.file FROM stacks JOIN sites si USING(site_id)");
    REQUIRE(sites.size() > 5);
    for (const auto &row : sites) {
        INFO(row[0] << " " << row[1]);
        mt::sym::SymbolRow r;
        r.function = row[0];
        CHECK_FALSE(mt::sym::is_internal(r));
        CHECK(row[1].find("sample-game/generated/") != std::string::npos);
    }
    // C# names of the game's methods.
    CHECK(query1(db, "SELECT count(DISTINCT function) FROM sites WHERE function IN ('Enemy.Attack', 'HudText.Refresh', "
                     "'ParticleJob.Execute')") == "3");
    CHECK(query1(db, "SELECT frame_count FROM runs") == "41");
}

namespace {

// One mode's run of the same workload, symbolized: (class, what it is keyed on) -> allocations.
struct ModeRun {
    std::string db;
    std::map<std::pair<std::string, std::string>, int64_t> by_site, by_trimmed_stack;
    std::set<std::string> innermost, first_shown;  // raw innermost frames; first frame after the trim
};

ModeRun record_mode(const mt::test::TempDir &d, const std::string &hook) {
    ModeRun m;
    std::string mt_file = d.file(hook + ".mt");
    m.db = d.file(hook + ".db");
    std::string cmd = std::string(MT_SAMPLE_GAME_EXE) + " --frames 30 --seed 7 --quiet --hook " + hook + " --out " + mt_file +
                      " > " + d.file(hook + ".log") + " 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::string err;
    int rc = mt::test::run_tool({mt_file, "--symbols", MT_SAMPLE_GAME_LIBDIR, "--elf", MT_SAMPLE_GAME_EXE, "--no-progress", "-o", m.db}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    // Each stack as a view expands it (pos, then the inline chain), innermost first.
    std::map<std::string, std::vector<mt::sym::SymbolRow>> frames;
    for (const auto &r : query(m.db, "SELECT sf.stack_id, coalesce(s.function, ''), coalesce(s.demangled, ''), coalesce(s.csharp, '') "
                                     "FROM stack_frames sf LEFT JOIN symbols s ON s.addr_id = sf.addr_id ORDER BY sf.stack_id, sf.pos, s.depth")) {
        mt::sym::SymbolRow row;
        row.function = r[1], row.demangled = r[2], row.csharp = r[3];
        frames[r[0]].push_back(row);
    }
    std::map<std::string, std::string> shown;  // stack -> its frames after the machinery
    for (const auto &r : query(m.db, "SELECT stack_id, machinery FROM stacks")) {
        const auto &f = frames[r[0]];
        size_t trim = std::stoul(r[1]);
        REQUIRE(trim < f.size());
        m.innermost.insert(f[0].demangled);
        m.first_shown.insert(f[trim].demangled);
        CHECK_FALSE(mt::sym::is_machinery(f[trim]));
        std::string path;
        for (size_t i = trim; i < f.size(); ++i)
            path += (f[i].csharp.empty() ? f[i].demangled.empty() ? f[i].function : f[i].demangled : f[i].csharp) + ";";
        shown[r[0]] = path;
    }
    for (const auto &r : query(m.db, "SELECT c.full_name, a.stack_id, coalesce(si.function || ' ' || si.file || ':' || si.line, ''), sum(a.count) "
                                     "FROM allocs a JOIN classes c USING (run_id, class_id) JOIN stacks st USING (run_id, stack_id) "
                                     "LEFT JOIN sites si ON si.site_id = st.site_id GROUP BY 1, 2, 3")) {
        m.by_site[{r[0], r[2]}] += std::stoll(r[3]);
        m.by_trimmed_stack[{r[0], shown.at(r[1])}] += std::stoll(r[3]);
    }
    return m;
}

}  // namespace

TEST_CASE("symbolizer: patch and no-patch runs of one workload give the same sites and stacks", "[sample-game]") {
    // The same seed allocates the same objects from the same code in both modes; only the
    // machinery differs: Object::Allocate*/Array::NewSpecific (patch) against Profiler::Allocation
    // (no-patch) as the innermost frame.
    mt::test::TempDir d;
    ModeRun patch = record_mode(d, "patch"), profiler = record_mode(d, "profiler");
    CHECK(profiler.innermost.count("il2cpp::vm::Profiler::Allocation(Il2CppObject*, Il2CppClass*)") == 1);
    CHECK(patch.innermost.count("il2cpp::vm::Profiler::Allocation(Il2CppObject*, Il2CppClass*)") == 0);
    CHECK(patch.innermost != profiler.innermost);
    // After the machinery: one first frame set, one set of stacks, one site per allocation.
    CHECK(patch.first_shown == profiler.first_shown);
    REQUIRE(patch.by_site.size() > 20);
    CHECK(patch.by_site == profiler.by_site);
    REQUIRE(patch.by_trimmed_stack.size() > 20);
    CHECK(patch.by_trimmed_stack == profiler.by_trimmed_stack);
}
#endif
