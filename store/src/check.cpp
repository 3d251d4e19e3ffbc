// check.cpp — the readers' side of the contract (moved from viewer-api/server/db_pool.cpp):
// whether a file is a MemTracer database this build can serve, and an empty one to start from.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "memtracer/store/schema.h"

namespace mt::store {

namespace {

// Rows of a one-column query; throws Error with SQLite's message (e.g. "file is not a database").
std::vector<std::string> column(Db &db, const std::string &sql) {
    std::vector<std::string> out;
    Stmt s = db.prepare(sql);
    while (s.step()) out.push_back(s.str(0));
    return out;
}

std::vector<std::string> table_columns(Db &db, const std::string &table) {
    return column(db, "SELECT name FROM pragma_table_info('" + table + "')");  // names from our own schema
}

struct Schema {
    int64_t version = 0;
    std::vector<std::pair<std::string, std::vector<std::string>>> tables;
};

// What schema.sql creates, read back from an in-memory database made from it: the schema file
// stays the one place that says which version and which tables are ours.
const Schema &expected_schema() {
    static const Schema schema = [] {
        Db db = Db::open(":memory:", true);
        try {
            db.exec(schema_sql());
        } catch (const Error &e) {
            throw Error("the embedded schema does not apply: " + e.message(), e.code());
        }
        Schema s;
        s.version = db.query_int("PRAGMA user_version").value_or(0);
        for (auto &t : column(db, "SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name"))
            s.tables.emplace_back(t, table_columns(db, t));
        return s;
    }();
    return schema;
}

// Added after its version's release (schema.cpp, kAddedColumns): an older database may lack it,
// and the viewer does not read it or reads it only where it is there (stacks.machinery: nothing
// trimmed without it).
bool added_later(const std::string &table, const std::string &col) {
    return (table == "addresses" && col == "quality") || (table == "runs" && col == "live_state") ||
           (table == "stacks" && col == "machinery");
}

// Added by version 2: a version-1 database has none of them (the viewer then refuses thread=).
bool added_in_v2(const std::string &table, const std::string &col) {
    return col == "thread_id" || (table == "runs" && col == "thread_split") ||
           (table == "survivors" && col == "all_frames");
}

// Tables version 3 added (the address cache keyed by module, the symbols' strings once): an older
// database has its `addresses` and `symbols` tables instead, with the columns of version 3's views.
bool added_in_v3(const std::string &table) {
    return table == "address_modules" || table == "address_rows" || table == "strings" || table == "symbol_frames";
}

// The table version 4 added (address_sites, the site choice's summary per cached address): the
// writer's own cache, which no reader reads.
bool added_in_v4(const std::string &table) { return table == "address_sites"; }

// What version 5 added (the stacks' shapes; stack_frames became a view of the same columns): an
// older database has the stack_frames table instead, which readers read the same way.
bool added_in_v5(const std::string &table) { return table == "stack_shapes" || table == "shape_frames" || table == "run_biases"; }
bool added_in_v5(const std::string &table, const std::string &col) { return table == "stacks" && col == "shape_id"; }

// Added to version 4 after its release (address_blobs, the cache's rows of a module in one value:
// issue 22, tenth session): the writer's own copy, which no reader reads; a file written before it
// lacks it, and the writer adds it.
bool added_later(const std::string &table) { return table == "address_blobs"; }

}  // namespace

// SQLite's answer for a file another process holds locked (a symbolizer mid-transaction on a
// rollback-journal file, or an exclusive lock): "busy", not "not ours".
static bool locked(const Error &e) { return (e.code() & 0xff) == 5 /*SQLITE_BUSY*/ || (e.code() & 0xff) == 6 /*SQLITE_LOCKED*/; }

void check_readable(const std::string &path) {
    const Schema &want = expected_schema();
    Db db = Db::open_readonly(path, 5000);
    int64_t version = 0, meta_version = 0;
    std::vector<std::string> tables;
    try {
        version = db.query_int("PRAGMA user_version").value_or(0);
        tables = column(db, "SELECT name FROM sqlite_master WHERE type IN ('table','view')");  // addresses: a view in 3
        // A newer tool may say so in meta only (the writer's check_identity reads the same).
        if (std::find(tables.begin(), tables.end(), "meta") != tables.end())
            for (auto &v : column(db, "SELECT value FROM meta WHERE key = 'schema_version'"))
                meta_version = std::atoll(v.c_str());
    } catch (const Error &e) {
        if (locked(e))
            throw Error(path + " is locked by another process (" + e.message() + "); try again when it is done", e.code(), path);
        throw Error(path + " is not a MemTracer database: " + e.message(), e.code(), path);
    }
    std::string vs = std::to_string(version), ws = std::to_string(want.version);
    auto refuse = [&](const std::string &why) { throw Error(path + why, 0, path); };
    if (version > want.version) refuse(" has schema version " + vs + ", written by a newer MemTracer; this MemTracer reads version " + ws);
    if (meta_version > want.version)
        refuse(" has schema version " + std::to_string(meta_version) +
               " (meta.schema_version), written by a newer MemTracer; this MemTracer reads version " + ws);
    if (version == 0)
        refuse(std::string(" is not a MemTracer database (SQLite user_version 0") +
               (tables.empty() ? ", no tables)" : ", tables of another program)"));
    if (version < kOldestReadableVersion)
        refuse(" has schema version " + vs + "; this MemTracer reads versions " + std::to_string(kOldestReadableVersion) + " to " + ws);
    // A table or column missing is damage or another program's file, not a version matter: the
    // version is named only as what the file claims.
    for (const auto &[table, cols] : want.tables) {
        if ((version < 3 && added_in_v3(table)) || (version < 4 && added_in_v4(table)) || (version < 5 && added_in_v5(table)) ||
            added_later(table))
            continue;
        if (std::find(tables.begin(), tables.end(), table) == tables.end())
            refuse(" is not a MemTracer database (it claims schema version " + vs + " but has no table '" + table + "')");
        auto have = table_columns(db, table);
        for (const auto &c : cols)
            if (!added_later(table, c) && !(version < 2 && added_in_v2(table, c)) && !(version < 5 && added_in_v5(table, c)) &&
                std::find(have.begin(), have.end(), c) == have.end())
                refuse(" is not a MemTracer database (it claims schema version " + vs + " but table '" + table + "' has no column '" + c + "')");
    }
}

void create_empty_database(const std::string &path) {
    try {
        Db db = Db::open(path, true);
        db.exec(schema_sql());
    } catch (const Error &e) {
        throw Error("cannot create database " + path + ": " + e.message(), e.code(), path);
    }
}

}  // namespace mt::store
