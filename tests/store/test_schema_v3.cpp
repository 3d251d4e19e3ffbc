// Schema version 3 (the address cache keyed by module: address_modules, address_rows; the
// symbols' names stored once: strings, symbol_frames; version 2's `addresses` and `symbols`
// tables kept as views of the same columns): a version-2 file is readable
// as is and migrated by the writer, every row reading back identically through the view.
#include <catch2/catch.hpp>

#include "memtracer/store/schema.h"
#include "store_test_util.h"

using mt::store::Db;

namespace {
// A version-2 address cache: two builds, one module without an id, ids of the builds
// interleaved; each address has an inline chain and a stack frame pointing at it.
constexpr const char *kVersion2Rows = R"(
INSERT INTO addresses VALUES (1, 'aa01', 'libil2cpp.so', 4096, 1, 2, 77);
INSERT INTO addresses VALUES (2, 'bb02', 'libil2cpp.so', 4096, 1, 1, 0);
INSERT INTO addresses VALUES (3, 'aa01', 'libil2cpp.so', 8192, 0, 0, 0);
INSERT INTO addresses VALUES (4, '', '/system/lib64/libc.so', 123456, 1, 1, 5);
INSERT INTO addresses VALUES (5, 'aa01', 'libunity.so', 4096, 1, 2, 77);
INSERT INTO symbols VALUES (1, 0, '_Z3inlv', 'inl()', 'Game.Inl', 'a.cpp', 3, 5, 'Game.cs', 12);
INSERT INTO symbols VALUES (1, 1, 'Game_Outer_m1', '', 'Game.Outer', 'a.cpp', 9, 0, 'Game.cs', 40);
INSERT INTO symbols(addr_id, depth, function) VALUES (2, 0, 'f'), (4, 0, 'malloc'), (5, 0, 'Game_Outer_m1');
INSERT INTO runs(run_id, source_file, source_size, ingested_unix_ns, start_unix_ns, pid, mode, tick_hz, stop)
    VALUES (1, 'old.mt', 10, 1, 1, 7, 'events', 1e9, 'end');
INSERT INTO stacks VALUES (1, 0, 5, NULL, 0);  -- version 5 keeps the frames of stacks that have a row
INSERT INTO stack_frames VALUES (1, 0, 0, 1000, 1), (1, 0, 1, 2000, 3), (1, 0, 2, 3000, NULL), (1, 0, 3, 4000, 4), (1, 0, 4, 5000, 5);
UPDATE meta SET value = '2' WHERE key = 'schema_version';
PRAGMA user_version = 2;
)";

// What the readers see: the addresses' columns, and the viewer's stack query shape (a LEFT JOIN
// of stack_frames to addresses and symbols).
std::string dump(Db &db) {
    std::string out;
    auto a = db.prepare("SELECT addr_id, build_id, module_path, file_address, symbolized, quality, answered_by "
                        "FROM addresses ORDER BY addr_id");
    while (a.step())
        for (int c = 0; c < 7; ++c) out += a.str(c) + (c == 6 ? "\n" : "|");
    auto f = db.prepare("SELECT sf.pos, sf.address, a.module_path, a.file_address, a.symbolized, s.depth, s.function "
                        "FROM stack_frames sf LEFT JOIN addresses a ON a.addr_id = sf.addr_id "
                        "LEFT JOIN symbols s ON s.addr_id = sf.addr_id ORDER BY sf.pos, s.depth");
    while (f.step())
        for (int c = 0; c < 7; ++c) out += (f.null(c) ? "NULL" : f.str(c)) + (c == 6 ? "\n" : "|");
    auto s = db.prepare("SELECT addr_id, depth, function, demangled, csharp, file, line, column, cs_file, cs_line, "
                        "typeof(function), typeof(line) FROM symbols ORDER BY addr_id, depth");
    while (s.step())
        for (int c = 0; c < 12; ++c) out += s.str(c) + (c == 11 ? "\n" : "|");
    return out;
}

