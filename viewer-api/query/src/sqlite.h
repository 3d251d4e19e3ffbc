// sqlite.h — the query layer reads through store/ (the database contract): a connection's
// cached prepared statements, borrowed by each endpoint and reset when it is done.
#ifndef MEMTRACER_VIEWER_SQLITE_H
#define MEMTRACER_VIEWER_SQLITE_H

#include <string_view>

#include "memtracer/store/db.h"
#include "memtracer/viewer/query.h"

namespace mt::viewer {

using store::Stmt;

struct Database::Impl {
    store::Db db;
};

// Shorthand used by every endpoint: a statement from the connection's cache. The SQL must be a
// constant: the cache is keyed by its text.
inline Stmt query(Database &db, std::string_view sql) { return db.impl().db.cached(sql); }

}  // namespace mt::viewer

#endif
