// ep_threads.cpp — GET /api/runs/{run}/threads: the run's threads with what each allocated, the
// choices of the page's thread filter. `split` says whether the run can be filtered by thread
// (filter.h); without it the per-thread figures are null, not zeros.
#include "endpoints.h"
#include "filter.h"

#include <unordered_map>

namespace mt::viewer {

Response threads_list(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {});
    auto run = load_run(db, run_id);
    RunBackend &be = db.backend();
    bool split = false;
    if (be.features().alloc_threads && be.features().thread_split) {
        auto st = be.run_state(run.id);
        split = st && st->thread_split == 1;
    }
    std::unordered_map<int64_t, Totals> per;
    if (split)
        for (const auto &[t, tot] : be.thread_totals(run.id)) per[t] = tot;
    Json j;
    j.obj().kv("run_id", run.id).kv("split", split).arr("threads");
    for (const ThreadRow &th : be.threads(run.id)) {
        j.obj().kv("thread_id", th.thread_id).kv("os_tid", th.os_tid).kv("name", th.name);
        if (split) {
            write_totals(j, per[th.thread_id]);
        } else {
            j.key("count").null().key("requested_bytes").null().key("gc_bytes").null();
        }
        j.end_obj();
    }
    j.end_arr().end_obj();
    return ok(j);
}

}  // namespace mt::viewer