std::string plan(Db &db, const std::string &sql) {
    std::string out;
    auto s = db.prepare("EXPLAIN QUERY PLAN " + sql);
    while (s.step()) out += s.str(3) + "\n";
    return out;
}
}  // namespace

TEST_CASE("store: a version-2 database is readable as is and migrated by the writer, every address and symbol row kept",
          "[store][schema][version][migration]") {
    mt::test::StoreDir d;
    std::string path = d.file("v2.db");
    mt::store::create_empty_database(path);
    std::string before;
    {
        Db v2 = Db::open(path, false);
        mt::test::use_version2_cache(v2);
        mt::test::use_version4_stacks(v2);
        v2.exec(kVersion2Rows);
        before = dump(v2);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));  // the viewer serves it unmigrated
    {
        auto opened = mt::store::open_database(path);
        Db &db = opened.db;
        CHECK(db.query_int("PRAGMA user_version") == mt::store::kSchemaVersion);  // 2 -> 3 -> 4 in one open
        CHECK(dump(db) == before);
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'addresses'") == 1);
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE name = 'addresses_v2'") == 0);
        // One module row per (build id, module path): the strings are no longer on every row.
        CHECK(db.query_int("SELECT count(*) FROM address_modules") == 4);
        // Each distinct name once: '' and 9 others (4 raw names, 1 demangled, 2 C#, 2 files).
        CHECK(db.query_int("SELECT count(*) FROM strings") == 10);
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'symbols'") == 1);
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE name = 'symbols_v2'") == 0);
        CHECK(db.query_int("SELECT count(DISTINCT module_key) FROM address_rows") == 4);
        // The key is unique per (module, file address), as (build id, module path, file address) was.
        CHECK_THROWS_AS(db.exec("INSERT INTO address_rows(module_key, file_address) SELECT module_key, 4096 FROM "
                                "address_modules WHERE build_id = 'aa01' AND module_path = 'libil2cpp.so'"),
                        mt::store::Error);
        // The old references of symbols and stack_frames still name `addresses` (now the view):
        // the rename did not rewrite them to the table set aside.
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%addresses_v2%'") == 0);
        mt::store::finish_database(db);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));
    auto again = mt::store::open_database(path);  // opening again changes nothing
    CHECK(dump(again.db) == before);
    CHECK(again.db.query_int("SELECT max(addr_id) FROM address_rows") == 5);
}

TEST_CASE("store: the addresses view stays one table to SQLite, so the viewer's LEFT JOIN reads it by key",
          "[store][schema]") {
    mt::test::StoreDir d;
    std::string path = d.file("new.db");
    mt::store::create_empty_database(path);
    Db db = Db::open(path, false);
    std::string p = plan(db, "SELECT a.module_path, a.symbolized FROM stack_frames sf LEFT JOIN addresses a "
                             "ON a.addr_id = sf.addr_id WHERE sf.run_id = 1");
    // Flattened: a primary-key search of address_rows per frame, no materialized copy of the view.
    CHECK(p.find("SEARCH r USING INTEGER PRIMARY KEY") != std::string::npos);
    CHECK(p.find("MATERIALIZE") == std::string::npos);
    CHECK(p.find("CO-ROUTINE") == std::string::npos);
    // The same for symbols: the frames' rows by their key, each name by its id.
    p = plan(db, "SELECT s.function, s.file, s.line FROM stack_frames sf LEFT JOIN symbols s ON s.addr_id = sf.addr_id "
                 "WHERE sf.run_id = 1 ORDER BY sf.stack_id, sf.pos, s.depth");
    CHECK(p.find("SEARCH f USING PRIMARY KEY (addr_id=?)") != std::string::npos);
    CHECK(p.find("SEARCH t USING INTEGER PRIMARY KEY (rowid=?)") != std::string::npos);
    CHECK(p.find("MATERIALIZE") == std::string::npos);
    CHECK(p.find("CO-ROUTINE") == std::string::npos);
}
