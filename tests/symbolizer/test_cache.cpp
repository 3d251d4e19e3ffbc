// The per-build cache: a second run of the same build sends no known address to the backend
// (counted), appends to the same database, and a better symbol file later re-symbolizes.
#include <catch2/catch.hpp>

#include "support.h"

using namespace mt::sym;
using mt::test::fixture;
using mt::test::query;
using mt::test::query1;

namespace {

void write_run(const std::string &path, const mt::test::LoadedElf &elf, uint64_t start_ns, const std::vector<std::vector<uint64_t>> &stacks) {
    mt::test::RunWriter w(path, MT_ARCH_X86_64, 0, start_ns);
    mt::test::add_elf_module(w, 0, elf);
    w.thread(0, 1, "main");
    w.klass(0, "Node", "Game");
    std::vector<mt::rt::EventRecord> ev;
    for (uint32_t i = 0; i < stacks.size(); ++i) {
        w.stack(i, stacks[i]);
        ev.push_back({0, 1001 + i, 0, i, 16, 16, 0x1000 + 16u * i});
    }
    w.frame(0, ev);
    w.end();
    w.flush();
}

std::unique_ptr<Backend> counting(uint64_t *calls, uint64_t *addrs) {
    return std::make_unique<mt::test::CountingBackend>(make_backend({BackendKind::Builtin, 2, "", ""}), calls, addrs);
}

}  // namespace

TEST_CASE("symbolizer: Second run of the same build: no backend call for known addresses", "[cache]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    const auto &s = elf.slots;
    mt::test::TempDir d;
    write_run(d.file("a.mt"), elf, 1, {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}});
    write_run(d.file("b.mt"), elf, 2, {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}});           // same addresses
    write_run(d.file("c.mt"), elf, 3, {{s[0], s[2], s[6], s[7]}, {s[3], s[6]}, {s[5]}});  // two new ones
    Config cfg;
    cfg.elfs = {elf.path};
    std::string db = d.file("team.db");

    uint64_t calls = 0, addrs = 0;
    auto a = mt::test::ingest(db, {d.file("a.mt")}, cfg, counting(&calls, &addrs));
    CHECK(calls == 1);
    CHECK(addrs == 5);
    CHECK(a.results[0].symbols.sent_to_backend == 5);
    CHECK(a.results[0].symbols.cache_hits == 0);
    std::string symbols_after_a = query1(db, "SELECT group_concat(addr_id || depth || function || line, '|') FROM symbols");

    calls = addrs = 0;
    auto b = mt::test::ingest(db, {d.file("b.mt")}, cfg, counting(&calls, &addrs));
    CHECK(calls == 0);  // nothing reached the backend
    CHECK(addrs == 0);
    CHECK(b.results[0].symbols.cache_hits == 5);
    CHECK(b.results[0].symbols.sent_to_backend == 0);

    calls = addrs = 0;
    auto c = mt::test::ingest(db, {d.file("c.mt")}, cfg, counting(&calls, &addrs));
    CHECK(calls == 1);
    CHECK(addrs == 2);  // s[3] and s[5] only
    CHECK(c.results[0].symbols.cache_hits == 4);

    // Three runs in one database, sharing one set of addresses and symbols.
    CHECK(query1(db, "SELECT count(*) FROM runs") == "3");
    CHECK(query1(db, "SELECT count(*) FROM addresses") == "7");
    CHECK(query1(db, "SELECT group_concat(addr_id || depth || function || line, '|') FROM symbols WHERE addr_id IN "
                     "(SELECT addr_id FROM stack_frames WHERE run_id = 1)") == symbols_after_a);
    // Every run's stacks resolve to the same sites.
    CHECK(query1(db, "SELECT count(DISTINCT site_id) FROM stacks WHERE stack_id = 0") == "1");
    // The cache key is the build id and the module's file name, so a reinstall elsewhere hits.
    CHECK(query1(db, "SELECT DISTINCT module_path FROM addresses") == "libfixture_clang.so");
}

TEST_CASE("symbolizer: A better symbol file re-symbolizes what a symbol table answered", "[cache][quality]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_gcc.so"));
    const auto &s = elf.slots;
    mt::test::TempDir d;
    write_run(d.file("a.mt"), elf, 1, {{s[0], s[2]}});
    write_run(d.file("b.mt"), elf, 2, {{s[0], s[2]}});
    std::string db = d.file("run.db");
    Config stripped;
    stripped.elfs = {fixture("stripped/libfixture_gcc.so")};
    auto a = mt::test::ingest(db, {d.file("a.mt")}, stripped);
    CHECK(query1(db, "SELECT group_concat(quality) FROM addresses") == "1,1");
    CHECK(query1(db, "SELECT count(*) FROM symbols WHERE file != ''") == "0");
    CHECK(query1(db, "SELECT count(*) FROM symbols") == "2");

    uint64_t calls = 0, addrs = 0;
    Config full;
    full.elfs = {elf.path};
    auto b = mt::test::ingest(db, {d.file("b.mt")}, full, counting(&calls, &addrs));
    CHECK(addrs == 2);
    CHECK(query1(db, "SELECT group_concat(quality) FROM addresses") == "2,2");
    CHECK(query1(db, "SELECT count(*) FROM symbols") == "4");  // 3-deep inline chain + 1, old rows replaced
    CHECK(query1(db, "SELECT count(*) FROM symbols WHERE file = ''") == "0");
    // The first run's stacks now read the better symbols too: they share the addresses.
    CHECK(query1(db, "SELECT count(*) FROM stack_frames f JOIN symbols s USING(addr_id) WHERE f.run_id = 1") == "4");
}

#include "address_cache.h"
#include "schema.h"

TEST_CASE("symbolizer: the cache loads a build's rows whether its ids are dense or interleaved with other builds", "[cache][partition]") {
    mt::test::TempDir d;
    auto odb = open_database(d.file("cache.db"));
    // Three "runs": build A gets a few addresses each time, build B thousands, so A's ids end up
    // spread over a range far larger than A itself.
    for (int run = 0; run < 3; ++run) {
        Transaction tx(odb.db);
        AddressCache cache(odb.db);
        auto &a = cache.partition("aaaa", "libA.so");
        auto &b = cache.partition("bbbb", "libB.so");
        for (uint64_t i = 0; i < 10; ++i) {
            auto [row, first] = cache.intern(a, 0x1000 * (run + 1) + i);
            if (i % 2 == 0) cache.mark_symbolized(a, row, Quality::DebugInfo);
        }
        for (uint64_t i = 0; i < 3000; ++i) cache.intern(b, 0x100000 * (run + 1) + i);
        cache.assign_ids();
        cache.flush();
        tx.commit();
    }
    Transaction tx(odb.db);
    AddressCache cache(odb.db);
    auto &a = cache.partition("aaaa", "libA.so");
    REQUIRE(a.rows.size() == 30);
    size_t symbolized = 0;
    for (const auto &row : a.rows) {
        if (row.symbolized) {
            ++symbolized;
            CHECK(row.quality == Quality::DebugInfo);
            CHECK(row.file_address % 2 == 0);
        } else {
            CHECK(row.quality == Quality::None);
        }
    }
    CHECK(symbolized == 15);
    auto &b = cache.partition("bbbb", "libB.so");
    CHECK(b.rows.size() == 9000);
    // Interning a known address gives its row back; a new one a new row.
    CHECK(cache.intern(a, 0x2003).first < 30);
    CHECK(cache.intern(a, 0x9999).first == 30);
}
