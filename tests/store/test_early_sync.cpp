// EarlySync (issue 22, fourth session): the database file, and its WAL when there is one, are
// synced in the background while a transaction is still open, through descriptors of its own.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include "memtracer/store/db.h"
#include "memtracer/store/early_sync.h"
#include "store_test_util.h"

using mt::store::Db;
using mt::store::EarlySync;
using namespace std::chrono_literals;

namespace {
// Bounded poll for the state a test asserts (no timing assumption: the limit is generous).
template <class F>
bool eventually(F done) {
    for (int i = 0; i < 6000 && !done(); ++i) std::this_thread::sleep_for(10ms);
    return done();
}

void write_rows(Db &db) {
    db.exec("CREATE TABLE IF NOT EXISTS t(k INTEGER PRIMARY KEY, v BLOB)");
    db.exec("BEGIN");
    db.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
            "INSERT INTO t(v) SELECT randomblob(1000) FROM n");
}
}  // namespace

TEST_CASE("store: EarlySync syncs a rollback-journal database while its transaction is open", "[store][early_sync]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("a.db"), true);
    db.exec("PRAGMA cache_size = 10");  // spill: the open transaction's pages go to the file
    write_rows(db);
    EarlySync sync(db.path(), 1ms);
    // One file per tick: no -wal beside a rollback-journal database.
    REQUIRE(eventually([&] { return sync.syncs() >= 3; }));
    sync.stop();
    db.exec("COMMIT");
    CHECK(db.query_int("SELECT count(*) FROM t") == 2000);
}

TEST_CASE("store: EarlySync syncs the WAL of a WAL database too", "[store][early_sync]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("w.db"), true);
    db.exec("PRAGMA journal_mode = WAL");
    write_rows(db);
    REQUIRE(std::filesystem::exists(d.file("w.db-wal")));
    unsigned first_tick;
    {
        EarlySync sync(db.path(), 1ms);
        REQUIRE(eventually([&] { return sync.syncs() >= 2; }));
        first_tick = sync.syncs();
    }  // the destructor stops and joins
    CHECK(first_tick % 2 == 0);  // whole ticks only (counted under the lock): the file and its WAL each time
    db.exec("COMMIT");
    CHECK(db.query_int("SELECT count(*) FROM t") == 2000);
}

TEST_CASE("store: EarlySync of a missing file syncs nothing and stops", "[store][early_sync]") {
    mt::test::StoreDir d;
    EarlySync sync(d.file("missing.db"), 1ms);
    sync.stop();
    CHECK(sync.syncs() == 0);
    CHECK_FALSE(std::filesystem::exists(d.file("missing.db")));  // opened read-only: never created
}
