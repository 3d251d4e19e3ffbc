#include "sqlite.h"

#include <stdexcept>

#include "memtracer/store/queries.h"

namespace mt::viewer {

// store::Error becomes the query layer's std::runtime_error here, worded as callers knew it.
Database::Database(const std::string &path) : path_(path), impl_(std::make_unique<Impl>()) {
    try {
        // Read-only: the viewer never writes the database; the symbolizer is the only writer.
        impl_->db = store::Db::open_readonly(path, 5000);
    } catch (const store::Error &e) {
        throw std::runtime_error("cannot open database " + path + ": " + e.message());
    }
    store::tune_reader(impl_->db);
    // Fail now, with the reason, on a file that is not a MemTracer database.
    try {
        store::run_count(impl_->db);
    } catch (const store::Error &e) {
        throw std::runtime_error(path + " is not a MemTracer database: " + e.message());
    }
}

Database::~Database() = default;

}  // namespace mt::viewer
