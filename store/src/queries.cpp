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

void tune_reader(Db &db) { db.try_exec("PRAGMA cache_size=-65536"); }

}  // namespace mt::store
