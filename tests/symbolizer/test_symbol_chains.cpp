// SymbolChains (symbol_chains.h): the chains the site choice reads back, some read ahead in one
// addr_id-ordered pass, the rest on demand; either way each chain is the symbols rows of its
// address, innermost first, as the table holds them. Also Db::changes, which tells write_stacks
// whether its site insert added a row (the new row's id) or met another run's site (a lookup).
#include <catch2/catch.hpp>

#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "memtracer/store/writer_sql.h"
#include "support.h"
#include "symbol_chains.h"

using mt::sym::SymbolChains;
using mt::sym::SymbolRow;

namespace {

// Depth d of address `id`: names that say which row they came from.
void add_row(mt::store::Db &db, int64_t id, int depth) {
    std::string tag = std::to_string(id) + "." + std::to_string(depth);
    mt::store::Stmt s = db.prepare(
        "INSERT INTO symbols(addr_id, depth, function, demangled, csharp, file, line, column, cs_file, cs_line) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    s.binds(id, depth, "f" + tag, "d" + tag, "c" + tag, "/src/" + tag + ".cpp", 10 * id + depth, depth + 1,
            "/cs/" + tag + ".cs", 100 * id + depth);
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
    // Inserted out of depth order: the chain's order is the table's key, not the insert's.
    for (int64_t id : {7, 3, 5, 9})
        for (int depth = static_cast<int>(id % 3); depth >= 0; --depth) add_row(db, id, depth);

    SymbolChains chains(db);
    chains.read_ahead({9, 3, 0, 9, 3, 11});  // repeats, 0 (outside every module), an id without rows
    check_chain(chains.take(3), 3, 1);
    check_chain(chains.take(9), 9, 1);
    check_chain(chains.take(7), 7, 2);  // not read ahead: read now
    check_chain(chains.take(5), 5, 3);
    CHECK(chains.take(11).empty());
    // Handed over once: asked again, it is read again, the same.
    check_chain(chains.take(3), 3, 1);
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
