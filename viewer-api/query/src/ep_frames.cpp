// ep_frames.cpp — the per-frame series over a range, and one frame's allocations by class.
#include <algorithm>
#include <map>
#include <optional>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "spec.h"
#include "sqlite.h"
#include "stacks.h"

namespace mt::viewer {

namespace {
GcRow read_gc(const Stmt &g) {
    return {g.i64(0), g.i64(1), g.i64(2) - g.i64(1), g.i64(3), g.i64(4), g.i64(5), g.i64(6)};
}
}  // namespace

// Two fixed column sets: what the timeline needs (the default), or every frame column.
const char *const kFrameColumnNames[kFrameAllCols] = {"seq", "frame_index", "alloc_count", "requested_bytes", "gc_bytes",
                                            "collections", "heap_size", "start_ns", "duration_ns", "gc_ns",
                                            "free_bytes", "dropped", "flags"};
constexpr const char *kSeriesBasic =
    "SELECT seq, frame_index, alloc_count, requested_bytes, gc_bytes, gc_count, heap_size, live_bytes "
    "FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? ORDER BY seq";
constexpr const char *kSeriesAll =
    "SELECT seq, frame_index, alloc_count, requested_bytes, gc_bytes, gc_count, heap_size, start_ns, "
    "end_ns-start_ns, gc_ns, free_bytes, dropped, flags, live_bytes "
    "FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? ORDER BY seq";

// The frames of the whole requested range (not only this page) where the traced live bytes and
// the GC heap peaked, the first of equal ones; live_peak is null without lifetimes.
void read_peaks(FramesResult &res, Database &db, int64_t run, const Range &r) {
    auto l = query(db,
                   "SELECT seq, live_bytes FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? AND live_bytes IS NOT NULL "
                   "ORDER BY live_bytes DESC, seq LIMIT 1");
    l.binds(run, r.from, r.to);
    if (l.step()) res.live_peak = Peak{l.i64(0), l.i64(1)};
    auto h = query(db,
                   "SELECT seq, heap_size FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? "
                   "ORDER BY heap_size DESC, seq LIMIT 1");
    h.binds(run, r.from, r.to);
    if (h.step()) res.heap_peak = Peak{h.i64(0), h.i64(1)};
}

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
    auto s = query(db, q.all_fields ? kSeriesAll : kSeriesBasic);
    s.binds(run.id, r.from, to);
    auto n = static_cast<size_t>(std::max<int64_t>(0, to - r.from + 1));
    for (int c = 0; c < res.ncols; ++c) col[static_cast<size_t>(c)].reserve(n);
    live.reserve(n);
    while (s.step()) {
        for (int c = 0; c < res.ncols; ++c) col[static_cast<size_t>(c)].push_back(s.i64(c));
        live.push_back(s.null(res.ncols) ? std::nullopt : std::optional<int64_t>(s.i64(res.ncols)));
        any_live = any_live || live.back().has_value();
    }
    if (sc.filter.active()) {  // the allocation columns under the filter; heap and GC stay the run's
        auto ft = filtered_frame_totals(db, run, r.from, to, sc.filter);
        for (size_t i = 0; i < col[0].size(); ++i) {
            const auto &t = ft[static_cast<size_t>(col[0][i] - r.from)];
            col[2][i] = t.count, col[3][i] = t.requested_bytes, col[4][i] = t.gc_bytes;
        }
    }
    if (any_live) res.live_bytes = std::move(live);
    read_peaks(res, db, run.id, r);
    auto g = query(db,
                   "SELECT seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no FROM gc_events "
                   "WHERE run_id=? AND seq BETWEEN ? AND ? ORDER BY seq, start_ns");
    g.binds(run.id, r.from, to);
    while (g.step()) res.gc.push_back(read_gc(g));
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

Response frame_detail(Database &db, const Request &req, int64_t run_id, int64_t seq) {
    Params p(req, {"by", "limit", "offset", MT_FILTER_PARAMS});
    auto by = metric_param(p);
    auto pg = page_params(p, 200, 2000);
    auto run = load_run(db, run_id);
    auto filter = parse_filter(p, db, run);
    auto f = query(db,
                   "SELECT frame_index, start_ns, end_ns, alloc_count, requested_bytes, gc_bytes, dropped, heap_size, "
                   "free_bytes, gc_count, gc_ns, live_bytes, flags FROM frames WHERE run_id=? AND seq=?");
    f.binds(run.id, seq);
    if (!f.step())
        throw ApiError{404, "run " + std::to_string(run.id) + " has no frame " + std::to_string(seq) + " (it has " +
                                std::to_string(run.frames) + ")", "seq"};
    Json j;
    j.obj().kv("run_id", run.id).obj("frame").kv("seq", seq).kv("frame_index", f.i64(0)).kv("start_ns", f.i64(1));
    j.kv("duration_ns", f.i64(2) - f.i64(1)).kv("count", f.i64(3)).kv("requested_bytes", f.i64(4));
    j.kv("gc_bytes", f.i64(5)).kv("dropped", f.i64(6)).kv("heap_size", f.i64(7)).kv("free_bytes", f.i64(8));
    j.kv("collections", f.i64(9)).kv("gc_ns", f.i64(10)).key("live_bytes");
    f.null(11) ? j.null() : j.val(f.i64(11));
    j.kv("flags", f.i64(12)).end_obj();

    // Group the frame's (class, stack) rows by class, biggest first.
    struct Cls {
        int64_t id;
        Totals t;
        std::vector<ClassStack> stacks;
    };
    std::map<int64_t, Cls> by_class;
    // Rows per allocating thread, summed per (class, stack) in primary-key order.
    auto a = query(db, "SELECT class_id, stack_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM allocs "
                       "WHERE run_id=?1 AND seq=?2" + filter.sql(3) + " GROUP BY class_id, stack_id");
    a.binds(run.id, seq);
    filter.bind(a, 3);
    while (a.step()) {
        ClassStack cs{a.i64(0), a.i64(1), {a.i64(2), a.i64(3), a.i64(4)}};
        auto &c = by_class.try_emplace(cs.class_id, Cls{cs.class_id, {}, {}}).first->second;
        c.t.add(cs.t);
        c.stacks.push_back(cs);
    }
    std::vector<Cls> order;
    for (auto &[_, c] : by_class) order.push_back(std::move(c));
    auto bigger = [&](const auto &x, const auto &y) { return x.t.get(by) > y.t.get(by); };
    std::stable_sort(order.begin(), order.end(), bigger);
    // Per-id lookups, not whole-run dictionaries: a frame touches a few dozen of thousands.
    std::map<int64_t, std::optional<ClassInfo>> classes;
    auto cls = [&](int64_t id) -> const ClassInfo * {
        auto it = classes.find(id);
        if (it == classes.end()) it = classes.emplace(id, find_class(db, run.id, id)).first;
        return it->second ? &*it->second : nullptr;
    };

    write_filter(j, filter);
    j.kv("by", metric_name(by)).arr("classes");
    for (int64_t i = pg.offset; i < static_cast<int64_t>(order.size()) && i < pg.offset + pg.limit; ++i) {
        auto &c = order[static_cast<size_t>(i)];
        j.obj();
        write_class(j, c.id, cls(c.id));
        write_totals(j, c.t);
        std::stable_sort(c.stacks.begin(), c.stacks.end(), bigger);
        j.arr("stacks");
        for (const auto &cs : c.stacks) {
            j.obj().kv("stack_id", cs.stack_id);
            write_totals(j, cs.t);
            j.obj("site");
            write_site(j, find_stack_site(db, run.id, cs.stack_id));
            j.end_obj().key("frames");
            write_frames(j, resolve_stack(db, run.id, cs.stack_id));
            j.end_obj();
        }
        j.end_arr().end_obj();
    }
    j.end_arr();
    write_page(j, static_cast<int64_t>(order.size()), pg);

    auto g = query(db,
                   "SELECT seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no FROM gc_events "
                   "WHERE run_id=? AND seq=? ORDER BY start_ns");
    g.binds(run.id, seq);
    j.arr("gc");
    while (g.step()) write_gc(j, read_gc(g));
    j.end_arr();
    auto d = query(db, "SELECT class_id, count, gc_bytes FROM deaths WHERE run_id=? AND seq=? ORDER BY gc_bytes DESC");
    d.binds(run.id, seq);
    j.arr("deaths");
    while (d.step()) {
        j.obj();
        write_class(j, d.i64(0), cls(d.i64(0)));
        j.kv("count", d.i64(1)).kv("gc_bytes", d.i64(2)).end_obj();
    }
    j.end_arr().end_obj();
    return ok(j);
}

}  // namespace mt::viewer
