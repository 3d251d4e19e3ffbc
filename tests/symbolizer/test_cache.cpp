// The per-build cache: a second run of the same build sends no known address to the backend
// (counted), appends to the same database, and a better symbol file later re-symbolizes.
#include <filesystem>

#include <llvm/Object/ObjectFile.h>

#include <catch2/catch.hpp>

#include "memtracer/store/db.h"
#include "sites.h"
#include "support.h"

using namespace mt::sym;
using mt::test::fixture;
using mt::test::query;
using mt::test::query1;

namespace {

std::unique_ptr<Backend> counting(uint64_t *calls, uint64_t *addrs) {
    return std::make_unique<mt::test::CountingBackend>(make_backend({BackendKind::Builtin, 2, "", ""}), calls, addrs);
}

}  // namespace

TEST_CASE("symbolizer: Second run of the same build: no backend call for known addresses", "[cache]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    const auto &s = elf.slots;
    mt::test::TempDir d;
    mt::test::write_stack_run(d.file("a.mt"), elf, 1, {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}});
    mt::test::write_stack_run(d.file("b.mt"), elf, 2, {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}});           // same addresses
    mt::test::write_stack_run(d.file("c.mt"), elf, 3, {{s[0], s[2], s[6], s[7]}, {s[3], s[6]}, {s[5]}});  // two new ones
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
    mt::test::write_stack_run(d.file("a.mt"), elf, 1, {{s[0], s[2]}});
    mt::test::write_stack_run(d.file("b.mt"), elf, 2, {{s[0], s[2]}});
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
    // The stored site summaries (schema version 4) of the symbol table's answers were forgotten
    // with them: run b's site is the one the better file gives in a database of its own.
    std::string fresh = d.file("fresh.db");
    mt::test::ingest(fresh, {d.file("b.mt")}, full);
    const char *site = "SELECT group_concat(t.function || ':' || t.line, '|') FROM stacks s JOIN sites t USING(site_id) WHERE s.run_id = ";
    CHECK(query1(db, std::string(site) + "2") == query1(fresh, std::string(site) + "1"));
    CHECK(query1(db, "SELECT count(*) FROM address_sites") == query1(fresh, "SELECT count(*) FROM address_sites"));
}

namespace {
// Each stack's site (its function, file and line) and leading machinery, in stack order.
std::string stack_sites(const std::string &db, int run) {
    return query1(db, "SELECT group_concat(s.stack_id || ':' || s.machinery || ':' || coalesce(t.function || '@' || t.file || "
                      "':' || t.line, 'none'), '|') FROM stacks s LEFT JOIN sites t USING(site_id) WHERE s.run_id = " +
                          std::to_string(run));
}

void exec(const std::string &db, const std::string &sql) { mt::store::Db::open(db, false).exec(sql); }
}  // namespace

// Schema version 4: each summarized address keeps the site choice's summary beside its chain, so
// the next ingest of the same build picks its stacks' sites without reading a chain back.
TEST_CASE("symbolizer: a warm run picks its stacks' sites from the stored summaries, reading no chain", "[cache][sites]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    const auto &s = elf.slots;
    mt::test::TempDir d;
    const std::vector<std::vector<uint64_t>> stacks = {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}, {s[3], s[6]}, {s[5]}};
    mt::test::write_stack_run(d.file("a.mt"), elf, 1, stacks);
    mt::test::write_stack_run(d.file("b.mt"), elf, 2, stacks);
    Config cfg;
    cfg.elfs = {elf.path};
    std::string db = d.file("team.db");
    mt::test::ingest(db, {d.file("a.mt")}, cfg);
    std::string cold = stack_sites(db, 1);
    CHECK(cold.find("none") == std::string::npos);
    // Every stack's first address was summarized; a picked site is stored by its id.
    CHECK(query1(db, "SELECT count(*) FROM address_sites") != "0");
    CHECK(query1(db, "SELECT count(*) FROM stacks s JOIN stack_frames f USING(run_id, stack_id) JOIN address_rows r "
                     "USING(addr_id) WHERE f.pos = 0 AND r.addr_id NOT IN (SELECT addr_id FROM address_sites)") == "0");
    CHECK(query1(db, "SELECT count(*) FROM stacks s WHERE site_id NOT IN (SELECT own_site FROM address_sites UNION "
                     "SELECT any_site FROM address_sites UNION SELECT runtime_site FROM address_sites)") == "0");
    CHECK(query1(db, "SELECT value FROM meta WHERE key = 'site_rules'") == site_rules_fingerprint());

    // Without its chains, the warm run still gives every stack the same site and machinery: it
    // read the summaries, not the chains (reading the empty chains would name no function).
    exec(db, "DELETE FROM symbol_frames");
    auto b = mt::test::ingest(db, {d.file("b.mt")}, cfg);
    CHECK(b.results[0].symbols.sent_to_backend == 0);
    CHECK(stack_sites(db, 2) == cold);
}

