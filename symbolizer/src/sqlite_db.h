// sqlite_db.h — RAII over sqlite3* and sqlite3_stmt*, errors as Error(Database) naming the
// statement. Statements are prepared once and re-run with reset() for bulk inserts.
#ifndef MEMTRACER_SYM_SQLITE_DB_H
#define MEMTRACER_SYM_SQLITE_DB_H

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mt::sym {

class Stmt {
public:
    Stmt() = default;
    Stmt(sqlite3 *db, std::string_view sql);
    ~Stmt();
    Stmt(Stmt &&o) noexcept : db_(o.db_), st_(o.st_) { o.st_ = nullptr; }
    Stmt &operator=(Stmt &&o) noexcept;
    Stmt(const Stmt &) = delete;
    Stmt &operator=(const Stmt &) = delete;

    // Binding uses 1-based indices like SQLite. uint64_t is stored as its two's complement
    // int64 bit pattern (addresses above 2^63 read back negative).
    Stmt &bind(int i, int64_t v);
    Stmt &bind(int i, uint64_t v) { return bind(i, static_cast<int64_t>(v)); }
    Stmt &bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
    Stmt &bind(int i, uint32_t v) { return bind(i, static_cast<int64_t>(v)); }
    Stmt &bind(int i, double v);
    Stmt &bind(int i, std::string_view v);
    // Text that outlives the next step(): SQLite does not copy it.
    Stmt &bind_static(int i, std::string_view v);
    Stmt &bind(int i, const char *v) { return bind(i, std::string_view(v)); }
    Stmt &bind(int i, const std::string &v) { return bind(i, std::string_view(v)); }
    Stmt &bind_null(int i);
    Stmt &bind_blob(int i, std::string_view bytes);
    template <class T>
    Stmt &bind(int i, const std::optional<T> &v) { return v ? bind(i, *v) : bind_null(i); }

    bool step();   // true: a row is available; false: done. Throws on error.
    void run();    // step to completion, then reset for the next use
    void reset();

    int64_t int64(int col) const { return sqlite3_column_int64(st_, col); }
    double real(int col) const { return sqlite3_column_double(st_, col); }
    std::string text(int col) const;
    bool is_null(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }

private:
    [[noreturn]] void fail(int rc) const;
    sqlite3 *db_ = nullptr;
    sqlite3_stmt *st_ = nullptr;
};

class Db {
public:
    Db() = default;
    // Opens (creating if `create`) the database. Throws Error(Database).
    static Db open(const std::string &path, bool create);
    ~Db();
    Db(Db &&o) noexcept : db_(o.db_), path_(std::move(o.path_)) { o.db_ = nullptr; }
    Db &operator=(Db &&o) noexcept;
    Db(const Db &) = delete;
    Db &operator=(const Db &) = delete;

    void exec(std::string_view sql);
    Stmt prepare(std::string_view sql) { return Stmt(db_, sql); }
    int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
    // Single integer of a one-row query (e.g. PRAGMA user_version); nullopt when no row.
    std::optional<int64_t> query_int(std::string_view sql);
    sqlite3 *get() const { return db_; }
    const std::string &path() const { return path_; }
    void close();

private:
    sqlite3 *db_ = nullptr;
    std::string path_;
};

// BEGIN IMMEDIATE .. COMMIT; rolls back unless commit() ran, so an exception anywhere in an
// input's ingest leaves the database as it was.
class Transaction {
public:
    explicit Transaction(Db &db);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

private:
    Db &db_;
    bool done_ = false;
};

}  // namespace mt::sym

#endif
