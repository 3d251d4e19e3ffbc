// The issue-11 scenarios end to end: the sample game records, memtracer-symbolize ingests,
// memtracer-report answers. A deliberate leak (--leak-from) must be ranked first by `leaks`
// without being told where it is; a run with 20% more work per frame (--alloc-scale 1.2) must
// fail the gate, naming classes and sites that grew; the same run twice must pass it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "process.h"
#include "tree.h"

namespace fs = std::filesystem;
using mt::test::run_process;

namespace {

const std::string kGame = MEMTRACER_SAMPLE_GAME, kSym = MEMTRACER_SYMBOLIZE, kReport = MEMTRACER_REPORT;

// Records and symbolizes a run of 60 frames; returns the database path. Fewer frames than the
// runtime's frame-end queue holds (64): a writer that falls behind on a loaded machine then
// never merges frames (docs/runtime.md, MT_FRAME_MERGED), so frame numbers and per-frame
// figures are the same in every run. With 200 frames, one CI run in about twenty merged
// 200 game frames into 65 and the "same run twice" gate saw -68% bytes per frame.
std::string record(const fs::path &dir, const std::string &name, const std::string &args) {
    std::string mt = (dir / (name + ".mt")).string(), db = (dir / (name + ".db")).string();
    auto g = run_process({"sh", "-c", kGame + " --frames 60 --seed 5 --quiet --ring-bytes 16777216 --block-when-full " +
                                          args + " --out " + mt});
    INFO(g.output);
    REQUIRE(g.exit_code == 0);
    auto s = run_process({kSym, mt, "--symbols", MEMTRACER_LIBDIR, "--elf", kGame, "--no-progress", "-o", db});
    INFO(s.output);
    REQUIRE(s.exit_code == 0);
    return db;
}

// The report's stdout (notes on stderr dropped) as CSV lines.
struct Csv {
    int exit_code;
    std::vector<std::vector<std::string>> rows;  // header first
};
Csv report(const std::string &args) {
    auto r = run_process({"sh", "-c", kReport + " " + args + " --format csv 2>/dev/null"});
    Csv c{r.exit_code, {}};
    std::istringstream in(r.output);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (size_t i = 0; i < line.size(); ++i) {
            char ch = line[i];
            if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') cell += line[++i];
            else if (ch == '"') quoted = !quoted;
            else if (ch == ',' && !quoted) cells.push_back(std::exchange(cell, ""));
            else cell += ch;
        }
        cells.push_back(cell);
        c.rows.push_back(cells);
    }
    return c;
}

bool over(const Csv &c, const std::string &name_prefix) {
    for (size_t i = 1; i < c.rows.size(); ++i)
        if (c.rows[i][0].rfind(name_prefix, 0) == 0 && c.rows[i].back() == "OVER") return true;
    return false;
}

}  // namespace

TEST_CASE("e2e: memtracer-report leaks ranks the deliberate leak first, by site and by class", "[e2e][report]") {
    fs::path dir = mt::test::make_temp_dir("report-leak");
    std::string db = record(dir, "leak", "--lifetimes --gc-events --leak-from 20");
    Csv by_site = report("leaks " + db + " --by site");
    REQUIRE(by_site.exit_code == 0);
    REQUIRE(by_site.rows.size() >= 2);
    CHECK(by_site.rows[0][1] == "site");
    CHECK(by_site.rows[1][1].rfind("LeakyCache.Remember (", 0) == 0);
    CHECK(by_site.rows[1][3] == "40");  // one Single[1024] a frame, frames 20..59, none died
    CHECK(by_site.rows[1][6] == "20");  // oldest_seq
    Csv by_class = report("leaks " + db);
    REQUIRE(by_class.rows.size() >= 2);
    CHECK(by_class.rows[1][1] == "System.Single[]");
    // And the same run without the leak: that site is not there at all.
    std::string plain = record(dir, "plain", "--lifetimes --gc-events");
    Csv none = report("leaks " + plain + " --by site --limit 1000");
    for (const auto &r : none.rows) CHECK(r[1].rfind("LeakyCache", 0) != 0);
    fs::remove_all(dir);
}

TEST_CASE("e2e: memtracer-report gate fails on 20% more allocations per frame and names what grew", "[e2e][report]") {
    fs::path dir = mt::test::make_temp_dir("report-gate");
    std::string base = record(dir, "base", ""), again = record(dir, "again", ""),
                more = record(dir, "more", "--alloc-scale 1.2");
    const std::string limits = " --max-growth 'bytes_per_frame=5%,allocs_per_frame=10%'";
    Csv same = report("gate " + base + " " + again + limits);
    CHECK(same.exit_code == 0);  // deterministic game: the same seed allocates the same
    REQUIRE(same.rows.size() == 3);  // header and the two totals: nothing grew
    CHECK(same.rows[1][4] == "0");

    Csv by_class = report("gate " + base + " " + more + limits);
    CHECK(by_class.exit_code == 1);
    REQUIRE(by_class.rows.size() > 3);
    CHECK(by_class.rows[1][0] == "(total)");
    CHECK(by_class.rows[1][6] == "OVER");
    double growth = std::stod(by_class.rows[1][4]);
    // 1.2 x the ticks: frames 0..59 run ticks 0..71. The 12 extra ticks come from later in the
    // level, where a tick allocates more than the first 60 do on average, so the total grows
    // more than 20% per frame (41.5% with this seed, the same every run).
    CHECK(growth > 15);
    CHECK(growth < 60);
    CHECK(over(by_class, "System.String"));
    CHECK(over(by_class, "PathNode[]"));
    Csv by_site = report("gate " + base + " " + more + limits + " --by site");
    CHECK(by_site.exit_code == 1);
    CHECK(over(by_site, "Pathfinder.Expand ("));
    CHECK(over(by_site, "StatsJob.Accumulate ("));
    fs::remove_all(dir);
}

TEST_CASE("e2e: memtracer-report compare and gate match sites across patch and no-patch runs", "[e2e][report]") {
    // One workload recorded both ways MemTracer gets allocations: the innermost frames differ
    // (Object::Allocate* against Profiler::Allocation), the sites must not.
    fs::path dir = mt::test::make_temp_dir("report-modes");
    std::string patch = record(dir, "patch", "--hook patch"), profiler = record(dir, "profiler", "--hook profiler");
    Csv cmp = report("compare " + patch + " " + profiler + " --by site --limit 1000");
    REQUIRE(cmp.exit_code == 0);
    REQUIRE(cmp.rows.size() > 10);
    REQUIRE(cmp.rows[0].size() >= 6);
    CHECK(cmp.rows[0][1] == "status");
    for (size_t i = 1; i < cmp.rows.size(); ++i) {
        const auto &r = cmp.rows[i];
        INFO(r[0]);
        CHECK(r[1].empty());  // neither new nor vanished
        CHECK(r[2] == r[3]);  // counts
        CHECK(r[4] == r[5]);  // bytes
    }
    Csv gate = report("gate " + patch + " " + profiler + " --by site --max-growth 'bytes_per_frame=0.1%,allocs_per_frame=0.1%'");
    CHECK(gate.exit_code == 0);
    CHECK(gate.rows.size() == 3);  // header and the two totals: no site grew, none is new
    fs::remove_all(dir);
}
