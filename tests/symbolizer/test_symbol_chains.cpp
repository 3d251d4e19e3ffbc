// SymbolChains (symbol_chains.h): the chains the site choice reads back, some read ahead in one
// addr_id-ordered pass, the rest on demand; either way each chain is the symbols rows of its
// address, innermost first, as the table holds them. Also Db::changes, which tells write_stacks
// whether its site insert added a row (the new row's id) or met another run's site (a lookup).
#include <catch2/catch.hpp>

#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "memtracer/store/writer_sql.h"
#include "string_ids.h"
#include "support.h"
#include "symbol_chains.h"

using mt::sym::SymbolChains;
using mt::sym::SymbolRow;

namespace {

// Depth d of address `id`: names that say which row they came from, written as the symbolizer
// writes them (string ids, symbol_frames).
void add_row(mt::store::Db &db, mt::sym::StringIds &strings, int64_t id, int depth) {
    std::string tag = std::to_string(id) + "." + std::to_string(depth);
    mt::store::Stmt s = db.prepare(std::string(std::string_view(mt::store::sql::kInsertSymbols)) +
                                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    s.binds(id, depth, strings.id("f" + tag), strings.id("d" + tag), strings.id("c" + tag),
            strings.id("/src/" + tag + ".cpp"), 10 * id + depth, depth + 1, strings.id("/cs/" + tag + ".cs"),
            100 * id + depth);
    s.run();
}

void check_chain(const std::vector<SymbolRow> &chain, int64_t id, int depths) {
    REQUIRE(chain.size() == static_cast<size_t>(depths));
    for (int depth = 0; depth < depths; ++depth) {
        std::string tag = std::to_string(id) + "." + std::to_string(depth);
        const SymbolRow &r = chain[static_cast<size_t>(depth)];
        CHECK(r.function == "f" + tag);
        CHECK(r.demangled == "d" + tag);
        CHECK(r.csharp == "c" + tag);
        CHECK(r.file == "/src/" + tag + ".cpp");
        CHECK(r.line == static_cast<uint32_t>(10 * id + depth));
        CHECK(r.column == static_cast<uint32_t>(depth + 1));
        CHECK(r.cs_file == "/cs/" + tag + ".cs");
        CHECK(r.cs_line == static_cast<uint32_t>(100 * id + depth));
    }
}

}  // namespace

TEST_CASE("symbolizer: chains read ahead and chains read on demand are the symbols rows, innermost first", "[sites][chains]") {
    mt::test::TempDir d;
    auto odb = mt::store::open_database(d.file("chains.db"));
    mt::store::Db &db = odb.db;
    mt::sym::StringIds strings(db);
    // Inserted out of depth order: the chain's order is the table's key, not the insert's.
    for (int64_t id : {7, 3, 5, 9})
        for (int depth = static_cast<int>(id % 3); depth >= 0; --depth) add_row(db, strings, id, depth);

    SymbolChains chains(db);
    std::vector<int64_t> order;
    // Repeats, 0 (outside every module), an id without rows: each distinct id once, in id order.
    chains.read_each({9, 3, 0, 9, 3, 11}, [&](int64_t id, std::span<const mt::sym::SymbolRow> chain) {
        order.push_back(id);
        if (id == 11) CHECK(chain.empty());
        else check_chain({chain.begin(), chain.end()}, id, static_cast<int>(id % 3) + 1);
    });
    CHECK(order == std::vector<int64_t>{3, 9, 11});
    // Rows reused from a longer chain before do not leak into a shorter one (the buffer is reused).
    order.clear();
    chains.read_each({7, 5}, [&](int64_t id, std::span<const mt::sym::SymbolRow> chain) {
        order.push_back(id);
        check_chain({chain.begin(), chain.end()}, id, id == 5 ? 3 : 2);
    });
    CHECK(order == std::vector<int64_t>{5, 7});
    check_chain(chains.read(7), 7, 2);  // on demand
    check_chain(chains.read(5), 5, 3);
    CHECK(chains.read(11).empty());
}

TEST_CASE("symbolizer: a string is stored once, and one an earlier ingest stored is found by its id", "[chains][strings]") {
    mt::test::TempDir d;
    auto odb = mt::store::open_database(d.file("strings.db"));
    mt::store::Db &db = odb.db;
    int64_t spawn = 0, empty = 0;
    {
        mt::sym::StringIds first(db);
        spawn = first.id("Spawner.Run");
        empty = first.id("");
        CHECK(first.id("Spawner.Run") == spawn);  // the memo
        CHECK(spawn != empty);
    }
    mt::sym::StringIds second(db);  // a later ingest: its memo is empty, the table is not
    CHECK(second.id("Enemy.Update") != spawn);
    CHECK(second.id("Spawner.Run") == spawn);
    CHECK(second.id("") == empty);
    CHECK(db.query_int("SELECT count(*) FROM strings") == 3);
    CHECK(db.query_int("SELECT string_id FROM strings WHERE text = 'Spawner.Run'") == spawn);
}

TEST_CASE("store: Db::changes tells an inserted site from one that was already there", "[sites][store]") {
    mt::test::TempDir d;
    auto odb = mt::store::open_database(d.file("sites.db"));
    mt::store::Db &db = odb.db;
    mt::store::Stmt add = db.prepare(mt::store::sql::kInsertSite);
    add.binds("Spawner.Run", "Spawner.cs", 12).run();
    CHECK(db.changes() == 1);
    int64_t first = db.last_insert_rowid();
    add.binds("Enemy.Update", "Enemy.cs", 3).run();
    CHECK(db.changes() == 1);
    CHECK(db.last_insert_rowid() != first);
    add.binds("Spawner.Run", "Spawner.cs", 12).run();  // ON CONFLICT DO NOTHING
    CHECK(db.changes() == 0);
}
