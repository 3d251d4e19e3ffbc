// Schema version 4 (address_sites: the site choice's summary of each cached address, its facts
// and four site ids): a version-3 file is readable as is and migrated by the writer, which adds
// the table with no summary made yet, every row reading back identically through the views.
#include <catch2/catch.hpp>

#include "memtracer/store/schema.h"
#include "store_test_util.h"

using mt::store::Db;

namespace {
// A version-3 database: today's schema without version 4's table, an address cache of two
// modules with inline chains, a run whose stacks point at them and have their sites.
constexpr const char *kVersion3Rows = R"(
INSERT INTO address_modules VALUES (1, 'aa01', 'libil2cpp.so'), (2, '', '/system/lib64/libc.so');
INSERT INTO address_rows VALUES (1, 1, 4096, 1, 2, 77), (2, 1, 8192, 0, 0, 0), (3, 2, 123456, 1, 1, 5);
INSERT INTO strings VALUES (1, ''), (2, 'Game_Outer_m1'), (3, 'Game.Outer'), (4, 'a.cpp'), (5, 'malloc');
INSERT INTO symbol_frames VALUES (1, 0, 2, 1, 3, 4, 9, 0, 1, 0), (3, 0, 5, 1, 1, 1, 0, 0, 1, 0);
INSERT INTO runs(run_id, source_file, source_size, ingested_unix_ns, start_unix_ns, pid, mode, tick_hz, stop)
    VALUES (1, 'old.mt', 10, 1, 1, 7, 'events', 1e9, 'end');
INSERT INTO sites VALUES (1, 'Game.Outer', 'a.cpp', 9);
INSERT INTO stacks VALUES (1, 0, 3, 1, 0), (1, 1, 1, NULL, 0);
INSERT INTO stack_frames VALUES (1, 0, 0, 1000, 1), (1, 0, 1, 2000, 2), (1, 0, 2, 3000, 3), (1, 1, 0, 4000, NULL);
UPDATE meta SET value = '3' WHERE key = 'schema_version';
PRAGMA user_version = 3;
)";

std::string rows(Db &db, const std::string &sql) {
    std::string out;
    auto s = db.prepare(sql);
    while (s.step())
        for (int c = 0; c < s.columns(); ++c) out += (s.null(c) ? "NULL" : s.str(c)) + (c + 1 == s.columns() ? "\n" : "|");
    return out;
}

// What the readers see: every view and the tables a reader joins them with.
std::string dump(Db &db) {
    return rows(db, "SELECT * FROM addresses ORDER BY addr_id") + rows(db, "SELECT * FROM symbols ORDER BY addr_id, depth") +
           rows(db, "SELECT * FROM sites ORDER BY site_id") + rows(db, "SELECT run_id, stack_id, depth, site_id, machinery FROM stacks ORDER BY run_id, stack_id") +
           rows(db, "SELECT * FROM stack_frames ORDER BY run_id, stack_id, pos");
}
}  // namespace

TEST_CASE("store: a version-3 database is readable as is and migrated by the writer, its site summaries not made yet",
          "[store][schema][version][migration]") {
    mt::test::StoreDir d;
    std::string path = d.file("v3.db");
    mt::store::create_empty_database(path);
    std::string before;
    {
        Db v3 = Db::open(path, false);
        v3.exec("DROP TABLE address_sites");
        mt::test::use_version4_stacks(v3);
        v3.exec(kVersion3Rows);
        before = dump(v3);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));  // the viewer serves it unmigrated
    {
        auto opened = mt::store::open_database(path);
        Db &db = opened.db;
        CHECK(db.query_int("PRAGMA user_version") == mt::store::kSchemaVersion);  // 3 -> 4 -> 5 in one open
        CHECK(rows(db, "SELECT value FROM meta WHERE key = 'schema_version'") == std::to_string(mt::store::kSchemaVersion) + "\n");
        // The summaries' table, empty: the next ingest that needs one reads the chain and stores it.
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'address_sites'") == 1);
        CHECK(db.query_int("SELECT count(*) FROM address_sites") == 0);
        CHECK(rows(db, "SELECT count(*) FROM meta WHERE key = 'site_rules'") == "0\n");
        CHECK(dump(db) == before);
        mt::store::finish_database(db);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));
    auto again = mt::store::open_database(path);  // opening again changes nothing
    CHECK(dump(again.db) == before);
}