// Summaries stored under other site rules (an older or newer build's: meta.site_rules differs)
// are forgotten, not trusted: the chains are read and summarized again.
TEST_CASE("symbolizer: stored site summaries of other site rules are forgotten", "[cache][sites]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    const auto &s = elf.slots;
    mt::test::TempDir d;
    mt::test::write_stack_run(d.file("a.mt"), elf, 1, {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}});
    mt::test::write_stack_run(d.file("b.mt"), elf, 2, {{s[0], s[2], s[6], s[7]}, {s[1], s[2]}});
    Config cfg;
    cfg.elfs = {elf.path};
    std::string db = d.file("team.db");
    mt::test::ingest(db, {d.file("a.mt")}, cfg);
    std::string cold = stack_sites(db, 1);
    // Another build's summaries: every address says "its site is the last site" and nothing else.
    exec(db, "UPDATE meta SET value = 'other rules' WHERE key = 'site_rules'; INSERT INTO sites(function) VALUES ('Wrong'); "
             "UPDATE address_sites SET facts = 2, own_site = (SELECT max(site_id) FROM sites), any_site = 0, "
             "runtime_site = 0, runtime_any_site = 0");
    mt::test::ingest(db, {d.file("b.mt")}, cfg);
    CHECK(stack_sites(db, 2) == cold);
    CHECK(query1(db, "SELECT value FROM meta WHERE key = 'site_rules'") == site_rules_fingerprint());
    CHECK(query1(db, "SELECT count(*) FROM address_sites WHERE own_site = (SELECT site_id FROM sites WHERE function = 'Wrong')") == "0");
}

#include "address_cache.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"

