// The database contract: the schema every tool embeds is store/schema.sql byte for byte; the
// writer and the readers refuse a file of another version or another program with a message
// saying which; an older version-1 file is migrated; the named queries answer from real files.
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <algorithm>
#include <sstream>

#include "memtracer/store/queries.h"
#include "memtracer/store/schema.h"
#include "store_test_util.h"

using mt::store::Db;
using mt::store::Error;

namespace {
std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> columns_of(Db &db, const std::string &table) {
    std::vector<std::string> out;
    auto s = db.prepare("SELECT name FROM pragma_table_info('" + table + "')");
    while (s.step()) out.push_back(s.str(0));
    return out;
}

bool has(const std::vector<std::string> &v, const std::string &x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::string refusal(const std::function<void()> &f) {
    try {
        f();
    } catch (const Error &e) {
        return e.what();
    }
    return "(accepted)";
}

void insert_run(Db &db, const std::string &source) {
    db.prepare("INSERT INTO runs(source_file, source_size, ingested_unix_ns, start_unix_ns, pid, mode, tick_hz, stop) "
               "VALUES (?1, 10, 0, 0, 1, 'events', 1e9, 'end')")
        .bind(1, source)
        .run();
}
}  // namespace

TEST_CASE("store: the embedded schema is store/schema.sql, split at its bulk-load marker", "[store][schema]") {
    std::string file = read_file(MT_STORE_SCHEMA_FILE);
    REQUIRE(!file.empty());
    CHECK(mt::store::schema_sql() == file);
    CHECK(std::string(mt::store::schema_tables_sql()) + std::string(mt::store::schema_indexes_sql()) == file);
    CHECK(mt::store::schema_indexes_sql().rfind("-- @after-bulk-load", 0) == 0);
    CHECK(file.find("PRAGMA user_version = " + std::to_string(mt::store::kSchemaVersion) + ";") != std::string::npos);
}

TEST_CASE("store: an empty database holds the whole schema and passes the readers' check", "[store][schema]") {
    mt::test::StoreDir d;
    std::string path = d.file("empty.db");
    mt::store::create_empty_database(path);
    REQUIRE_NOTHROW(mt::store::check_readable(path));
    Db db = Db::open_readonly(path, 100);
    CHECK(db.query_int("PRAGMA user_version") == mt::store::kSchemaVersion);
    CHECK(mt::store::run_count(db) == 0);
    // The writer takes it as its own.
    REQUIRE_NOTHROW(mt::store::open_database(path));
}

TEST_CASE("store: a newer schema is refused by the writer and by the readers, nothing written", "[store][schema][version]") {
    mt::test::StoreDir d;
    std::string path = d.file("newer.db");
    mt::store::create_empty_database(path);
    Db::open(path, false).exec("PRAGMA user_version = 6");
    std::string before = read_file(path);
    CHECK_THAT(refusal([&] { mt::store::check_readable(path); }),
               Catch::Contains("has schema version 6, written by a newer MemTracer; this MemTracer reads version 5"));
    CHECK_THAT(refusal([&] { mt::store::open_database(path); }),
               Catch::Contains("schema version 6 (PRAGMA user_version), written by a newer memtracer-symbolize") &&
                   Catch::Contains("reads and writes schema version 5; nothing was written"));
    CHECK(read_file(path) == before);
    // A newer tool may also say so in meta only.
    std::string meta = d.file("meta.db");
    mt::store::create_empty_database(meta);
    Db::open(meta, false).exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', '6')");
    CHECK_THAT(refusal([&] { mt::store::open_database(meta); }), Catch::Contains("schema version 6 (meta.schema_version)"));
}

TEST_CASE("store: an older schema (user_version 0) or another program's file is refused with what it holds", "[store][schema][version]") {
    mt::test::StoreDir d;
    std::string older = d.file("older.db");
    mt::store::create_empty_database(older);
    Db::open(older, false).exec("PRAGMA user_version = 0");
    CHECK_THAT(refusal([&] { mt::store::check_readable(older); }),
               Catch::Contains("is not a MemTracer database (SQLite user_version 0, tables of another program)"));
    CHECK_THAT(refusal([&] { mt::store::open_database(older); }),
               Catch::Contains("not a MemTracer database (user_version 0; it holds: "));

    std::string other = d.file("other.db");
    Db::open(other, true).exec("PRAGMA user_version = 1; CREATE TABLE photos(id INTEGER)");
    CHECK_THAT(refusal([&] { mt::store::check_readable(other); }),
               Catch::Contains("is not a MemTracer database (it claims schema version 1 but has no table"));
    CHECK_THAT(refusal([&] { mt::store::open_database(other); }),
               Catch::Contains("without MemTracer's tables") && Catch::Contains("it holds: photos"));

    std::string text = d.file("text.db");
    std::ofstream(text) << std::string(4096, 'x');
    CHECK_THAT(refusal([&] { mt::store::check_readable(text); }), Catch::Contains("is not a MemTracer database: file is not a database"));
    CHECK_THAT(refusal([&] { mt::store::open_database(text); }), Catch::Contains("not a SQLite database"));
}

TEST_CASE("store: a version-1 file from before the added columns is migrated, its rows kept", "[store][schema][migration]") {
    mt::test::StoreDir d;
    std::string path = d.file("v1-early.db");
    mt::store::create_empty_database(path);
    {
        // The first release of version 1: addresses without quality and answered_by.
        Db db = Db::open(path, false);
        mt::test::use_version2_cache(db);
        db.exec("PRAGMA user_version = 1; UPDATE meta SET value = '1' WHERE key = 'schema_version'");
        db.exec("ALTER TABLE addresses DROP COLUMN answered_by; ALTER TABLE addresses DROP COLUMN quality");
        db.exec("INSERT INTO addresses(addr_id, build_id, module_path, file_address, symbolized) VALUES (7, 'b', 'm', 4096, 1)");
        REQUIRE_FALSE(has(columns_of(db, "addresses"), "quality"));
    }
    {
        auto opened = mt::store::open_database(path);
        CHECK_FALSE(opened.created);
        auto cols = columns_of(opened.db, "addresses");
        CHECK(has(cols, "quality"));
        CHECK(has(cols, "answered_by"));
        auto row = opened.db.prepare("SELECT file_address, symbolized, quality, answered_by FROM addresses WHERE addr_id = 7");
        REQUIRE(row.step());
        CHECK(row.i64(0) == 4096);
        CHECK(row.i64(1) == 1);
        CHECK(row.i64(2) == 0);  // the columns' defaults
        CHECK(row.i64(3) == 0);
        mt::store::finish_database(opened.db);
    }
    CHECK_NOTHROW(mt::store::check_readable(path));
}

TEST_CASE("store: the upload job's run id is the newest run of its source file", "[store][queries]") {
    mt::test::StoreDir d;
    std::string path = d.file("runs.db");
    mt::store::create_empty_database(path);
    CHECK_FALSE(mt::store::newest_run_for_source(path, "/data/runs/1.mt").has_value());
    {
        Db db = Db::open(path, false);
        insert_run(db, "/data/runs/1.mt");
        insert_run(db, "/data/runs/2.mt");
        insert_run(db, "/data/runs/1.mt");
        CHECK(mt::store::run_count(db) == 3);
    }
    CHECK(mt::store::newest_run_for_source(path, "/data/runs/1.mt") == 3);
    CHECK(mt::store::newest_run_for_source(path, "/data/runs/2.mt") == 2);
    CHECK_FALSE(mt::store::newest_run_for_source(path, "/data/runs/3.mt").has_value());
    CHECK_THROWS_AS(mt::store::newest_run_for_source(d.file("absent.db"), "/data/runs/1.mt"), Error);
}

TEST_CASE("store: a database from before runs.live_state is readable, and the writer adds the column", "[store][schema][migration]") {
    mt::test::StoreDir d;
    std::string path = d.file("before-follow.db");
    mt::store::create_empty_database(path);
    {
        Db db = Db::open(path, false);
        insert_run(db, "/data/runs/1.mt");
        db.exec("ALTER TABLE runs DROP COLUMN live_state");
        REQUIRE_FALSE(has(columns_of(db, "runs"), "live_state"));
    }
    CHECK_NOTHROW(mt::store::check_readable(path));  // the viewer serves it as it is
    {
        auto opened = mt::store::open_database(path);
        CHECK(has(columns_of(opened.db, "runs"), "live_state"));
        CHECK(opened.db.query_int("SELECT count(*) FROM runs WHERE live_state = ''") == 1);  // not a followed run
        mt::store::finish_database(opened.db);
    }
}

TEST_CASE("store: a database from before stacks.machinery is readable, and the writer adds the column", "[store][schema][migration]") {
    mt::test::StoreDir d;
    std::string path = d.file("before-machinery.db");
    mt::store::create_empty_database(path);
    {
        Db db = Db::open(path, false);
        insert_run(db, "/data/runs/1.mt");
        db.exec("ALTER TABLE stacks DROP COLUMN machinery");
        db.exec("INSERT INTO stacks(run_id, stack_id, depth, site_id) VALUES (1, 0, 3, NULL)");
        REQUIRE_FALSE(has(columns_of(db, "stacks"), "machinery"));
    }
    CHECK_NOTHROW(mt::store::check_readable(path));  // the viewer serves it as it is, nothing trimmed
    {
        auto opened = mt::store::open_database(path);
        CHECK(has(columns_of(opened.db, "stacks"), "machinery"));
        CHECK(opened.db.query_int("SELECT machinery FROM stacks WHERE run_id = 1 AND stack_id = 0") == 0);
        mt::store::finish_database(opened.db);
    }
}

TEST_CASE("store: remove_database deletes a database and every companion file, quietly", "[store]") {
    mt::test::StoreDir d;
    const std::string db = d.file("gone.db");
    {
        auto opened = mt::store::open_database(db);
    }
    // A crash leaves any of them beside the database: the journal of a created file, the WAL and
    // its index of an appended one.
    for (const char *suffix : {"-journal", "-wal", "-shm"}) std::ofstream(db + suffix) << "x";
    std::ofstream(d.file("gone.db.keep")) << "not a companion";
    mt::store::remove_database(db);
    for (const char *suffix : {"", "-journal", "-wal", "-shm"}) CHECK_FALSE(std::filesystem::exists(db + suffix));
    CHECK(std::filesystem::exists(d.file("gone.db.keep")));
    mt::store::remove_database(db);  // nothing there: no error
    mt::store::remove_database(d.file("never-was.db"));
}
