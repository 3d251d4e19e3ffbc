#include "sqlite_db.h"

#include "errors.h"

namespace mt::sym {

Stmt::Stmt(sqlite3 *db, std::string_view sql) : db_(db) {
    int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st_, nullptr);
    if (rc != SQLITE_OK)
        throw database_error(std::string(sqlite3_errmsg(db)) + " in: " + std::string(sql.substr(0, 200)));
}

Stmt::~Stmt() { sqlite3_finalize(st_); }

Stmt &Stmt::operator=(Stmt &&o) noexcept {
    if (this != &o) {
        sqlite3_finalize(st_);
        db_ = o.db_;
        st_ = o.st_;
        o.st_ = nullptr;
    }
    return *this;
}

void Stmt::fail(int rc) const {
    const char *sql = st_ ? sqlite3_sql(st_) : "";
    throw database_error(std::string(sqlite3_errmsg(db_)) + " (" + sqlite3_errstr(rc) + ") in: " +
                         std::string(sql).substr(0, 200));
}

Stmt &Stmt::bind(int i, int64_t v) {
    if (int rc = sqlite3_bind_int64(st_, i, v); rc != SQLITE_OK) fail(rc);
    return *this;
}
Stmt &Stmt::bind(int i, double v) {
    if (int rc = sqlite3_bind_double(st_, i, v); rc != SQLITE_OK) fail(rc);
    return *this;
}
Stmt &Stmt::bind(int i, std::string_view v) {
    if (int rc = sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); rc != SQLITE_OK) fail(rc);
    return *this;
}
Stmt &Stmt::bind_static(int i, std::string_view v) {
    if (int rc = sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC); rc != SQLITE_OK) fail(rc);
    return *this;
}
Stmt &Stmt::bind_blob(int i, std::string_view v) {
    if (int rc = sqlite3_bind_blob(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); rc != SQLITE_OK) fail(rc);
    return *this;
}
Stmt &Stmt::bind_null(int i) {
    if (int rc = sqlite3_bind_null(st_, i); rc != SQLITE_OK) fail(rc);
    return *this;
}

bool Stmt::step() {
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    sqlite3_reset(st_);
    fail(rc);
}

void Stmt::run() {
    while (step()) {
    }
    // Bulk inserts rebind every parameter, so the bindings need no clearing here.
    sqlite3_reset(st_);
}

void Stmt::reset() {
    sqlite3_reset(st_);
    sqlite3_clear_bindings(st_);
}

std::string Stmt::text(int col) const {
    const unsigned char *p = sqlite3_column_text(st_, col);
    return p ? std::string(reinterpret_cast<const char *>(p), static_cast<size_t>(sqlite3_column_bytes(st_, col))) : std::string();
}

Db Db::open(const std::string &path, bool create) {
    Db d;
    d.path_ = path;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
    int rc = sqlite3_open_v2(path.c_str(), &d.db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = d.db_ ? sqlite3_errmsg(d.db_) : sqlite3_errstr(rc);
        throw database_error(path + ": cannot open database: " + msg);
    }
    sqlite3_extended_result_codes(d.db_, 1);
    // Another process (the viewer) may be reading; wait for it rather than fail.
    sqlite3_busy_timeout(d.db_, 10000);
    return d;
}

Db::~Db() { close(); }

Db &Db::operator=(Db &&o) noexcept {
    if (this != &o) {
        close();
        db_ = o.db_;
        path_ = std::move(o.path_);
        o.db_ = nullptr;
    }
    return *this;
}

void Db::close() {
    if (db_) sqlite3_close_v2(db_);
    db_ = nullptr;
}

void Db::exec(std::string_view sql) {
    std::string s(sql);
    char *err = nullptr;
    if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        throw database_error(path_ + ": " + msg + " in: " + s.substr(0, 200));
    }
}

std::optional<int64_t> Db::query_int(std::string_view sql) {
    Stmt st(db_, sql);
    if (!st.step()) return std::nullopt;
    return st.int64(0);
}

Transaction::Transaction(Db &db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_) sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace mt::sym
