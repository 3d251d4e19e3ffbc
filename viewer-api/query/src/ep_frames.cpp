// ep_frames.cpp — the per-frame series over a range, and one frame's allocations by class.
#include <algorithm>
#include <map>
#include <optional>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "spec.h"
#include "stacks.h"

namespace mt::viewer {

// Two fixed column sets: what the timeline needs (the default), or every frame column.
const char *const kFrameColumnNames[kFrameAllCols] = {"seq", "frame_index", "alloc_count", "requested_bytes", "gc_bytes",
                                            "collections", "heap_size", "start_ns", "duration_ns", "gc_ns",
                                            "free_bytes", "dropped", "flags"};
FramesResult compute_frames(Database &db, const FramesQuery &q) {
    SpecParams sp(q.range, q.filter);
    Scope sc = open_scope(db, q.run, sp);
    const RunRow &run = sc.run;
    const Range &r = sc.range;
    parse_int(std::to_string(q.limit), 1, 200000, "limit");  // the endpoint's check, for typed callers
    // A 200k-frame page is ~10 MB of JSON; longer runs page with next_from.
    int64_t to = std::min(r.to, r.from + q.limit - 1);
    FramesResult res;
    res.run_id = run.id, res.from = r.from, res.to = to, res.frames = run.frames;
    if (to < r.to) res.next_from = to + 1;
    res.filter = sc.filter;
    res.ncols = q.all_fields ? kFrameAllCols : kFrameBasicCols;
    auto &col = res.columns;
    std::vector<std::optional<int64_t>> live;
    bool any_live = false;
    auto n = static_cast<size_t>(std::max<int64_t>(0, to - r.from + 1));
    for (int c = 0; c < res.ncols; ++c) col[static_cast<size_t>(c)].reserve(n);
    live.reserve(n);
    db.backend().frames(run.id, r.from, to, [&](const FrameRow &f) {
        // kFrameColumnNames' order.
        const int64_t v[kFrameAllCols] = {f.seq, f.frame_index, f.alloc_count, f.requested_bytes, f.gc_bytes,
                                          f.gc_count, f.heap_size, f.start_ns, f.end_ns - f.start_ns, f.gc_ns,
                                          f.free_bytes, f.dropped, f.flags};
        for (int c = 0; c < res.ncols; ++c) col[static_cast<size_t>(c)].push_back(v[c]);
        live.push_back(f.live_bytes);
        any_live = any_live || live.back().has_value();
    });
    if (sc.filter.active()) {  // the allocation columns under the filter; heap and GC stay the run's
        auto ft = filtered_frame_totals(db, run, r.from, to, sc.filter);
        for (size_t i = 0; i < col[0].size(); ++i) {
            const auto &t = ft[static_cast<size_t>(col[0][i] - r.from)];
            col[2][i] = t.count, col[3][i] = t.requested_bytes, col[4][i] = t.gc_bytes;
        }
    }
    if (any_live) res.live_bytes = std::move(live);
    // The frames of the whole requested range (not only this page) where the traced live bytes
    // and the GC heap peaked, the first of equal ones; live_peak is null without lifetimes.
    res.live_peak = db.backend().live_peak(run.id, r.from, r.to);
    res.heap_peak = db.backend().heap_peak(run.id, r.from, r.to);
    res.gc = db.backend().gc_events(run.id, r.from, to, GcOrder::SeqThenStart);
    return res;
}

Response frame_series(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", "limit", "fields", MT_FILTER_PARAMS});
    FramesQuery q;
    q.run = run_id;
    q.all_fields = p.choice("fields", {"basic", "all"}, "basic") == "all";
    q.range = range_spec(p);
    q.filter = filter_spec(p);
    q.limit = p.integer("limit", 200000, 1, 200000);
    return Response{200, render_frames(compute_frames(db, q)), "application/json", ""};
}

FrameDetailResult compute_frame_detail(Database &db, const FrameDetailQuery &q) {
    SpecParams sp({}, q.filter, q.page);
    const Page pg = checked_page(sp, 200, 2000);
    auto run = load_run(db, q.run);
    auto filter = parse_filter(sp.params(), db, run);
    auto fr = db.backend().frame(run.id, q.seq);
    if (!fr)
        throw ApiError{404, "run " + std::to_string(run.id) + " has no frame " + std::to_string(q.seq) + " (it has " +
                                std::to_string(run.frames) + ")", "seq"};
    FrameDetailResult r;
    r.run_id = run.id, r.seq = q.seq, r.frame = *fr, r.filter = filter, r.by = q.by, r.page = pg;
    // Group the frame's (class, stack) rows by class, biggest first.
    std::map<int64_t, FrameClass> by_class;
    db.backend().frame_class_stacks(run.id, q.seq, filter.alloc(), [&](const AllocRow &a) {
        auto &c = by_class.try_emplace(a.class_id, FrameClass{a.class_id, {}, {}, {}}).first->second;
        c.t.add(a.t);
        c.stacks.push_back({a.stack_id, a.t, {}, {}});
    });
    std::vector<FrameClass> order;
    for (auto &[_, c] : by_class) order.push_back(std::move(c));
    auto bigger = [&](const auto &x, const auto &y) { return x.t.get(q.by) > y.t.get(q.by); };
    std::stable_sort(order.begin(), order.end(), bigger);
    r.total = static_cast<int64_t>(order.size());
    // Per-id lookups, not whole-run dictionaries: a frame touches a few dozen of thousands.
    std::map<int64_t, std::optional<ClassInfo>> classes;
    auto cls = [&](int64_t id) {
        auto it = classes.find(id);
        if (it == classes.end()) it = classes.emplace(id, find_class(db, run.id, id)).first;
        return it->second;
    };
    for (int64_t i = pg.offset; i < r.total && i < pg.offset + pg.limit; ++i) {
        FrameClass &c = order[static_cast<size_t>(i)];
        c.info = cls(c.class_id);
        std::stable_sort(c.stacks.begin(), c.stacks.end(), bigger);
        for (FrameStack &st : c.stacks) {
            st.site = find_stack_site(db, run.id, st.stack_id);
            st.frames = resolve_stack(db, run.id, st.stack_id);
        }
        r.classes.push_back(std::move(c));
    }
    r.gc = db.backend().gc_events(run.id, q.seq, q.seq, GcOrder::Start);
    for (const DeathRow &d : db.backend().deaths(run.id, q.seq)) r.deaths.push_back({d.class_id, cls(d.class_id), d.count, d.gc_bytes});
    return r;
}

Response frame_detail(Database &db, const Request &req, int64_t run_id, int64_t seq) {
    Params p(req, {"by", "limit", "offset", MT_FILTER_PARAMS});
    FrameDetailQuery q;
    q.run = run_id, q.seq = seq;
    q.by = metric_param(p);
    q.page = page_params(p, 200, 2000);
    q.filter = filter_spec(p);
    return Response{200, render_frame_detail(compute_frame_detail(db, q)), "application/json", ""};
}

}  // namespace mt::viewer
