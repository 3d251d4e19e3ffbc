// Schema version 2 (thread_id in the allocation tables' primary keys): a version-1 file is
// migrated by the writer, its rows kept with thread_id -1 ("all threads, not split"), and the
// readers take it unmigrated too.
#include <catch2/catch.hpp>

#include "memtracer/store/schema.h"
#include "store_test_util.h"

using mt::store::Db;

namespace {
// The version-1 shape of the four tables version 2 changed, with one row each.
constexpr const char *kVersion1 = R"(
DROP TABLE allocs; DROP TABLE run_class_stack; DROP TABLE death_sites; DROP TABLE survivors;
ALTER TABLE runs DROP COLUMN thread_split;
CREATE TABLE allocs (run_id INTEGER NOT NULL, seq INTEGER NOT NULL, class_id INTEGER NOT NULL, stack_id INTEGER NOT NULL,
    count INTEGER NOT NULL, requested_bytes INTEGER NOT NULL, gc_bytes INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq, class_id, stack_id)) WITHOUT ROWID;
CREATE TABLE run_class_stack (run_id INTEGER NOT NULL, class_id INTEGER NOT NULL, stack_id INTEGER NOT NULL,
    count INTEGER NOT NULL, requested_bytes INTEGER NOT NULL, gc_bytes INTEGER NOT NULL, first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL, PRIMARY KEY (run_id, class_id, stack_id)) WITHOUT ROWID;
CREATE TABLE death_sites (run_id INTEGER NOT NULL, seq INTEGER NOT NULL, class_id INTEGER NOT NULL,
    stack_id INTEGER NOT NULL, ages BLOB NOT NULL, PRIMARY KEY (run_id, seq, class_id, stack_id)) WITHOUT ROWID;
CREATE TABLE survivors (run_id INTEGER NOT NULL, class_id INTEGER NOT NULL, stack_id INTEGER NOT NULL,
    count INTEGER NOT NULL, gc_bytes INTEGER NOT NULL, first_seq INTEGER NOT NULL, frames INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, class_id, stack_id)) WITHOUT ROWID;
INSERT INTO runs(run_id, source_file, source_size, ingested_unix_ns, start_unix_ns, pid, mode, tick_hz, stop)
    VALUES (1, 'old.mt', 10, 1, 1, 7, 'events', 1e9, 'end');
INSERT INTO allocs VALUES (1, 0, 2, 3, 5, 80, 96);
INSERT INTO run_class_stack VALUES (1, 2, 3, 5, 80, 96, 0, 0);
INSERT INTO death_sites VALUES (1, 0, 2, 3, x'000130');
INSERT INTO survivors VALUES (1, 2, 3, 4, 64, 0, 1);
UPDATE meta SET value = '1' WHERE key = 'schema_version';
PRAGMA user_version = 1;
)";

std::string one(Db &db, const std::string &sql) {
    auto s = db.prepare(sql);
    REQUIRE(s.step());
    return s.str(0);
}
}  // namespace

TEST_CASE("store: a version-1 database is readable as is and migrated by the writer, rows kept as thread -1",
          "[store][schema][version]") {
    mt::test::StoreDir d;
    std::string path = d.file("v1.db");
    mt::store::create_empty_database(path);
    {
        Db v1 = Db::open(path, false);
        mt::test::use_version2_cache(v1);  // version 1's address cache was version 2's
        v1.exec(kVersion1);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));  // the viewer serves it unmigrated
    {
        auto opened = mt::store::open_database(path);
        Db &db = opened.db;
        CHECK(db.query_int("PRAGMA user_version") == mt::store::kSchemaVersion);  // 1 -> 2 -> 3 in one open
        CHECK(one(db, "SELECT value FROM meta WHERE key = 'schema_version'") == std::to_string(mt::store::kSchemaVersion));
        CHECK(one(db, "SELECT count || ',' || requested_bytes || ',' || gc_bytes || ',' || thread_id FROM allocs") == "5,80,96,-1");
        CHECK(one(db, "SELECT count || ',' || first_seq || ',' || thread_id FROM run_class_stack") == "5,0,-1");
        CHECK(one(db, "SELECT hex(ages) || ',' || thread_id FROM death_sites") == "000130,-1");
        CHECK(one(db, "SELECT count || ',' || frames || ',' || all_frames || ',' || thread_id FROM survivors") == "4,1,1,-1");
        CHECK(one(db, "SELECT thread_split FROM runs") == "0");
        // thread_id is in each primary key: a second thread's row of the same key goes in.
        CHECK_NOTHROW(db.exec("INSERT INTO allocs VALUES (1, 0, 2, 3, 1, 16, 16, 4)"));
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v1'").value_or(-1) == 0);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));
    // Opening again changes nothing.
    auto again = mt::store::open_database(path);
    CHECK(again.db.query_int("SELECT count(*) FROM allocs").value_or(0) == 2);
}
