#include "sqlite.h"

#include <stdexcept>

namespace mt::viewer {

Stmt &Stmt::bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
}

Stmt &Stmt::bind(int i, std::string_view v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
}

bool Stmt::step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(sqlite3_db_handle(s_)));
}

sqlite3_stmt *Database::Impl::prepare(std::string_view sql) {
    auto key = std::string(sql);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    sqlite3_stmt *s = nullptr;
    if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &s,
                           nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string("sqlite prepare: ") + sqlite3_errmsg(db));
    cache.emplace(std::move(key), s);
    return s;
}

Database::Impl::~Impl() {
    for (auto &[_, s] : cache) sqlite3_finalize(s);
    if (db) sqlite3_close_v2(db);
}

Database::Database(const std::string &path) : path_(path), impl_(std::make_unique<Impl>()) {
    // READONLY: the viewer never writes the database; the symbolizer is the only writer.
    int rc = sqlite3_open_v2(path.c_str(), &impl_->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string why = impl_->db ? sqlite3_errmsg(impl_->db) : sqlite3_errstr(rc);
        throw std::runtime_error("cannot open database " + path + ": " + why);
    }
    // A symbolizer committing a new run holds a lock briefly; wait rather than fail.
    sqlite3_busy_timeout(impl_->db, 5000);
    sqlite3_exec(impl_->db, "PRAGMA cache_size=-65536", nullptr, nullptr, nullptr);
    // Fail now, with the reason, on a file that is not a MemTracer database.
    sqlite3_stmt *s = nullptr;
    rc = sqlite3_prepare_v2(impl_->db, "SELECT count(*) FROM runs", -1, &s, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_step(s) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(impl_->db);
    std::string why = rc == SQLITE_OK ? "" : sqlite3_errmsg(impl_->db);
    sqlite3_finalize(s);
    if (rc != SQLITE_OK) throw std::runtime_error(path + " is not a MemTracer database: " + why);
}

Database::~Database() = default;

sqlite3 *Database::handle() const { return impl_->db; }

}  // namespace mt::viewer
