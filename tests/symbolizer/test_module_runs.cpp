// Which module a frame is in (issue 22, twelfth session): RunIngest::resolve_addresses lets the
// previous frame's module answer the next frame without a search, but only for a module no other
// module overlaps (AddressMap::alone). A run whose modules overlap (an image unloaded and another
// loaded over part of its range: the later one wins) must still put every frame in the module
// AddressMap::find names, in stacks that go back and forth between the modules.
#include <catch2/catch.hpp>

#include "address_map.h"
#include "support.h"

using namespace mt::sym;
using mt::test::query;

namespace {

mt::reader::Module module(uint32_t id, const std::string &path, uint64_t load, uint64_t size) {
    mt::reader::Module m;
    m.id = id;
    m.path = path;
    m.load_address = load;
    m.size = size;
    m.bias = load - 0x1000;
    return m;
}

}  // namespace

TEST_CASE("symbolizer: AddressMap::alone is true exactly for a module no other overlaps", "[cache][modules]") {
    AddressMap map;
    map.add(module(0, "/a/libA.so", 0x10000, 0x10000));  // [0x10000, 0x20000), overlapped by B
    map.add(module(1, "/a/libB.so", 0x18000, 0x18000));  // [0x18000, 0x30000)
    map.add(module(2, "/a/libC.so", 0x40000, 0x10000));  // alone
    map.add(module(3, "/a/libD.so", 0x50000, 0x1000));   // adjacent to C, alone
    map.add(module(4, "/a/libE.so", 0x60000, 0x1000));   // the same range as F
    map.add(module(5, "/a/libF.so", 0x60000, 0x1000));
    CHECK_FALSE(map.alone(0));
    CHECK_FALSE(map.alone(1));
    CHECK(map.alone(2));
    CHECK(map.alone(3));
    CHECK_FALSE(map.alone(4));
    CHECK_FALSE(map.alone(5));
    CHECK_FALSE(map.alone(-1));
    CHECK_FALSE(map.alone(6));
    CHECK(map.find(0x19000) == 1);  // the later module wins in the overlap
    CHECK(map.find(0x60010) == 5);
    // A size past the top of the address space reaches the top: it overlaps every module above it,
    // so neither answers for the other without find() (whatever find() makes of such a table).
    AddressMap wrapped;
    wrapped.add(module(0, "/a/libH.so", 0x7000000000, 0x100000));
    wrapped.add(module(1, "/a/libHuge.so", 0x1000, UINT64_MAX - 0x10));
    CHECK_FALSE(wrapped.alone(0));
    CHECK_FALSE(wrapped.alone(1));
    // A module added later that overlaps C makes C no longer alone.
    map.add(module(6, "/a/libG.so", 0x4f000, 0x800));
    CHECK_FALSE(map.alone(2));
    CHECK(map.alone(3));
}

TEST_CASE("symbolizer: frames alternating between overlapping modules are each put in the module find() names",
          "[cache][modules]") {
    mt::test::TempDir d;
    const std::string run = d.file("run.mt");
    // A [0x10000, 0x20000) and B [0x18000, 0x30000) overlap (B, recorded later, wins there); C is
    // alone. No symbol files: the frames' cache rows name their module and file address.
    std::vector<mt::reader::Module> mods = {module(0, "/a/libA.so", 0x10000, 0x10000), module(1, "/a/libB.so", 0x18000, 0x18000),
                                            module(2, "/a/libC.so", 0x40000, 0x10000)};
    const std::vector<std::vector<uint64_t>> stacks = {
        {0x41000, 0x42000, 0x19000, 0x12000, 0x13000, 0x19500, 0x25000, 0x41000},
        {0x12000, 0x19000, 0x12004, 0x43000, 0x43004, 0x1f000, 0x9000},
        {0x19000, 0x19004, 0x41000},
    };
    {
        mt::test::RunWriter w(run);
        for (const auto &m : mods) w.module(m.id, MT_MODULE_ELF, m.path, m.load_address, m.size, m.bias, 0, {0xab, static_cast<uint8_t>(m.id)});
        w.thread(0, 1, "main");
        w.klass(0, "Node", "Game");
        for (uint32_t i = 0; i < stacks.size(); ++i) w.stack(i, stacks[i]);
        w.frame(0, {{0, 1000, 0, 0, 16, 16, 0x1000}});
        w.end();
        w.flush();
    }
    AddressMap map;
    for (const auto &m : mods) map.add(m);
    std::string expected;
    for (size_t i = 0; i < stacks.size(); ++i)
        for (size_t p = 0; p < stacks[i].size(); ++p) {
            int idx = map.find(stacks[i][p]);
            expected += std::to_string(i) + "|" + std::to_string(p) + "|" +
                        (idx < 0 ? "NULL|NULL" : mods[static_cast<size_t>(idx)].path.substr(3) + "|" +
                                                     std::to_string(stacks[i][p] - mods[static_cast<size_t>(idx)].bias)) +
                        "\n";
        }
    const std::string db = d.file("run.db");
    mt::test::ingest(db, {run}, Config{});
    std::string got;
    for (const auto &r : query(db, "SELECT f.stack_id, f.pos, coalesce(a.module_path, 'NULL'), coalesce(a.file_address, 'NULL') "
                                   "FROM stack_frames f LEFT JOIN addresses a USING (addr_id) ORDER BY f.stack_id, f.pos"))
        got += r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3] + "\n";
    CHECK(got == expected);
    CHECK(expected.find("libB.so|") != std::string::npos);  // the overlap is exercised
}
