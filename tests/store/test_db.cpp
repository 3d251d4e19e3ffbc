// The one SQLite wrapper: cached statements are prepared once and handed back reset, owned ones
// are finalized, and every failure is a store::Error carrying SQLite's code, the file and the
// statement.
#include <sqlite3.h>  // result codes only, to check what store::Error carries

#include <catch2/catch.hpp>

#include "memtracer/store/db.h"
#include "memtracer/store/queries.h"
#include "store_test_util.h"

using mt::store::Db;
using mt::store::Error;
using mt::store::Stmt;

namespace {
Db table_with_rows(const std::string &path) {
    Db db = Db::open(path, true);
    db.exec("CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    return db;
}
}  // namespace

TEST_CASE("store: a cached statement is prepared once and comes back reset with no bindings", "[store][db]") {
    mt::test::StoreDir d;
    Db db = table_with_rows(d.file("t.db"));
    const char *by_key = "SELECT v FROM t WHERE k = ?1";
    const char *first_text = nullptr;
    {
        Stmt s = db.cached(by_key);
        s.bind(1, int64_t{2});
        REQUIRE(s.step());
        CHECK(s.text(0) == "two");
        first_text = s.sql();
    }
    CHECK(db.cached_count() == 1);
    {
        // The same prepared statement (SQLite keeps its SQL text inside it), reset by the first
        // borrower: with its binding cleared, ?1 is NULL and matches nothing.
        Stmt s = db.cached(by_key);
        CHECK(s.sql() == first_text);
        CHECK_FALSE(s.step());
    }
    {
        Stmt s = db.cached(by_key);
        s.bind(1, int64_t{3});
        REQUIRE(s.step());
        CHECK(s.str(0) == "three");
    }
    {
        // A borrower that stopped after the first of several rows leaves it at the start again.
        Stmt all = db.cached("SELECT k FROM t ORDER BY k");
        REQUIRE(all.step());
        CHECK(all.i64(0) == 1);
    }
    Stmt all = db.cached("SELECT k FROM t ORDER BY k");
    REQUIRE(all.step());
    CHECK(all.i64(0) == 1);
    CHECK(db.cached_count() == 2);
}

TEST_CASE("store: an owned statement binds every type and reads back what it wrote", "[store][db]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("types.db"), true);
    db.exec("CREATE TABLE v(i INTEGER, u INTEGER, r REAL, s TEXT, n TEXT)");
    Stmt ins = db.prepare("INSERT INTO v VALUES (?1, ?2, ?3, ?4, ?5)");
    std::optional<std::string> none;
    ins.binds(int64_t{-5}, uint64_t{0xffffffff00000000ull}, 2.5, std::string("text"), none).run();
    CHECK(db.last_insert_rowid() == 1);
    Stmt q = db.prepare("SELECT i, u, r, s, n FROM v");
    REQUIRE(q.step());
    CHECK(q.columns() == 5);
    CHECK(q.i64(0) == -5);
    CHECK(static_cast<uint64_t>(q.i64(1)) == 0xffffffff00000000ull);  // two's complement round trip
    CHECK(q.f64(2) == 2.5);
    CHECK(q.text(3) == "text");
    CHECK(q.null(4));
    CHECK_FALSE(q.step());
    CHECK(db.query_int("SELECT count(*) FROM v") == 1);
    CHECK_FALSE(db.query_int("SELECT i FROM v WHERE 0").has_value());
}

TEST_CASE("store: a failed step carries SQLite's code, the file and the statement", "[store][db][error]") {
    mt::test::StoreDir d;
    std::string path = d.file("err.db");
    Db db = table_with_rows(path);
    Stmt dup = db.prepare("INSERT INTO t(k, v) VALUES (?1, ?2)");
    dup.binds(int64_t{1}, "again");
    try {
        dup.step();
        FAIL("a duplicate primary key was accepted");
    } catch (const Error &e) {
        CHECK(e.code() == SQLITE_CONSTRAINT_PRIMARYKEY);
        CHECK(std::filesystem::equivalent(e.file(), path));
        CHECK(e.sql() == "INSERT INTO t(k, v) VALUES (?1, ?2)");
        CHECK_THAT(e.message(), Catch::Contains("UNIQUE constraint failed: t.k"));
        CHECK_THAT(e.what(), Catch::Contains("UNIQUE constraint failed: t.k") && Catch::Contains("in: INSERT INTO t"));
    }
}

TEST_CASE("store: prepare and exec failures name the statement and the file", "[store][db][error]") {
    mt::test::StoreDir d;
    std::string path = d.file("bad.db");
    Db db = table_with_rows(path);
    try {
        db.prepare("SELECT nope FROM t");
        FAIL("a statement naming a missing column was prepared");
    } catch (const Error &e) {
        CHECK(e.code() == SQLITE_ERROR);
        CHECK(e.sql() == "SELECT nope FROM t");
        CHECK(std::filesystem::equivalent(e.file(), path));
        CHECK_THAT(e.message(), Catch::Contains("no such column: nope"));
    }
    try {
        db.exec("CREATE TABLE t(x)");
        FAIL("a table was created twice");
    } catch (const Error &e) {
        CHECK(e.code() == SQLITE_ERROR);
        CHECK(e.sql() == "CREATE TABLE t(x)");
        CHECK(e.file() == path);
        CHECK_THAT(e.what(), Catch::StartsWith(path + ": ") && Catch::Contains("table t already exists"));
    }
    // A cached statement fails the same way, and a failed prepare is not cached.
    CHECK_THROWS_AS(db.cached("SELEC 1"), Error);
    CHECK(db.cached_count() == 0);
}

TEST_CASE("store: opening a missing file read-only fails with its path", "[store][db][error]") {
    mt::test::StoreDir d;
    std::string path = d.file("missing/run.db");
    try {
        Db::open_readonly(path, 100);
        FAIL("a missing database was opened");
    } catch (const Error &e) {
        CHECK(e.code() == SQLITE_CANTOPEN);
        CHECK(e.file() == path);
        CHECK_THAT(e.what(), Catch::Contains(path) && Catch::Contains("cannot open database"));
    }
}

TEST_CASE("store: a read-only connection refuses writes", "[store][db]") {
    mt::test::StoreDir d;
    table_with_rows(d.file("ro.db"));
    Db ro = Db::open_readonly(d.file("ro.db"), 100);
    try {
        ro.exec("DELETE FROM t");
        FAIL("a read-only connection wrote");
    } catch (const Error &e) {
        CHECK(e.code() == SQLITE_READONLY);
    }
    CHECK(ro.query_int("SELECT count(*) FROM t") == 3);
}

TEST_CASE("store: a transaction not committed is rolled back", "[store][db]") {
    mt::test::StoreDir d;
    Db db = table_with_rows(d.file("tx.db"));
    {
        mt::store::Transaction tx(db);
        db.exec("DELETE FROM t");
        CHECK(db.query_int("SELECT count(*) FROM t") == 0);
    }
    CHECK(db.query_int("SELECT count(*) FROM t") == 3);
    {
        mt::store::Transaction tx(db);
        db.exec("DELETE FROM t WHERE k = 1");
        tx.commit();
    }
    CHECK(db.query_int("SELECT count(*) FROM t") == 2);
}

TEST_CASE("store: a moved connection keeps its cached statements", "[store][db]") {
    mt::test::StoreDir d;
    Db a = table_with_rows(d.file("mv.db"));
    const char *sql_text;
    {
        Stmt s = a.cached("SELECT count(*) FROM t");
        sql_text = s.sql();
    }
    Db b = std::move(a);
    CHECK(b.cached_count() == 1);
    Stmt s = b.cached("SELECT count(*) FROM t");
    CHECK(s.sql() == sql_text);
    REQUIRE(s.step());
    CHECK(s.i64(0) == 3);
}

TEST_CASE("store: a read transaction keeps one snapshot while a writer commits, and ends", "[store][db]") {
    mt::test::StoreDir d;
    std::string path = d.file("snap.db");
    Db writer = table_with_rows(path);
    writer.exec("PRAGMA journal_mode = WAL");  // a reader's snapshot beside a writer, as the viewer's
    Db reader = Db::open_readonly(path, 1000);
    {
        mt::store::ReadTransaction snap(reader);
        CHECK(reader.query_int("SELECT count(*) FROM t") == 3);
        writer.exec("INSERT INTO t VALUES (4, 'four')");
        CHECK(reader.query_int("SELECT count(*) FROM t") == 3);  // still the snapshot
        snap.end();
    }
    CHECK(reader.query_int("SELECT count(*) FROM t") == 4);
    {
        // Not ended (a throw in the request): rolled back, the next read sees the new rows.
        mt::store::ReadTransaction snap(reader);
        CHECK(reader.query_int("SELECT count(*) FROM t") == 4);
        writer.exec("DELETE FROM t WHERE k = 4");
    }
    CHECK(reader.query_int("SELECT count(*) FROM t") == 3);
}
