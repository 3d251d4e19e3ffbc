// Schema version 5 through the symbolizer: a stack's frames are written once per distinct shape;
// a second run of the same build, loaded elsewhere, writes its stacks rows and no frame rows, and
// the stack_frames view still gives each run its own raw addresses.
#include <catch2/catch.hpp>

#include "support.h"

using namespace mt::sym;
using mt::test::fixture;
using mt::test::query;
using mt::test::query1;

namespace {

std::string view_rows(const std::string &db, int64_t run) {
    std::string out;
    for (const auto &r : query(db, "SELECT stack_id, pos, address, coalesce(addr_id, 'NULL') FROM stack_frames WHERE run_id = " +
                                       std::to_string(run) + " ORDER BY stack_id, pos"))
        out += r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3] + "\n";
    return out;
}

}  // namespace

TEST_CASE("symbolizer: a second run of the build at another load address shares its shapes and writes no frame rows",
          "[cache][shapes]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    const auto &s = elf.slots;
    const uint64_t delta = 0x10000000;
    const uint64_t jit = 0x1234;  // outside every module
    std::vector<std::vector<uint64_t>> stacks = {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}, {jit, s[3]}};
    auto moved = stacks;
    for (auto &st : moved)
        for (auto &a : st)
            if (a != jit) a += delta;
    mt::test::TempDir d;
    mt::test::write_stack_run(d.file("a.mt"), elf, 1, stacks);
    mt::test::write_stack_run(d.file("b.mt"), elf, 2, moved, delta);
    Config cfg;
    cfg.elfs = {elf.path};
    std::string db = d.file("team.db");
    mt::test::ingest(db, {d.file("a.mt")}, cfg);
    const std::string shapes = query1(db, "SELECT count(*) FROM stack_shapes"), frames = query1(db, "SELECT count(*) FROM shape_frames");
    CHECK(shapes == "3");
    CHECK(frames == "8");
    mt::test::ingest(db, {d.file("b.mt")}, cfg);
    // The warm run found every shape: no shape or frame row written, one stacks row per stack.
    CHECK(query1(db, "SELECT count(*) FROM stack_shapes") == shapes);
    CHECK(query1(db, "SELECT count(*) FROM shape_frames") == frames);
    CHECK(query1(db, "SELECT count(*) FROM stacks WHERE run_id = 2") == "3");
    CHECK(query1(db, "SELECT count(DISTINCT shape_id) FROM stacks") == "3");
    CHECK(query1(db, "SELECT count(*) FROM run_biases") == "2");
    // Each run's raw addresses as recorded, the same cache rows.
    auto expected = [&](const std::vector<std::vector<uint64_t>> &st, int64_t run) {
        std::string out;
        auto ids = query(db, "SELECT coalesce(addr_id, 'NULL') FROM stack_frames WHERE run_id = " + std::to_string(run) +
                                 " ORDER BY stack_id, pos");
        size_t k = 0;
        for (size_t i = 0; i < st.size(); ++i)
            for (size_t p = 0; p < st[i].size(); ++p)
                out += std::to_string(i) + "|" + std::to_string(p) + "|" + std::to_string(static_cast<int64_t>(st[i][p])) + "|" +
                       (k < ids.size() ? ids[k++][0] : "?") + "\n";
        return out;
    };
    CHECK(view_rows(db, 1) == expected(stacks, 1));
    CHECK(view_rows(db, 2) == expected(moved, 2));
    CHECK(query1(db, "SELECT group_concat(addr_id) FROM (SELECT addr_id FROM stack_frames WHERE run_id = 1 ORDER BY stack_id, pos)") ==
          query1(db, "SELECT group_concat(addr_id) FROM (SELECT addr_id FROM stack_frames WHERE run_id = 2 ORDER BY stack_id, pos)"));
    CHECK(query1(db, "SELECT addr_id IS NULL FROM stack_frames WHERE run_id = 2 AND stack_id = 2 AND pos = 0") == "1");
    // The sites and machinery are the same for both runs' stacks.
    CHECK(query1(db, "SELECT count(*) FROM stacks a JOIN stacks b ON b.run_id = 2 AND b.stack_id = a.stack_id "
                     "WHERE a.run_id = 1 AND a.site_id IS b.site_id AND a.machinery = b.machinery AND a.depth = b.depth") == "3");
}
