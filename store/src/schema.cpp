#include "memtracer/store/schema.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "memtracer/store/shapes.h"
#include "schema_sql.h"  // generated from schema.sql: kSchemaSql

namespace mt::store {

namespace {

constexpr std::string_view kMarker = "-- @after-bulk-load";

// Columns added to version 1 after its first release, for databases created before them.
struct AddedColumn {
    const char *table, *column, *decl;
};
constexpr AddedColumn kAddedColumns[] = {
    {"addresses", "quality", "INTEGER NOT NULL DEFAULT 0"},
    {"addresses", "answered_by", "INTEGER NOT NULL DEFAULT 0"},
    {"survivors", "frames", "INTEGER NOT NULL DEFAULT 0"},
    {"runs", "live_state", "TEXT NOT NULL DEFAULT ''"},
    {"runs", "thread_split", "INTEGER NOT NULL DEFAULT 0"},  // version 2; 0 for runs migrated from 1
    {"stacks", "machinery", "INTEGER NOT NULL DEFAULT 0"},  // 0: nothing trimmed (written before it)
    {"stacks", "shape_id", "INTEGER REFERENCES stack_shapes(shape_id)"},  // version 5 (set_aside_stack_frames adds it first)
};

// Version 2 put thread_id into the primary keys of the per-thread tables: SQLite cannot alter a
// primary key, so a version-1 database has these tables rebuilt, its rows keeping thread_id -1
// ("all threads, not split"; the viewer answers thread= for those runs with a 400 saying why).
constexpr const char *kSplitTables[] = {"allocs", "run_class_stack", "death_sites", "survivors"};
constexpr int kOldestMigrated = 1;

// Version 2 -> 3: the addresses table becomes address_modules + address_rows (a module key in
// place of the build id and module path on every row), the symbols table strings +
// symbol_frames (ids in place of the names), each with a view of the old columns. The old tables
// step aside under legacy_alter_table, so the REFERENCES clauses of the tables that stay keep
// naming `addresses` (the view, after) rather than following the rename.
bool is_table(Db &db, const char *name) {
    return db.query_int(std::string("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='") + name + "'")
               .value_or(0) > 0;
}

void set_aside(Db &db, const std::string &table) {
    db.exec("PRAGMA legacy_alter_table = ON");
    db.exec("ALTER TABLE " + table + " RENAME TO " + table + "_v2");
    db.exec("PRAGMA legacy_alter_table = OFF");
}

// Module keys in (build id, module path) order; rows keep their addr_id, so stack_frames and
// symbols still point at them.
void move_addresses(Db &db) {
    db.exec(
        "INSERT INTO address_modules(build_id, module_path) "
        "SELECT DISTINCT build_id, module_path FROM addresses_v2 ORDER BY build_id, module_path;"
        "INSERT INTO address_rows(addr_id, module_key, file_address, symbolized, quality, answered_by) "
        "SELECT a.addr_id, m.module_key, a.file_address, a.symbolized, a.quality, a.answered_by "
        "FROM addresses_v2 a JOIN address_modules m ON m.build_id = a.build_id AND m.module_path = a.module_path "
        "ORDER BY a.addr_id;"
        "DROP TABLE addresses_v2");
}

// Each distinct name once, then the rows with their names' ids, in key order.
void move_symbols(Db &db) {
    db.exec(
        "INSERT INTO strings(text) SELECT function FROM symbols_v2 UNION SELECT demangled FROM symbols_v2 "
        "UNION SELECT csharp FROM symbols_v2 UNION SELECT file FROM symbols_v2 UNION SELECT cs_file FROM symbols_v2;"
        "INSERT INTO symbol_frames(addr_id, depth, function_id, demangled_id, csharp_id, file_id, line, column, "
        "cs_file_id, cs_line) SELECT s.addr_id, s.depth, "
        "(SELECT string_id FROM strings WHERE text = s.function), (SELECT string_id FROM strings WHERE text = s.demangled), "
        "(SELECT string_id FROM strings WHERE text = s.csharp), (SELECT string_id FROM strings WHERE text = s.file), "
        "s.line, s.column, (SELECT string_id FROM strings WHERE text = s.cs_file), s.cs_line "
        "FROM symbols_v2 s ORDER BY s.addr_id, s.depth;"
        "DROP TABLE symbols_v2");
}

bool has_column(Db &db, const char *table, const char *column);

// Version 4 -> 5: the stack_frames table becomes shapes (stack_shapes, shape_frames, run_biases)
// and a view of the same columns. Before the schema is applied: the table steps aside (its name is
// the view's) and stacks gets shape_id (the view reads it). Older files get machinery first, so
// their columns keep the order of a file created at version 5.
bool set_aside_stack_frames(Db &db) {
    if (!is_table(db, "stack_frames")) return false;
    if (is_table(db, "stacks")) {
        if (!has_column(db, "stacks", "machinery")) db.exec("ALTER TABLE stacks ADD COLUMN machinery INTEGER NOT NULL DEFAULT 0");
        if (!has_column(db, "stacks", "shape_id")) db.exec("ALTER TABLE stacks ADD COLUMN shape_id INTEGER REFERENCES stack_shapes(shape_id)");
    }
    db.exec("PRAGMA legacy_alter_table = ON");
    db.exec("ALTER TABLE stack_frames RENAME TO stack_frames_v4");
    db.exec("PRAGMA legacy_alter_table = OFF");
    return true;
}

// After the address migrations (the rows' module keys): each stack's rows, in order, become its
// shape through the writer's own ShapeWriter, so a migrated file holds what an ingest would
// have written and the view gives back the same rows. A stack's positions were always 0..n-1;
// rows of a stack without a stacks row (no MemTracer writer makes one) are not kept.
void move_stack_frames(Db &db) {
    Stmt rows = db.prepare(
        "SELECT f.run_id, f.stack_id, f.address, f.addr_id, r.module_key, r.file_address "
        "FROM stack_frames_v4 f LEFT JOIN address_rows r ON r.addr_id = f.addr_id ORDER BY f.run_id, f.stack_id, f.pos");
    Stmt set = db.prepare("UPDATE stacks SET shape_id = ?3 WHERE run_id = ?1 AND stack_id = ?2");
    std::optional<ShapeWriter> writer;
    int64_t run = 0, stack = -1;
    std::vector<ShapeFrame> frames;
    auto finish_stack = [&] {
        if (frames.empty()) return;
        set.bind(1, run).bind(2, stack).bind(3, writer->shape_of(frames)).run();
        frames.clear();
    };
    while (rows.step()) {
        const int64_t r = rows.i64(0), st = rows.i64(1);
        if (!writer || r != run || st != stack) {
            finish_stack();
            if (!writer || r != run) {
                if (writer) writer->flush();
                writer.emplace(db, r);
            }
            run = r, stack = st;
        }
        ShapeFrame f;
        f.raw = static_cast<uint64_t>(rows.i64(2));
        f.addr_id = rows.null(3) ? 0 : rows.i64(3);
        f.module_key = rows.null(4) ? 0 : rows.i64(4);
        f.file_address = rows.null(5) ? 0 : static_cast<uint64_t>(rows.i64(5));
        frames.push_back(f);
    }
    finish_stack();
    if (writer) writer->flush();
    rows = Stmt();
    set = Stmt();
    db.exec("DROP TABLE stack_frames_v4");
}

bool has_column(Db &db, const char *table, const char *column) {
    Stmt st = db.prepare(std::string("PRAGMA table_info(") + table + ")");
    while (st.step())
        if (st.text(1) == column) return true;
    return false;
}

// The schema version schema.sql declares ("PRAGMA user_version = N;"), read at compile time so
// kSchemaVersion and the file cannot drift apart. A plain index loop, not string_view::find:
// GCC's -fsanitize=undefined makes find's pointer checks non-constant (the asan build).
constexpr int declared_schema_version() {
    std::string_view sql(kSchemaSql);
    std::string_view key = "PRAGMA user_version = ";
    size_t at = 0;
    while (at + key.size() <= sql.size() && sql.substr(at, key.size()) != key) ++at;
    if (at + key.size() > sql.size()) return -1;
    int v = 0;
    for (size_t i = at + key.size(); i < sql.size() && sql[i] >= '0' && sql[i] <= '9'; ++i) v = v * 10 + (sql[i] - '0');
    return v;
}
static_assert(declared_schema_version() == kSchemaVersion, "schema.sql's PRAGMA user_version differs from kSchemaVersion");

// Tables every MemTracer database has had since version 1: what makes a file ours.
constexpr const char *kCoreTables[] = {"meta", "runs", "modules", "addresses", "symbols", "stacks"};

// Refuses, before anything is written, a database that is not ours or is newer than this tool:
// - user_version above ours, or a meta.schema_version above ours (a newer tool's file);
// - tables without user_version, or a user_version without MemTracer's tables (another
//   program's database: many set user_version too).
// An empty database (no tables) is taken and gets the schema.
void check_identity(Db &db, const std::string &path) {
    int64_t version = 0;
    std::vector<std::string> tables;
    std::optional<int64_t> meta_version;
    try {
        version = db.query_int("PRAGMA user_version").value_or(0);
        // Views too: version 3's `addresses` is one.
        Stmt t = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name");
        while (t.step()) tables.push_back(t.str(0));
    } catch (const Error &e) {
        throw Error(path + ": not a SQLite database (" + e.what() + ")", e.code(), path);
    }
    auto has = [&](std::string_view name) { return std::find(tables.begin(), tables.end(), name) != tables.end(); };
    if (has("meta")) {
        Stmt m = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
        if (m.step()) meta_version = std::atoll(m.str(0).c_str());
    }
    const std::string expected = "; this memtracer-symbolize reads and writes schema version " + std::to_string(kSchemaVersion) +
                                 "; nothing was written";
    int64_t found = std::max(version, meta_version.value_or(0));
    if (found > kSchemaVersion)
        throw Error(path + ": schema version " + std::to_string(found) + " (" +
                             (version > kSchemaVersion ? "PRAGMA user_version" : "meta.schema_version") +
                             "), written by a newer memtracer-symbolize" + expected,
                    0, path);
    if (tables.empty()) return;
    std::vector<std::string> missing;
    for (const char *t : kCoreTables)
        if (!has(t)) missing.push_back(t);
    if (version >= kOldestMigrated && version <= kSchemaVersion && missing.empty()) return;
    std::string list;
    for (size_t i = 0; i < tables.size() && i < 5; ++i) list += (i ? ", " : "") + tables[i];
    if (tables.size() > 5) list += ", ... (" + std::to_string(tables.size()) + " tables)";
    std::string why = version == 0 ? "user_version 0" : "user_version " + std::to_string(version);
    if (!missing.empty()) {
        why += ", without MemTracer's table";
        why += missing.size() > 1 ? "s " : " ";
        for (size_t i = 0; i < missing.size(); ++i) why += (i ? ", " : "") + missing[i];
    }
    throw Error(path + ": not a MemTracer database (" + why + "; it holds: " + list + ")" + expected, 0, path);
}

}  // namespace

std::string_view schema_sql() { return kSchemaSql; }

std::string_view schema_tables_sql() {
    std::string_view all(kSchemaSql);
    return all.substr(0, all.find(kMarker));
}

std::string_view schema_indexes_sql() {
    std::string_view all(kSchemaSql);
    size_t at = all.find(kMarker);
    return at == std::string_view::npos ? std::string_view() : all.substr(at);
}

namespace {

OpenedDb open_and_prepare(const std::string &path, bool created);

}  // namespace

OpenedDb open_database(const std::string &path) {
    struct stat sb;
    bool existed = stat(path.c_str(), &sb) == 0;
    try {
        return open_and_prepare(path, !existed);
    } catch (const Error &) {
        // Not even the schema could be written: leave no empty file behind.
        if (!existed) remove_database(path);
        throw;
    }
}

void remove_database(const std::string &path) noexcept {
    for (const char *suffix : {"", "-journal", "-wal", "-shm"}) unlink((path + suffix).c_str());
}

namespace {

OpenedDb open_and_prepare(const std::string &path, bool created) {
    OpenedDb out;
    out.db = Db::open(path, true);
    out.created = created;
    Db &db = out.db;
    check_identity(db, path);

    // See schema.h: a database others may be reading is written in WAL mode; one this call
    // creates (nobody can be reading it yet) with a rollback journal, which writes each new page
    // once instead of twice (WAL, then checkpoint).
    if (out.created) {
        db.exec("PRAGMA journal_mode = DELETE");
        db.exec("PRAGMA synchronous = FULL");
    } else {
        db.exec("PRAGMA journal_mode = WAL");  // cannot change inside a transaction; persists until finish_database
        db.exec("PRAGMA synchronous = NORMAL");
    }
    // 16 MiB: the big tables are written in key order (appends), so a larger cache bought no
    // speed, only resident memory (256 MiB held the whole 256 MB benchmark database: the
    // symbolizer's peak RSS above llvm-symbolizer's), and every dirty page it holds is written
    // and synced by the commit, after the load (64 MiB: 0.3 s more at the end of a session-sized
    // ingest than 16; store::EarlySync syncs what spilled before; docs/benchmarks.md, issue 22).
    db.exec("PRAGMA cache_size = -16384");
    db.exec("PRAGMA temp_store = MEMORY");
    db.exec("PRAGMA threads = 2");  // helper threads for the sorts of CREATE INDEX after a bulk load

    Transaction tx(db);
    // Version 1 -> 2: the old tables step aside, the schema creates the new ones, rows move over.
    std::vector<std::string> moved;
    for (const char *t : kSplitTables)
        if (db.query_int(std::string("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='") + t + "'")
                .value_or(0) > 0 &&
            !has_column(db, t, "thread_id")) {
            db.exec(std::string("ALTER TABLE ") + t + " RENAME TO " + t + "_v1");
            moved.push_back(t);
        }
    // Version 1 -> 2's added columns of the old addresses table first: they move over with it.
    const bool old_addresses = is_table(db, "addresses");
    if (old_addresses) {
        for (const AddedColumn &c : kAddedColumns)
            if (std::string_view(c.table) == "addresses" && !has_column(db, c.table, c.column))
                db.exec(std::string("ALTER TABLE addresses ADD COLUMN ") + c.column + " " + c.decl);
        set_aside(db, "addresses");
    }
    const bool old_symbols = is_table(db, "symbols");
    if (old_symbols) set_aside(db, "symbols");
    const bool old_frames = set_aside_stack_frames(db);
    db.exec(schema_tables_sql());
    if (old_addresses) move_addresses(db);
    if (old_symbols) move_symbols(db);
    if (old_frames) move_stack_frames(db);
    for (const std::string &t : moved) {
        std::string cols;
        Stmt c = db.prepare("SELECT name FROM pragma_table_info('" + t + "_v1')");
        while (c.step()) cols += (cols.empty() ? "" : ", ") + c.str(0);
        c = Stmt();
        db.exec("INSERT INTO " + t + "(" + cols + ") SELECT " + cols + " FROM " + t + "_v1; DROP TABLE " + t + "_v1");
        if (t == "survivors") db.exec("UPDATE survivors SET all_frames = frames");  // one row per (class, stack)
    }
    for (const AddedColumn &c : kAddedColumns)
        if (!has_column(db, c.table, c.column))
            db.exec(std::string("ALTER TABLE ") + c.table + " ADD COLUMN " + c.column + " " + c.decl);
    Stmt meta = db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES (?1, ?2)");
    meta.bind(1, "schema_version").bind(2, std::to_string(kSchemaVersion)).run();
    meta.bind(1, "created_by").bind(2, "memtracer-symbolize " MEMTRACER_VERSION).run();
    meta = Stmt();
    db.exec("UPDATE meta SET value = '" + std::to_string(kSchemaVersion) + "' WHERE key = 'schema_version'");
    tx.commit();
    return out;
}

}  // namespace

void create_secondary_indexes(Db &db) { db.exec(schema_indexes_sql()); }

void finish_database(Db &db) {
    try {
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        db.exec("PRAGMA journal_mode = DELETE");
    } catch (const Error &) {
        // Busy: someone is reading. The WAL file stays beside the database, which is fine.
    }
}

}  // namespace mt::store