TEST_CASE("store: a version-4 file has the summaries' table, and one without it is refused as damaged", "[store][schema][version]") {
    // A file created at version 4 has address_sites from the schema itself, and readers take it.
    mt::test::StoreDir d;
    std::string path = d.file("v4.db");
    mt::store::create_empty_database(path);
    REQUIRE_NOTHROW(mt::store::check_readable(path));
    // A version-4 file without it is damaged, and said to be.
    Db::open(path, false).exec("DROP TABLE address_sites");
    CHECK_THROWS_WITH(mt::store::check_readable(path), Catch::Contains("claims schema version 5 but has no table 'address_sites'"));
}

// address_blobs (issue 22, tenth session), added to version 4 after its release: the writer's copy
// of a module's cache rows. A file written before it is readable and gets it from the writer; any
// UPDATE or DELETE of a module's rows, by any writer, deletes that module's blob.
TEST_CASE("store: address_blobs is optional to readers, added by the writer, and dropped when its rows change",
          "[store][schema][version][blob]") {
    mt::test::StoreDir d;
    std::string path = d.file("v4old.db");
    mt::store::create_empty_database(path);
    std::string before;
    {
        Db old = Db::open(path, false);
        old.exec("DROP TRIGGER address_rows_update_blob; DROP TRIGGER address_rows_delete_blob; DROP TABLE address_blobs");
        old.exec(R"(INSERT INTO address_modules VALUES (1, 'aa01', 'libil2cpp.so'), (2, '', 'libc.so');
                    INSERT INTO address_rows VALUES (1, 1, 4096, 1, 2, 77), (2, 1, 8192, 0, 0, 0), (3, 2, 123456, 1, 1, 5);)");
        before = dump(old);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));  // written before the blobs: served as is
    auto opened = mt::store::open_database(path);
    Db &db = opened.db;
    CHECK(db.query_int("PRAGMA user_version") == mt::store::kSchemaVersion);
    CHECK(db.query_int("SELECT count(*) FROM address_blobs") == 0);
    CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'address_rows'") == 2);
    CHECK(dump(db) == before);
    auto blobs = [&] { return rows(db, "SELECT coalesce(group_concat(module_key), '') FROM (SELECT module_key FROM address_blobs ORDER BY 1)"); };
    auto put = [&] { db.exec("INSERT OR REPLACE INTO address_blobs VALUES (1, 2, 3, x'00'), (2, 1, 3, x'00')"); };
    put();
    db.exec("INSERT INTO address_rows VALUES (4, 2, 200000, 0, 0, 0)");  // an insert: the count and max id tell (no trigger)
    CHECK(blobs() == "1,2\n");
    db.exec("UPDATE address_rows SET quality = 1 WHERE addr_id = 2");  // an update: that module's blob
    CHECK(blobs() == "2\n");
    put();
    db.exec("UPDATE address_rows SET module_key = 1 WHERE addr_id = 4");  // moved: both modules' blobs
    CHECK(blobs() == "\n");
    put();
    db.exec("UPDATE address_rows SET addr_id = 9 WHERE addr_id = 3");  // renumbered: it freed an id, so every blob
    CHECK(blobs() == "\n");
    put();
    db.exec("DELETE FROM address_rows WHERE addr_id = 9");  // a delete frees an id: every blob
    CHECK(blobs() == "\n");
    REQUIRE_NOTHROW(mt::store::check_readable(path));
}
