// database.cpp — a Database is one backend connection (backend.h): a run.db through the SQLite
// backend, or whatever backend the caller opened (fleet/'s ClickHouse one).
#include <stdexcept>

#include "memtracer/viewer/backend.h"
#include "memtracer/viewer/query.h"

namespace mt::viewer {

Database::Database(const std::string &path) : path_(path), backend_(open_sqlite_backend(path)) {}

Database::Database(std::unique_ptr<RunBackend> backend) : backend_(std::move(backend)) {
    if (!backend_) throw std::invalid_argument("Database: no backend");
    path_ = backend_->name();
}

Database::~Database() = default;

}  // namespace mt::viewer
