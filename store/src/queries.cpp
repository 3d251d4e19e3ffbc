#include "memtracer/store/queries.h"

namespace mt::store {

std::optional<int64_t> newest_run_for_source(const std::string &db_path, const std::string &source_file) {
    Db db = Db::open_readonly(db_path, 5000);
    Stmt s = db.prepare("SELECT max(run_id) FROM runs WHERE source_file = ?1");
    s.bind(1, source_file);
    if (!s.step() || s.null(0)) return std::nullopt;
    return s.i64(0);
}

int64_t run_count(Db &db) { return db.query_int("SELECT count(*) FROM runs").value_or(0); }

namespace {
bool has_column(Db &db, const char *table, const char *column) {
    Stmt s = db.prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name=?2");
    s.binds(std::string_view(table), std::string_view(column));
    return s.step();
}
bool has_table(Db &db, const char *table) {
    Stmt s = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1");
    s.binds(std::string_view(table));
    return s.step();
}
}  // namespace

Features read_features(Db &db) {
    Features f;
    f.markers = has_table(db, "markers");
    f.live_state = has_column(db, "runs", "live_state");
    f.thread_split = has_column(db, "runs", "thread_split");
    f.alloc_threads = has_column(db, "allocs", "thread_id");
    f.death_sites = has_table(db, "death_sites");
    f.survivor_frames = has_column(db, "survivors", "frames");
    f.machinery = has_column(db, "stacks", "machinery");
    return f;
}

void tune_reader(Db &db) { db.try_exec("PRAGMA cache_size=-65536"); }

}  // namespace mt::store
