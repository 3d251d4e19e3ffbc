// ep_trace.cpp — a run as Chrome trace event JSON (chrome://tracing, Perfetto UI): compute
// (TraceQuery -> TraceResult: per-frame counters, frames and GCs) and the endpoint;
// render_views.cpp writes the events ("C" counters, "X" slices on their own tracks).
#include <algorithm>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "spec.h"

namespace mt::viewer {

TraceResult compute_trace(Database &db, const TraceQuery &q) {
    SpecParams sp(q.range, q.filter);
    Scope sc = open_scope(db, q.run, sp);
    const RunRow &run = sc.run;
    const Range &r = sc.range;
    const Filter &filter = sc.filter;
    // Under a filter the allocation counters count what it keeps; frames, heap and GCs stay.
    auto ft = filter.active() ? filtered_frame_totals(db, run, r.from, r.to, filter) : std::vector<Totals>{};
    auto st = db.backend().run_state(run.id);
    RunState info = st ? *st : RunState{};
    TraceResult res;
    res.run_id = run.id;
    res.from = r.from;
    res.to = r.to;
    res.build_id = info.build_id;
    res.label = (info.process.empty() ? std::string("run") : info.process) + " (run " + std::to_string(run.id) +
                (info.device.empty() ? "" : ", " + info.device) + ")";
    res.filter = filter;
    res.frames.reserve(static_cast<size_t>(std::max<int64_t>(0, r.size())));
    db.backend().frames(run.id, r.from, r.to, [&](const FrameRow &f) {
        Totals alloc{f.alloc_count, f.requested_bytes, f.gc_bytes};
        if (filter.active()) alloc = ft[static_cast<size_t>(f.seq - r.from)];
        res.frames.push_back({f, alloc});
    });
    res.gc = db.backend().gc_events(run.id, r.from, r.to, GcOrder::Start);
    return res;
}

Response chrome_trace(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", MT_FILTER_PARAMS});
    TraceQuery q{run_id, range_spec(p), filter_spec(p)};
    TraceResult r = compute_trace(db, q);
    return {200, render_trace(r), "application/json", "run-" + std::to_string(r.run_id) + ".trace.json"};
}

}  // namespace mt::viewer
