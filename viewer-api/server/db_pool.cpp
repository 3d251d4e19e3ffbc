#include "db_pool.h"

#include <sqlite3.h>

#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "schema_sql.h"  // generated: kSchemaSql, the text of symbolizer/schema.sql

namespace mt::viewer {

namespace {
std::atomic<uint64_t> next_pool_id{1};

struct Conn {
    std::unique_ptr<Database> db;
    uint64_t generation = 0;
};
thread_local std::unordered_map<uint64_t, Conn> conns;
}  // namespace

DbPool::DbPool(std::string path) : path_(std::move(path)), id_(next_pool_id++) {}

Database &DbPool::local() {
    auto &c = conns[id_];
    uint64_t gen = generation_.load();
    if (!c.db || c.generation != gen) {
        c.db.reset();
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
