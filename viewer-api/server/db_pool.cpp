#include "db_pool.h"

#include <sqlite3.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "schema_sql.h"  // generated: kSchemaSql, the text of symbolizer/schema.sql

namespace mt::viewer {

namespace {
std::atomic<uint64_t> next_pool_id{1};

struct Conn {
    std::unique_ptr<Database> db;
    uint64_t generation = 0;
};
thread_local std::unordered_map<uint64_t, Conn> conns;

using DbHandle = std::unique_ptr<sqlite3, int (*)(sqlite3 *)>;

DbHandle open_db(const std::string &path, int flags) {
    sqlite3 *db = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
    DbHandle h(db, sqlite3_close_v2);
    if (rc != SQLITE_OK) throw std::runtime_error("cannot open database " + path + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
    return h;
}

// Rows of a one-column query; throws with SQLite's message (e.g. "file is not a database").
std::vector<std::string> column(sqlite3 *db, const std::string &sql) {
    sqlite3_stmt *s = nullptr;
    std::vector<std::string> out;
    int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
    if (rc == SQLITE_OK)
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            auto t = sqlite3_column_text(s, 0);
            out.emplace_back(t ? reinterpret_cast<const char *>(t) : "");
        }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db));
    return out;
}

std::vector<std::string> table_columns(sqlite3 *db, const std::string &table) {
    return column(db, "SELECT name FROM pragma_table_info('" + table + "')");  // names from our own schema
}

struct Schema {
    int64_t version = 0;
    std::vector<std::pair<std::string, std::vector<std::string>>> tables;
};

// What symbolizer/schema.sql creates, read back from an in-memory database made from it: the
// schema file stays the one place that says which version and which tables are ours.
const Schema &expected_schema() {
    static const Schema schema = [] {
        auto db = open_db(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        char *err = nullptr;
        if (sqlite3_exec(db.get(), kSchemaSql, nullptr, nullptr, &err) != SQLITE_OK) {
            std::string why = err ? err : "?";
            sqlite3_free(err);
            throw std::runtime_error("the embedded schema does not apply: " + why);
        }
        Schema s;
        s.version = std::stoll(column(db.get(), "PRAGMA user_version").at(0));
        for (auto &t : column(db.get(), "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"))
            s.tables.emplace_back(t, table_columns(db.get(), t));
        return s;
    }();
    return schema;
}

// Added to version 1 after its release (symbolizer/src/schema.cpp, kAddedColumns): an older
// version-1 database may lack it, and the viewer does not read it.
bool added_later(const std::string &table, const std::string &col) { return table == "addresses" && col == "quality"; }
}  // namespace

void check_database(const std::string &path) {
    const Schema &want = expected_schema();
    auto db = open_db(path, SQLITE_OPEN_READONLY);
    int64_t version = 0;
    std::vector<std::string> tables;
    try {
        version = std::stoll(column(db.get(), "PRAGMA user_version").at(0));
        tables = column(db.get(), "SELECT name FROM sqlite_master WHERE type='table'");
    } catch (const std::exception &e) {
        throw std::runtime_error(path + " is not a MemTracer database: " + e.what());
    }
    std::string vs = std::to_string(version), ws = std::to_string(want.version);
    if (version > want.version)
        throw std::runtime_error(path + " has schema version " + vs + ", written by a newer MemTracer; this viewer reads version " + ws);
    if (version == 0)
        throw std::runtime_error(path + " is not a MemTracer database (SQLite user_version 0" +
                                 (tables.empty() ? ", no tables)" : ", tables of another program)"));
    if (version < want.version)
        throw std::runtime_error(path + " has schema version " + vs + "; this viewer reads version " + ws);
    for (const auto &[table, cols] : want.tables) {
        if (std::find(tables.begin(), tables.end(), table) == tables.end())
            throw std::runtime_error(path + " is not a MemTracer database of version " + ws + ": no table '" + table + "'");
        auto have = table_columns(db.get(), table);
        for (const auto &c : cols)
            if (!added_later(table, c) && std::find(have.begin(), have.end(), c) == have.end())
                throw std::runtime_error(path + " is not a MemTracer database of version " + ws + ": table '" + table +
                                         "' has no column '" + c + "'");
    }
}

DbPool::DbPool(std::string path) : path_(std::move(path)), id_(next_pool_id++) {}

Database &DbPool::local() {
    auto &c = conns[id_];
    uint64_t gen = generation_.load();
    if (!c.db || c.generation != gen) {
        c.db.reset();
        check_database(path_);  // a newer or foreign database is refused with its reason, not served as 500s
        c.db = std::make_unique<Database>(path_);
        c.generation = gen;
    }
    return *c.db;
}

void create_empty_database(const std::string &path) {
    sqlite3 *db = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3 *)> guard(db, sqlite3_close_v2);
    char *err = nullptr;
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, kSchemaSql, nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string why = err ? err : db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_free(err);
        throw std::runtime_error("cannot create database " + path + ": " + why);
    }
}

}  // namespace mt::viewer