TEST_CASE("symbolizer: the cache loads a build's rows whether its ids are dense or interleaved with other builds", "[cache][partition]") {
    mt::test::TempDir d;
    auto odb = mt::store::open_database(d.file("cache.db"));
    // Three "runs": build A gets a few addresses each time, build B thousands, so A's ids end up
    // spread over a range far larger than A itself.
    for (int run = 0; run < 3; ++run) {
        mt::store::Transaction tx(odb.db);
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
    mt::store::Transaction tx(odb.db);
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

namespace {

// Runtime addresses inside each function of libsplit.so (4 functions, 2 per compile unit).
std::map<std::string, uint64_t> split_addresses(const std::string &lib, uint64_t bias) {
    auto bin = llvm::object::ObjectFile::createObjectFile(lib);
    if (!bin) throw std::runtime_error(llvm::toString(bin.takeError()));
    std::map<std::string, uint64_t> out;
    for (const auto &sym : bin->getBinary()->symbols()) {
        auto name = sym.getName();
        auto addr = sym.getAddress();
        if (!name || !addr) {
            llvm::consumeError(name.takeError());
            llvm::consumeError(addr.takeError());
            continue;
        }
        auto type = sym.getType();
        if (!type) {
            llvm::consumeError(type.takeError());
            continue;
        }
        if (*type == llvm::object::SymbolRef::ST_Function && name->starts_with("split_")) out[name->str()] = *addr + 6 + bias;  // looked up at +5: inside the body
    }
    return out;
}

void write_split_run(const std::string &path, uint64_t start_ns, const std::map<std::string, uint64_t> &addrs, uint64_t load) {
    mt::test::RunWriter w(path, MT_ARCH_X86_64, 0, start_ns);
    w.module(0, MT_MODULE_ELF, "/data/app/com.game/lib/x86_64/libsplit.so", load, 0x10000, load, 0,
             mt::test::elf_build_id(fixture("split/full/libsplit.so")));
    w.thread(0, 1, "main");
    w.klass(0, "Node", "Game");
    uint32_t id = 0;
    std::vector<mt::trace::EventRecord> ev;
    for (const auto &[name, a] : addrs) {
        w.stack(id, {a});
        ev.push_back({0, 1001 + id, 0, id, 16, 16, 0x1000 + 16u * id});
        ++id;
    }
    w.frame(0, ev);
    w.end();
    w.flush();
}

// function -> (quality, file of the outermost frame) for every address of the database.
std::map<std::string, std::pair<std::string, std::string>> answers(const std::string &db) {
    std::map<std::string, std::pair<std::string, std::string>> out;
    for (const auto &r : query(db, "SELECT s.function, a.quality, s.file FROM addresses a JOIN symbols s USING(addr_id) "
                                   "WHERE s.depth = (SELECT max(depth) FROM symbols WHERE addr_id = a.addr_id)"))
        out[r[0]] = {r[1], mt::test::basename(r[2])};
    return out;
}

}  // namespace

TEST_CASE("symbolizer: quality is per answer - a debug file missing a compile unit is upgraded by the complete one",
          "[cache][quality][upgrade]") {
    const std::string partial = fixture("split/partial/libsplit.so"), full = fixture("split/full/libsplit.so");
    REQUIRE(mt::test::elf_build_id(partial) == mt::test::elf_build_id(full));  // the same build
    const uint64_t load = 0x7f3a00000000;
    auto addrs = split_addresses(full, load);
    REQUIRE(addrs.size() == 4);
    REQUIRE(split_addresses(partial, load) == addrs);  // -g changed no code
    mt::test::TempDir d;
    for (int i = 1; i <= 5; ++i) write_split_run(d.file("r" + std::to_string(i) + ".mt"), i, addrs, load);
    std::string db = d.file("run.db");
    using Answer = std::pair<std::string, std::string>;

    // The file missing split_b.c's debug info: split_a.c answers from DWARF, split_b.c from the
    // symbol table, and each address says so.
    uint64_t calls = 0, sent = 0;
    Config cfg;
    cfg.elfs = {partial};
    auto r1 = mt::test::ingest(db, {d.file("r1.mt")}, cfg, counting(&calls, &sent));
    CHECK(sent == 4);
    auto a1 = answers(db);
    CHECK(a1["split_a_leaf"] == Answer{"2", "split_a.c"});
    CHECK(a1["split_a_entry"] == Answer{"2", "split_a.c"});
    CHECK(a1["split_b_leaf"] == Answer{"1", ""});
    CHECK(a1["split_b_middle"] == Answer{"1", ""});
    // ... and a warning names the module and how many addresses had no debug info.
    bool warned = false;
    for (const auto &w : r1.warnings) warned |= w.find("2 of 4 addresses") != std::string::npos && w.find(partial) != std::string::npos;
    CHECK(warned);

    // The same incomplete file again: nothing to redo.
    calls = sent = 0;
    mt::test::ingest(db, {d.file("r2.mt")}, cfg, counting(&calls, &sent));
    CHECK(calls == 0);

    // The complete file of the same build: only split_b.c's two answers are redone, and upgraded.
    calls = sent = 0;
    cfg.elfs = {full};
    auto r3 = mt::test::ingest(db, {d.file("r3.mt")}, cfg, counting(&calls, &sent));
    CHECK(sent == 2);
    CHECK(r3.results[0].symbols.cache_hits == 2);
    auto a3 = answers(db);
    CHECK(a3["split_b_leaf"] == Answer{"2", "split_b.c"});
    CHECK(a3["split_b_middle"] == Answer{"2", "split_b.c"});
    CHECK(a3["split_a_leaf"] == a1["split_a_leaf"]);
    // Run 1's stacks read the upgraded answers too: they share the addresses.
    CHECK(query1(db, "SELECT count(*) FROM stack_frames f JOIN symbols s USING(addr_id) WHERE f.run_id = 1 AND s.file = ''") == "0");

    // The incomplete file once more never downgrades what the complete one answered.
    calls = sent = 0;
    cfg.elfs = {partial};
    mt::test::ingest(db, {d.file("r4.mt")}, cfg, counting(&calls, &sent));
    CHECK(calls == 0);
    CHECK(answers(db) == a3);

    // --resymbolize redoes every address the run uses.
    calls = sent = 0;
    cfg.elfs = {full};
    cfg.resymbolize = true;
    mt::test::ingest(db, {d.file("r5.mt")}, cfg, counting(&calls, &sent));
    CHECK(sent == 4);
    CHECK(answers(db) == a3);
}

#include "object_info.h"
#include "symbol_locator.h"

// Issue 22, eighth session: the symbol file is hashed only when an answer needs its fingerprint
// (a cached answer weaker than the file's, or a new answer to record), not for every ingest: a
// warm run of a 54 MB library read and hashed it each time. Fails if find() hashes the file.
TEST_CASE("symbolizer: the symbol file is hashed only when a cached answer needs the fingerprint", "[cache][quality]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    mt::test::TempDir d;
    std::filesystem::copy_file(elf.path, d.file("lib.so"));
    SymbolLocator loc([](const std::string &) {});
    loc.add_elf(d.file("lib.so"));
    mt::reader::Module m;
    m.kind = MT_MODULE_ELF;
    m.path = "/data/app/lib.so";
    m.build_id = elf.build_id;
    auto f = loc.find(m, MT_ARCH_X86_64, false);
    REQUIRE(f);
    REQUIRE(f->slice.quality() == Quality::DebugInfo);
    CHECK_FALSE(f->fingerprint.computed());  // choosing the file does not read it whole

    CachedAddress strong;  // answered from debug info: kept, whatever file this is
    strong.symbolized = true;
    strong.quality = Quality::DebugInfo;
    strong.answered_by = 12345;
    CHECK_FALSE(needs_symbolizing(strong, Quality::DebugInfo, f->fingerprint, false));
    CachedAddress fresh;  // never answered: goes to the backend without asking which file
    CHECK(needs_symbolizing(fresh, Quality::DebugInfo, f->fingerprint, false));
    CHECK_FALSE(f->fingerprint.computed());

    CachedAddress weak;  // a symbol table's answer: redone unless this very file gave it
    weak.symbolized = true;
    weak.quality = Quality::SymbolTable;
    weak.answered_by = 12345;
    CHECK(needs_symbolizing(weak, Quality::DebugInfo, f->fingerprint, false));
    CHECK(f->fingerprint.computed());
    const uint64_t hash = file_fingerprint(d.file("lib.so"));
    CHECK(f->fingerprint.value() == hash);
    weak.answered_by = hash;
    CHECK_FALSE(needs_symbolizing(weak, Quality::DebugInfo, f->fingerprint, false));

    // Another module served by the same file shares the hash (one read per file at most).
    auto again = loc.find(m, MT_ARCH_X86_64, false);
    REQUIRE(again);
    CHECK(again->fingerprint.computed());
    CHECK(again->fingerprint.value() == hash);
    CHECK(SymbolFile{}.fingerprint.value() == 0);  // no file: unknown
}

#include <random>

// intern_all (a warm ingest's lookups sorted by a radix sort and merged with the loaded rows) gives
// what intern() in order gives: the same row, "first" flag and addr_id per lookup, repeats
// included, and the rows new in this run made in the same order (so the same ids), over a
// loaded partition and over an empty one (a cold run), with addresses whose offsets span more than
// one radix pass.
TEST_CASE("symbolizer: intern_all interns like intern() in order", "[cache][partition]") {
    // Spans of the addresses' offsets: one radix pass (8 and 13 bits), two (26 bits, the bench
    // library's), three (32) and four (40).
    for (uint64_t mask : {0xffull, 0x1fffull, 0x3ffffffull, 0xffffffffull, 0xffffffffffull}) {
        CAPTURE(mask);
        mt::test::TempDir d;
        auto odb = mt::store::open_database(d.file("cache.db"));
        std::mt19937_64 rng(7);
        auto address = [&] { return 0x10000 + (rng() % 3 == 0 ? (rng() % 200) * 4 % (mask + 1) : (rng() & mask)); };
        {
            mt::store::Transaction tx(odb.db);
            AddressCache cache(odb.db);
            auto &p = cache.partition("cccc", "libC.so");
            for (int i = 0; i < 5000; ++i) cache.intern(p, address());
            cache.assign_ids();
            cache.flush();
            tx.commit();
        }
        for (const char *build : {"cccc", "dddd"}) {  // loaded rows, and none
            std::vector<uint64_t> run;
            for (int i = 0; i < 20000; ++i) run.push_back(i % 5 == 0 ? 0x10000 + (rng() % 200) * 4 % (mask + 1) : address());
            mt::store::Transaction tx(odb.db);
            AddressCache one(odb.db), all(odb.db);
            auto &p1 = one.partition(build, "libC.so");
            auto &p2 = all.partition(build, "libC.so");
            REQUIRE(p1.rows.size() == p2.rows.size());
            CHECK(p1.loaded_count == (std::string(build) == "cccc" ? p1.rows.size() : 0));
            std::vector<AddressCache::Lookup> lookups;
            for (uint32_t k = 0; k < run.size(); ++k) lookups.push_back({run[k], k});
            std::vector<AddressCache::Interned> got(run.size());
            all.intern_all(p2, lookups, got);
            size_t firsts = 0;
            for (uint32_t k = 0; k < run.size(); ++k) {
                auto [row, first] = one.intern(p1, run[k]);
                REQUIRE(got[k].row == row);
                REQUIRE(got[k].first == first);
                REQUIRE(got[k].addr_id == p1.rows[row].addr_id);
                firsts += first;
            }
            CHECK(firsts > std::min<uint64_t>(mask / 2, 1000));
            REQUIRE(p1.rows.size() == p2.rows.size());
            for (size_t r = 0; r < p1.rows.size(); ++r) {
                REQUIRE(p1.rows[r].file_address == p2.rows[r].file_address);
                REQUIRE(p1.rows[r].used == p2.rows[r].used);
            }
        }
    }
}
