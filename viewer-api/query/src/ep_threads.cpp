// ep_threads.cpp — GET /api/runs/{run}/threads: the run's threads with what each allocated, the
// choices of the page's thread filter. `split` says whether the run can be filtered by thread
// (filter.h); without it the per-thread figures are null, not zeros.
#include "endpoints.h"
#include "filter.h"

#include <unordered_map>

namespace mt::viewer {

ThreadsResult compute_threads(Database &db, int64_t run_id) {
    auto run = load_run(db, run_id);
    RunBackend &be = db.backend();
    ThreadsResult r;
    r.run_id = run.id;
    if (be.features().alloc_threads && be.features().thread_split) {
        auto st = be.run_state(run.id);
        r.split = st && st->thread_split == 1;
    }
    std::unordered_map<int64_t, Totals> per;
    if (r.split)
        for (const auto &[t, tot] : be.thread_totals(run.id)) per[t] = tot;
    for (const ThreadRow &th : be.threads(run.id))
        r.threads.push_back({th, r.split ? std::optional<Totals>(per[th.thread_id]) : std::nullopt});
    return r;
}

Response threads_list(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {});
    return Response{200, render_threads(compute_threads(db, run_id)), "application/json", ""};
}

}  // namespace mt::viewer
