// The sample game recorded with --lifetimes (real Boehm GC, the runtime's death scan) through the
// tool: deaths, survivors and frames.live_bytes must add up against the allocations the same
// database holds — survivors = allocations − deaths per (class, stack), and each frame's
// live_bytes = GC bytes allocated up to it − GC bytes that died up to it.
#include <catch2/catch.hpp>

#ifdef MT_SAMPLE_GAME_EXE
#include <cstdlib>

#include "support.h"

using mt::test::query;
using mt::test::query1;

TEST_CASE("symbolizer: Sample game lifetimes: deaths, survivors and live bytes add up", "[sample-game][lifetimes]") {
    mt::test::TempDir d;
    std::string cmd = std::string(MT_SAMPLE_GAME_EXE) + " --frames 60 --lifetimes --gc-events --quiet --out " +
                      d.file("run.mt") + " > " + d.file("game.log") + " 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--symbols", MT_SAMPLE_GAME_LIBDIR, "--elf", MT_SAMPLE_GAME_EXE, "--no-progress"}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    std::string db = d.file("run.db");
    CHECK(query1(db, "SELECT has_lifetimes FROM runs") == "1");
    REQUIRE(std::stoll(query1(db, "SELECT count(*) FROM deaths")) > 0);

    // Per (class, stack): allocated − died = surviving, for every pair that has survivors or deaths.
    auto mismatches = query(db,
        "WITH died AS (SELECT class_id, sum(count) AS n, sum(gc_bytes) AS b FROM deaths GROUP BY class_id), "
        "alloc AS (SELECT class_id, sum(count) AS n, sum(gc_bytes) AS b FROM run_class_stack GROUP BY class_id), "
        "surv AS (SELECT class_id, sum(count) AS n, sum(gc_bytes) AS b FROM survivors GROUP BY class_id) "
        "SELECT a.class_id, a.n, ifnull(d.n, 0), ifnull(s.n, 0) FROM alloc a LEFT JOIN died d USING(class_id) "
        "LEFT JOIN surv s USING(class_id) WHERE a.n - ifnull(d.n, 0) != ifnull(s.n, 0) OR a.b - ifnull(d.b, 0) != ifnull(s.b, 0)");
    INFO("class, allocated, died, surviving: " << (mismatches.empty() ? "" : mismatches[0][0] + " " + mismatches[0][1] + " " +
                                                   mismatches[0][2] + " " + mismatches[0][3]));
    CHECK(mismatches.empty());

    // Each frame's live bytes: running totals of allocated and died GC bytes.
    auto frames = query(db,
        "SELECT f.seq, f.live_bytes, "
        "(SELECT ifnull(sum(a.gc_bytes), 0) FROM allocs a WHERE a.run_id = f.run_id AND a.seq <= f.seq) - "
        "(SELECT ifnull(sum(x.gc_bytes), 0) FROM deaths x WHERE x.run_id = f.run_id AND x.seq <= f.seq) "
        "FROM frames f ORDER BY f.seq");
    REQUIRE(frames.size() == 61);
    for (const auto &row : frames) {
        INFO("frame " << row[0]);
        CHECK(row[1] == row[2]);
    }
}
#endif
