#include "schema.h"

#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"
#include "schema_sql.h"  // generated from schema.sql: kSchemaSql

namespace mt::sym {

namespace {

constexpr std::string_view kMarker = "-- @after-bulk-load";

// Columns added to version 1 after its first release, for databases created before them.
struct AddedColumn {
    const char *table, *column, *decl;
};
constexpr AddedColumn kAddedColumns[] = {
    {"addresses", "quality", "INTEGER NOT NULL DEFAULT 0"},
};

bool has_column(Db &db, const char *table, const char *column) {
    Stmt st = db.prepare(std::string("PRAGMA table_info(") + table + ")");
    while (st.step())
        if (st.text(1) == column) return true;
    return false;
}

}  // namespace

std::string_view schema_tables_sql() {
    std::string_view all(kSchemaSql);
    return all.substr(0, all.find(kMarker));
}

std::string_view schema_indexes_sql() {
    std::string_view all(kSchemaSql);
    size_t at = all.find(kMarker);
    return at == std::string_view::npos ? std::string_view() : all.substr(at);
}

namespace {

OpenedDb open_and_prepare(const std::string &path, bool created);

}  // namespace

OpenedDb open_database(const std::string &path) {
    struct stat sb;
    bool existed = stat(path.c_str(), &sb) == 0;
    try {
        return open_and_prepare(path, !existed);
    } catch (const Error &) {
        // Not even the schema could be written: leave no empty file behind.
        if (!existed)
            for (const char *suffix : {"", "-journal", "-wal", "-shm"}) unlink((path + suffix).c_str());
        throw;
    }
}

namespace {

OpenedDb open_and_prepare(const std::string &path, bool created) {
    OpenedDb out;
    out.db = Db::open(path, true);
    out.created = created;
    Db &db = out.db;
    int64_t version = 0, tables = 0;
    try {
        version = db.query_int("PRAGMA user_version").value_or(0);
        tables = db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'table'").value_or(0);
    } catch (const Error &e) {
        throw database_error(path + ": not a SQLite database (" + e.what() + ")");
    }
    if (version > kSchemaVersion)
        throw database_error(path + ": schema version " + std::to_string(version) +
                             " was written by a newer memtracer-symbolize; this one writes version " +
                             std::to_string(kSchemaVersion));
    if (version == 0 && tables > 0)
        throw database_error(path + ": an existing SQLite database that is not a MemTracer database (user_version 0)");

    // See schema.h: a database others may be reading is written in WAL mode; one this call
    // creates (nobody can be reading it yet) with a rollback journal, which writes each new page
    // once instead of twice (WAL, then checkpoint).
    if (out.created) {
        db.exec("PRAGMA journal_mode = DELETE");
        db.exec("PRAGMA synchronous = FULL");
    } else {
        db.exec("PRAGMA journal_mode = WAL");  // cannot change inside a transaction; persists until finish_database
        db.exec("PRAGMA synchronous = NORMAL");
    }
    db.exec("PRAGMA cache_size = -262144");  // 256 MiB: bulk inserts into WITHOUT ROWID b-trees
    db.exec("PRAGMA temp_store = MEMORY");
    db.exec("PRAGMA threads = 2");  // helper threads for the sorts of CREATE INDEX after a bulk load

    Transaction tx(db);
    db.exec(schema_tables_sql());
    for (const AddedColumn &c : kAddedColumns)
        if (!has_column(db, c.table, c.column))
            db.exec(std::string("ALTER TABLE ") + c.table + " ADD COLUMN " + c.column + " " + c.decl);
    Stmt meta = db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES (?1, ?2)");
    meta.bind(1, "schema_version").bind(2, std::to_string(kSchemaVersion)).run();
    meta.bind(1, "created_by").bind(2, "memtracer-symbolize " MEMTRACER_VERSION).run();
    meta = Stmt();
    tx.commit();
    return out;
}

}  // namespace

void create_secondary_indexes(Db &db) { db.exec(schema_indexes_sql()); }

void finish_database(Db &db) {
    try {
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        db.exec("PRAGMA journal_mode = DELETE");
    } catch (const Error &) {
        // Busy: someone is reading. The WAL file stays beside the database, which is fine.
    }
}

}  // namespace mt::sym
