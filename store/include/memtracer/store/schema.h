// schema.h — the database contract: store/schema.sql (embedded at build time), its version, the
// migrations of an older version-1 file, and the checks that refuse a file that is not ours or
// is of another version, for the writer (open_database) and for the readers (check_readable).
//
// Version rule: PRAGMA user_version holds the schema version (5). A database with a higher
// version was written by a newer tool and is refused; one with tables but version 0 is not a
// MemTracer database and is refused. Additive changes (new tables, columns with defaults,
// indexes) keep the version: opening an older database adds what is missing. Version 2 split the
// allocation tables per allocating thread (thread_id in their primary keys): the writer migrates a
// version-1 file (rows keep thread_id -1, "not split"); readers read both. Version 3 keyed the
// address cache by a module key (address_modules, address_rows) and keeps the version-2
// `addresses` table as a view of the same columns: the writer migrates older files (rows and
// addr_ids kept); readers read every version through the same `addresses` columns. Version 4
// added address_sites (the site choice's summary per cached address): additive, but a version-3
// writer would re-symbolize an address without deleting its summary, so the version rises and a
// version-3 tool refuses the file; the writer migrates a version-3 file by creating the table
// (empty: nothing summarized yet), readers do not read it. Version 5 stores each distinct stack's
// frames once (stack_shapes, shape_frames, run_biases) and keeps stack_frames as a view of the
// same columns: the writer migrates older files (the same rows out of the view), readers read
// every version through the same stack_frames columns.
//
// Durability and readers. Each input is one transaction; the database must be valid after a
// crash of this tool or of the machine at any instant, holding exactly the inputs committed
// before it.
//  - A database that exists already (appending, or the viewer's uploads) may have readers, so
//    it is written in WAL mode with synchronous=NORMAL: readers keep consistent snapshots while
//    an input is ingested; a commit is an append to the -wal file, synced at checkpoints, and WAL
//    recovery replays or drops whole transactions after a crash.
//  - A database this call creates cannot have readers yet, so it is written with the rollback
//    journal and synchronous=FULL: new pages go to the file once (WAL would write them twice:
//    to the log, then at the checkpoint), the journal holds only the few pre-existing pages an
//    input modifies, and the commit fsyncs journal and file, so a crash leaves either the state
//    before the input (the hot journal is rolled back on the next open) or after it.
//  - synchronous=OFF is used in neither case: with one transaction per input it would save a
//    few fsyncs, and a power loss could then corrupt the file.
// When all inputs are done, a WAL database is checkpointed and switched back to rollback-journal
// mode, so run.db is one self-contained file (if a reader holds it open, it stays in WAL mode).
#ifndef MEMTRACER_STORE_SCHEMA_H
#define MEMTRACER_STORE_SCHEMA_H

#include <string>
#include <string_view>

#include "memtracer/store/db.h"

namespace mt::store {

constexpr int kSchemaVersion = 5;
// The oldest version readers accept (check_readable) and the writer migrates.
constexpr int kOldestReadableVersion = 1;

// The whole of schema.sql, as the build embedded it.
std::string_view schema_sql();

// The two halves of schema.sql: tables (before the "-- @after-bulk-load" line) and the
// secondary indexes after it.
std::string_view schema_tables_sql();
std::string_view schema_indexes_sql();

struct OpenedDb {
    Db db;
    bool created = false;  // this call created the file
};

// The writer's open (memtracer-symbolize): opens or creates `path`, refuses a file that is not
// ours or is newer, applies the schema, its migrations and the ingest pragmas. Throws Error.
OpenedDb open_database(const std::string &path);

// Deletes the database at `path` and its companion files (the rollback journal, the WAL and its
// shared-memory index), the one list of them. Best effort and quiet: a file that is not there is
// not an error. For a database this process created and must not leave behind.
void remove_database(const std::string &path) noexcept;

// Creates the secondary indexes (no-op when they exist). Call inside the input's transaction,
// after its bulk load.
void create_secondary_indexes(Db &db);

// Checkpoints the WAL and leaves a single-file database. Best effort: a reader holding the
// database open keeps it in WAL mode, which is still valid.
void finish_database(Db &db);

// The readers' check (the viewer, at each (re)open): throws Error saying why `path` is not a
// database this version can serve: not SQLite, not MemTracer's (user_version 0, or a table or
// column of schema.sql missing), or another schema version (a newer one is a newer MemTracer's).
void check_readable(const std::string &path);

// Creates `path` holding the whole schema and no run (a server started for uploads only has
// something to serve). Throws Error.
void create_empty_database(const std::string &path);

}  // namespace mt::store

#endif
