// sqlite.h — RAII over the SQLite C API for the query layer: a cached prepared statement that
// resets itself when the borrower is done, and typed column access.
#ifndef MEMTRACER_VIEWER_SQLITE_H
#define MEMTRACER_VIEWER_SQLITE_H

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "memtracer/viewer/query.h"

namespace mt::viewer {

// Borrowed from the connection's cache; every value is bound as a parameter, never spliced
// into SQL text.
class Stmt {
public:
    explicit Stmt(sqlite3_stmt *s) : s_(s) {}
    ~Stmt() {
        sqlite3_reset(s_);
        sqlite3_clear_bindings(s_);
    }
    Stmt(const Stmt &) = delete;
    Stmt &operator=(const Stmt &) = delete;

    Stmt &bind(int i, int64_t v);
    Stmt &bind(int i, std::string_view v);
    template <class... A>
    Stmt &binds(A... a) {
        int i = 0;
        (bind(++i, a), ...);
        return *this;
    }
    bool step();  // true: a row is ready; false: done. Throws std::runtime_error on error.
    int64_t i64(int c) const { return sqlite3_column_int64(s_, c); }
    double f64(int c) const { return sqlite3_column_double(s_, c); }
    bool null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }
    std::string_view text(int c) const {
        auto *p = reinterpret_cast<const char *>(sqlite3_column_text(s_, c));
        return p ? std::string_view(p, sqlite3_column_bytes(s_, c)) : std::string_view();
    }
    std::string str(int c) const { return std::string(text(c)); }
    std::string_view blob(int c) const {
        auto *p = static_cast<const char *>(sqlite3_column_blob(s_, c));
        return p ? std::string_view(p, sqlite3_column_bytes(s_, c)) : std::string_view();
    }

private:
    sqlite3_stmt *s_;
};

struct Database::Impl {
    sqlite3 *db = nullptr;
    std::unordered_map<std::string, sqlite3_stmt *> cache;
    // The SQL must be a constant: the cache is keyed by its text.
    sqlite3_stmt *prepare(std::string_view sql);
    ~Impl();
};

// Shorthand used by every endpoint.
inline Stmt query(Database &db, std::string_view sql) { return Stmt(db.impl().prepare(sql)); }

}  // namespace mt::viewer

#endif
