// store_use.h — the symbolizer writes through store/ (the database contract): its wrapper, bulk
// insert and schema functions under the short names the symbolizer's writers use, and the named
// statements (store::sql::k...) they prepare.
#ifndef MEMTRACER_SYM_STORE_USE_H
#define MEMTRACER_SYM_STORE_USE_H

#include "memtracer/store/batch_insert.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "memtracer/store/writer_sql.h"

namespace mt::sym {

using store::BatchInsert;
using store::Db;
using store::Stmt;
using store::Transaction;
using store::OpenedDb;
using store::open_database;
using store::create_secondary_indexes;
using store::finish_database;
using store::kSchemaVersion;

}  // namespace mt::sym

#endif
