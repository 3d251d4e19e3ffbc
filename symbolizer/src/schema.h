// schema.h — creating, checking and tuning the database of schema.sql (embedded at build time).
//
// Version rule: PRAGMA user_version holds the schema version (1). A database with a higher
// version was written by a newer tool and is refused; one with tables but version 0 is not a
// MemTracer database and is refused. Additive changes (new tables, columns with defaults,
// indexes) keep the version: opening an older version-1 database adds what is missing.
//
// Durability: ingest runs in WAL mode with synchronous=NORMAL. In WAL mode a commit is one
// append to the -wal file and NORMAL syncs it at checkpoints; a crash of this tool or of the OS
// at any instant leaves a valid database holding every input committed before (the WAL replays
// or drops whole transactions). synchronous=OFF is not used: with one transaction per input it
// would save almost nothing and a power loss could then corrupt the file. When all inputs are
// done the WAL is checkpointed and the file switched back to rollback-journal mode, so run.db is
// one self-contained file to copy or hand to the viewer.
#ifndef MEMTRACER_SYM_SCHEMA_H
#define MEMTRACER_SYM_SCHEMA_H

#include <string>
#include <string_view>

#include "sqlite_db.h"

namespace mt::sym {

constexpr int kSchemaVersion = 1;

// The two halves of schema.sql: tables (before the "-- @after-bulk-load" line) and the
// secondary indexes after it.
std::string_view schema_tables_sql();
std::string_view schema_indexes_sql();

struct OpenedDb {
    Db db;
    bool created = false;  // this call created the file
};

// Opens or creates `path`, applies the schema and the ingest pragmas. Throws Error(Database).
OpenedDb open_database(const std::string &path);

// Creates the secondary indexes (no-op when they exist). Call inside the input's transaction,
// after its bulk load.
void create_secondary_indexes(Db &db);

// Checkpoints the WAL and leaves a single-file database. Best effort: a reader holding the
// database open keeps it in WAL mode, which is still valid.
void finish_database(Db &db);

}  // namespace mt::sym

#endif
