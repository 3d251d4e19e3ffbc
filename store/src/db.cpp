#include "memtracer/store/db.h"

#include <sqlite3.h>

#include "memtracer/store/int_rows.h"

namespace mt::store {

namespace {
std::string file_of(sqlite3 *db) {
    const char *f = db ? sqlite3_db_filename(db, "main") : nullptr;
    return f ? f : "";
}
}  // namespace

Stmt::Stmt(sqlite3 *db, std::string_view sql) {
    int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st_, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = sqlite3_errmsg(db), text(sql.substr(0, 200));
        throw Error(msg + " in: " + text, sqlite3_extended_errcode(db), file_of(db), std::string(sql), msg);
    }
}

Stmt::~Stmt() { release(); }

// An owned statement is finalized; a borrowed one goes back to its connection's cache reset,
// with no bindings, for the next borrower.
void Stmt::release() noexcept {
    if (!st_) return;
    if (owned_) {
        sqlite3_finalize(st_);
    } else {
        sqlite3_reset(st_);
        sqlite3_clear_bindings(st_);
    }
    st_ = nullptr;
}

Stmt &Stmt::operator=(Stmt &&o) noexcept {
    if (this != &o) {
        release();
        st_ = o.st_;
        owned_ = o.owned_;
        o.st_ = nullptr;
    }
    return *this;
}

void Stmt::fail(int rc) const {
    sqlite3 *db = sqlite3_db_handle(st_);
    std::string sql = st_ ? sqlite3_sql(st_) : "", msg = sqlite3_errmsg(db);
    throw Error(msg + " (" + sqlite3_errstr(rc) + ") in: " + sql.substr(0, 200), rc, file_of(db), sql, msg);
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

int64_t Stmt::i64(int col) const { return sqlite3_column_int64(st_, col); }
double Stmt::f64(int col) const { return sqlite3_column_double(st_, col); }
bool Stmt::null(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }
std::string_view Stmt::blob(int col) const {
    auto *p = static_cast<const char *>(sqlite3_column_blob(st_, col));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(st_, col))) : std::string_view();
}
std::string_view Stmt::text(int col) const {
    auto *p = reinterpret_cast<const char *>(sqlite3_column_text(st_, col));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(st_, col))) : std::string_view();
}
int Stmt::columns() const { return sqlite3_column_count(st_); }
const char *Stmt::sql() const { return st_ ? sqlite3_sql(st_) : ""; }

Db Db::open(const std::string &path, bool create) {
    Db d;
    d.path_ = path;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
    int rc = sqlite3_open_v2(path.c_str(), &d.db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = d.db_ ? sqlite3_errmsg(d.db_) : sqlite3_errstr(rc);
        throw Error(path + ": cannot open database: " + msg, rc, path, "", msg);
    }
    sqlite3_extended_result_codes(d.db_, 1);
    detail::add_int_rows_function(d.db_);
    // Another process (the viewer) may be reading; wait for it rather than fail.
    sqlite3_busy_timeout(d.db_, 10000);
    return d;
}

Db Db::open_readonly(const std::string &path, int busy_ms) {
    Db d;
    d.path_ = path;
    int rc = sqlite3_open_v2(path.c_str(), &d.db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = d.db_ ? sqlite3_errmsg(d.db_) : sqlite3_errstr(rc);
        throw Error(path + ": cannot open database: " + msg, rc, path, "", msg);
    }
    sqlite3_extended_result_codes(d.db_, 1);
    detail::add_int_rows_function(d.db_);
    // A symbolizer committing a new run holds a lock briefly; wait rather than fail.
    sqlite3_busy_timeout(d.db_, busy_ms);
    return d;
}

Db::~Db() { close(); }

Db::Db(Db &&o) noexcept : db_(o.db_), path_(std::move(o.path_)), cache_(std::move(o.cache_)) {
    o.db_ = nullptr;
    o.cache_.clear();
}

Db &Db::operator=(Db &&o) noexcept {
    if (this != &o) {
        close();
        db_ = o.db_;
        path_ = std::move(o.path_);
        cache_ = std::move(o.cache_);
        o.db_ = nullptr;
        o.cache_.clear();
    }
    return *this;
}

void Db::close() {
    for (auto &[_, s] : cache_) sqlite3_finalize(s);
    cache_.clear();
    if (db_) sqlite3_close_v2(db_);
    db_ = nullptr;
}

void Db::exec(std::string_view sql) {
    std::string s(sql);
    char *err = nullptr;
    if (int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        throw Error(path_ + ": " + msg + " in: " + s.substr(0, 200), sqlite3_extended_errcode(db_), path_, s, msg);
    }
}

bool Db::try_exec(const char *sql) noexcept { return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }

Stmt Db::cached(std::string_view sql) {
    auto key = std::string(sql);
    if (auto it = cache_.find(key); it != cache_.end()) return Stmt::borrowed(it->second);
    Stmt fresh(db_, sql);
    sqlite3_stmt *s = fresh.st_;
    fresh.st_ = nullptr;
    cache_.emplace(std::move(key), s);
    return Stmt::borrowed(s);
}

int64_t Db::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

int64_t Db::changes() const { return sqlite3_changes64(db_); }

std::optional<int64_t> Db::query_int(std::string_view sql) {
    Stmt st(db_, sql);
    if (!st.step()) return std::nullopt;
    return st.i64(0);
}

Transaction::Transaction(Db &db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_) db_.try_exec("ROLLBACK");
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace mt::store
