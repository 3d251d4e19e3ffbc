// ep_runs.cpp — the runs list and one run's summary.
#include "endpoints.h"
#include "model.h"
#include "memtracer/viewer/backend.h"

#include <memtracer/format.h>

namespace mt::viewer {

RunsResult compute_runs(Database &db, const Page &page) {
    RunsResult r;
    r.page = page;
    r.total = db.backend().run_count();
    r.runs = db.backend().runs(page);
    return r;
}

Response runs_list(Database &db, const Request &req) {
    Params p(req, {"limit", "offset"});
    return Response{200, render_runs(compute_runs(db, page_params(p, 100, 1000))), "application/json", ""};
}

SummaryResult compute_summary(Database &db, int64_t run) {
    RunBackend &be = db.backend();
    auto found = be.run(run);
    if (!found) throw ApiError{404, "no run " + std::to_string(run), "run"};
    SummaryResult r;
    r.run = *found;
    // Where the run's GC figures came from, from its frames' flags: a patched libil2cpp measures
    // GC sizes, no-patch mode estimates them and may see collections only through il2cpp's
    // profiler (timing, no heap figures). A user comparing runs must know an estimate from a
    // measurement. Neither bit: a capture older than these flags, or no collector reachable.
    const FigureFlags f = be.figure_flags(run);
    r.gc_sizes = f.exact && f.estimated ? "mixed" : f.exact ? "exact" : f.estimated ? "estimated" : "unknown";
    r.collections = f.profiler ? "il2cpp_profiler" : r.run.collections > 0 ? "boehm" : "none";
    r.info = be.run_info(run);
    r.frame_stats = be.frame_stats(run);
    r.threads = be.threads(run);
    r.modules = be.modules(run);
    r.counts = be.counts(run);
    return r;
}

Response run_summary(Database &db, const Request &req, int64_t run) {
    Params p(req, {});
    return Response{200, render_summary(compute_summary(db, run)), "application/json", ""};
}

}  // namespace mt::viewer
