// db.h — the one RAII wrapper over SQLite for every MemTracer host tool: Db owns a connection and
// a cache of prepared statements, Stmt a statement (owned, or borrowed from the cache and reset
// when the borrower is done), Transaction a BEGIN IMMEDIATE .. COMMIT. Failures throw
// store::Error naming the statement and the file. Every value is bound as a parameter, never
// spliced into SQL text.
#ifndef MEMTRACER_STORE_DB_H
#define MEMTRACER_STORE_DB_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "memtracer/store/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace mt::store {

class Stmt {
public:
    Stmt() = default;
    // Prepares `sql` on `db`, owned by this Stmt (finalized by its destructor).
    Stmt(sqlite3 *db, std::string_view sql);
    ~Stmt();
    Stmt(Stmt &&o) noexcept : st_(o.st_), owned_(o.owned_) { o.st_ = nullptr; }
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
    Stmt &bind(int i, const char *v) { return bind(i, std::string_view(v)); }
    Stmt &bind(int i, const std::string &v) { return bind(i, std::string_view(v)); }
    template <class T>
    Stmt &bind(int i, const std::optional<T> &v) { return v ? bind(i, *v) : bind_null(i); }
    // Text that outlives the next step(): SQLite does not copy it.
    Stmt &bind_static(int i, std::string_view v);
    Stmt &bind_null(int i);
    Stmt &bind_blob(int i, std::string_view bytes);  // copied (SQLITE_TRANSIENT)
    // Binds its arguments to ?1, ?2, ... in order.
    template <class... A>
    Stmt &binds(const A &...a) {
        int i = 0;
        (bind(++i, a), ...);
        return *this;
    }

    bool step();   // true: a row is available; false: done. Throws Error.
    void run();    // step to completion, then reset for the next use (bindings kept)
    void reset();  // reset and clear the bindings

    int64_t i64(int col) const;
    double f64(int col) const;
    bool null(int col) const;
    std::string_view text(int col) const;  // valid until the next step() or reset()
    std::string str(int col) const { return std::string(text(col)); }
    std::string_view blob(int col) const;  // valid until the next step() or reset()
    int columns() const;
    const char *sql() const;

private:
    friend class Db;
    static Stmt borrowed(sqlite3_stmt *s) {
        Stmt b;
        b.st_ = s;
        b.owned_ = false;
        return b;
    }
    [[noreturn]] void fail(int rc) const;
    void release() noexcept;
    sqlite3_stmt *st_ = nullptr;
    bool owned_ = true;
};

class Db {
public:
    Db() = default;
    // Opens (creating if `create`) the database read-write. Throws Error.
    static Db open(const std::string &path, bool create);
    // Opens an existing database read-only (the viewer, the upload job: the symbolizer is the
    // only writer), waiting up to `busy_ms` for a writer's lock. Throws Error.
    static Db open_readonly(const std::string &path, int busy_ms);
    ~Db();
    Db(Db &&o) noexcept;
    Db &operator=(Db &&o) noexcept;
    Db(const Db &) = delete;
    Db &operator=(const Db &) = delete;

    void exec(std::string_view sql);
    // exec that reports failure as false instead of throwing (BEGIN/ROLLBACK on an error path).
    bool try_exec(const char *sql) noexcept;
    // A statement owned by the caller: for bulk inserts held for a whole ingest, and for SQL
    // built at run time.
    Stmt prepare(std::string_view sql) { return Stmt(db_, sql); }
    // A statement from this connection's cache, prepared the first time its text is seen and
    // reset (bindings cleared) when the returned Stmt is destroyed. The SQL must be a constant:
    // the cache is keyed by its text.
    Stmt cached(std::string_view sql);
    size_t cached_count() const { return cache_.size(); }
    int64_t last_insert_rowid() const;
    // Rows the last INSERT/UPDATE/DELETE changed (0: an ON CONFLICT DO NOTHING that did nothing).
    int64_t changes() const;
    // Single integer of a one-row query (e.g. PRAGMA user_version); nullopt when no row.
    std::optional<int64_t> query_int(std::string_view sql);
    sqlite3 *get() const { return db_; }
    const std::string &path() const { return path_; }
    void close();

private:
    sqlite3 *db_ = nullptr;
    std::string path_;
    std::unordered_map<std::string, sqlite3_stmt *> cache_;
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

// BEGIN .. COMMIT for a reader: every query in between sees one snapshot, even while the
// symbolizer commits. Rolls back unless end() ran. Never throws: a snapshot that cannot begin or
// end changes nothing a reader sees but its consistency across statements.
class ReadTransaction {
public:
    explicit ReadTransaction(Db &db) noexcept : db_(db) { db_.try_exec("BEGIN"); }
    ~ReadTransaction() {
        if (!done_) db_.try_exec("ROLLBACK");
    }
    ReadTransaction(const ReadTransaction &) = delete;
    ReadTransaction &operator=(const ReadTransaction &) = delete;
    void end() noexcept {
        db_.try_exec("COMMIT");
        done_ = true;
    }

private:
    Db &db_;
    bool done_ = false;
};

}  // namespace mt::store

#endif
