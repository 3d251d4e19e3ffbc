// sqlite_backend.h — the per-run backend over a run.db (backend.h): store/'s connection with its
// prepared statements, and the SQL the endpoints used to hold, moved here unchanged. Split in
// two files: runs, frames and stacks (sqlite_backend.cpp), allocations and lifetimes
// (sqlite_backend_allocs.cpp).
#ifndef MEMTRACER_VIEWER_SQLITE_BACKEND_H
#define MEMTRACER_VIEWER_SQLITE_BACKEND_H

#include <string>
#include <string_view>

#include "memtracer/store/db.h"
#include "memtracer/viewer/backend.h"

namespace mt::viewer {

using store::Stmt;

class SqliteBackend : public RunBackend {
public:
    explicit SqliteBackend(const std::string &path);
    const std::string &name() const override { return path_; }
    const BackendFeatures &features() override { return features_; }
    void begin_snapshot() override;
    void end_snapshot() override;
    MT_RUN_BACKEND_READS(MT_RUN_BACKEND_OVERRIDE)

private:
    // A statement from the connection's cache. The SQL must be one of a few texts per call site:
    // the cache is keyed by it.
    Stmt query(std::string_view sql) { return db_.cached(sql); }
    std::optional<Peak> peak(std::string_view sql, int64_t run, int64_t from, int64_t to);

    std::string path_;
    store::Db db_;
    BackendFeatures features_;
    std::unique_ptr<store::ReadTransaction> snapshot_;
};

// " AND class_id IN (...) ..." over a table with class_id, stack_id, thread_id, placeholders
// ?first, ?first+1, ...; "" when inactive (sqlite_backend_allocs.cpp).
std::string filter_sql(const AllocFilter &f, int first);
// Binds what filter_sql(first) placed; returns the next free placeholder index.
int filter_bind(const AllocFilter &f, int64_t run, Stmt &s, int first);

}  // namespace mt::viewer

#endif
