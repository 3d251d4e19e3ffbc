// check.cpp — the readers' side of the contract (moved from viewer-api/server/db_pool.cpp):
// whether a file is a MemTracer database this build can serve, and an empty one to start from.
#include <algorithm>
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
        for (auto &t : column(db, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"))
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

}  // namespace

void check_readable(const std::string &path) {
    const Schema &want = expected_schema();
    Db db = Db::open_readonly(path, 5000);
    int64_t version = 0;
    std::vector<std::string> tables;
    try {
        version = db.query_int("PRAGMA user_version").value_or(0);
        tables = column(db, "SELECT name FROM sqlite_master WHERE type='table'");
    } catch (const Error &e) {
        throw Error(path + " is not a MemTracer database: " + e.message(), e.code(), path);
    }
    std::string vs = std::to_string(version), ws = std::to_string(want.version);
    auto refuse = [&](const std::string &why) { throw Error(path + why, 0, path); };
    if (version > want.version) refuse(" has schema version " + vs + ", written by a newer MemTracer; this viewer reads version " + ws);
    if (version == 0)
        refuse(std::string(" is not a MemTracer database (SQLite user_version 0") +
               (tables.empty() ? ", no tables)" : ", tables of another program)"));
    if (version < kOldestReadableVersion)
        refuse(" has schema version " + vs + "; this viewer reads versions " + std::to_string(kOldestReadableVersion) + " to " + ws);
    for (const auto &[table, cols] : want.tables) {
        if (std::find(tables.begin(), tables.end(), table) == tables.end())
            refuse(" is not a MemTracer database of version " + vs + ": no table '" + table + "'");
        auto have = table_columns(db, table);
        for (const auto &c : cols)
            if (!added_later(table, c) && !(version < 2 && added_in_v2(table, c)) && std::find(have.begin(), have.end(), c) == have.end())
                refuse(" is not a MemTracer database of version " + vs + ": table '" + table + "' has no column '" + c + "'");
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
