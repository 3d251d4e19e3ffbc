// db_pool.h — a read-only connection per worker thread, reopened after a refresh (an upload was
// symbolized into the database) so every thread sees new runs and a replaced file.
#ifndef MEMTRACER_VIEWER_DB_POOL_H
#define MEMTRACER_VIEWER_DB_POOL_H

#include <atomic>
#include <cstdint>
#include <string>

#include "memtracer/viewer/query.h"

namespace mt::viewer {

class DbPool {
public:
    explicit DbPool(std::string path);
    // This thread's connection. Throws std::runtime_error if the file cannot be opened or is not
    // a database of our schema version (check_database), checked at each (re)open.
    Database &local();
    void refresh() { ++generation_; }
    const std::string &path() const { return path_; }

private:
    std::string path_;
    uint64_t id_;  // tells pools apart in the thread-local table, even at a reused address
    std::atomic<uint64_t> generation_{0};
};

// Throws std::runtime_error (store::Error) saying why `path` is not a database this viewer can
// serve: store::check_readable, beside store/schema.sql.
void check_database(const std::string &path);

// The writer path: creates an empty database from store/schema.sql (store::create_empty_database)
// so a server started for uploads only has something to serve. Throws on failure.
void create_empty_database(const std::string &path);

}  // namespace mt::viewer

#endif
