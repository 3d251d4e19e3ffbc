// ep_threads.cpp — GET /api/runs/{run}/threads: the run's threads with what each allocated, the
// choices of the page's thread filter. `split` says whether the run can be filtered by thread
// (filter.h); without it the per-thread figures are null, not zeros.
#include "endpoints.h"
#include "filter.h"
#include "sqlite.h"

#include <unordered_map>

namespace mt::viewer {

Response threads_list(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {});
    auto run = load_run(db, run_id);
    bool split = false;
    if (has_thread_column(db)) {
        auto s = query(db, "SELECT 1 FROM pragma_table_info('runs') WHERE name='thread_split'");
        if (s.step()) {
            auto r = query(db, "SELECT thread_split FROM runs WHERE run_id=?");
            r.binds(run.id);
            split = r.step() && r.i64(0) == 1;
        }
    }
    std::unordered_map<int64_t, Totals> per;
    if (split) {
        auto s = query(db, "SELECT thread_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack "
                           "WHERE run_id=? GROUP BY thread_id");
        s.binds(run.id);
        while (s.step()) per[s.i64(0)] = {s.i64(1), s.i64(2), s.i64(3)};
    }
    Json j;
    j.obj().kv("run_id", run.id).kv("split", split).arr("threads");
    auto th = query(db, "SELECT thread_id, os_tid, name FROM threads WHERE run_id=? ORDER BY thread_id");
    th.binds(run.id);
    while (th.step()) {
        j.obj().kv("thread_id", th.i64(0)).kv("os_tid", th.i64(1)).kv("name", th.text(2));
        if (split) {
            write_totals(j, per[th.i64(0)]);
        } else {
            j.key("count").null().key("requested_bytes").null().key("gc_bytes").null();
        }
        j.end_obj();
    }
    j.end_arr().end_obj();
    return ok(j);
}

}  // namespace mt::viewer
