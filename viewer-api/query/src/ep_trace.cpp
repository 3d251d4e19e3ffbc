// ep_trace.cpp — a run as Chrome trace event JSON (chrome://tracing, Perfetto UI): per-frame
// counters as "C" events, frames and GCs as "X" slices on their own tracks.
#include <cstdio>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "sqlite.h"

namespace mt::viewer {

namespace {
constexpr int kPid = 1, kFrameTid = 1, kGcTid = 2;

// Trace timestamps are microseconds; keep the nanoseconds as the fraction.
void ts(Json &j, const char *key, int64_t ns) {
    if (ns < 0) ns = 0;
    char buf[32];
    int n = std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000),
                          static_cast<long long>(ns % 1000));
    j.key(key).raw_value(std::string_view(buf, static_cast<size_t>(n)));
}

void meta(Json &j, const char *what, int tid, const std::string &name) {
    j.obj().kv("name", what).kv("ph", "M").kv("pid", kPid).kv("tid", tid).obj("args").kv("name", name);
    j.end_obj().end_obj();
}

void counter(Json &j, const char *name, int64_t at) {
    j.obj().kv("name", name).kv("ph", "C").kv("pid", kPid);
    ts(j, "ts", at);
    j.obj("args");
}
}  // namespace

Response chrome_trace(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"from", "to", MT_FILTER_PARAMS});
    auto run = load_run(db, run_id);
    auto r = frame_range(p, run);
    auto filter = parse_filter(p, db, run);
    // Under a filter the allocation counters count what it keeps; frames, heap and GCs stay.
    auto ft = filter.active() ? filtered_frame_totals(db, run, r.from, r.to, filter) : std::vector<Totals>{};
    auto info = query(db, "SELECT process, device, build_id FROM runs WHERE run_id=?");
    info.binds(run.id);
    info.step();
    std::string label = (info.text(0).empty() ? std::string("run") : info.str(0)) + " (run " + std::to_string(run.id) +
                        (info.text(1).empty() ? "" : ", " + info.str(1)) + ")";
    Json j;
    j.reserve(static_cast<size_t>(r.size()) * 600 + 1024);
    j.obj().kv("displayTimeUnit", "ms").obj("otherData").kv("run_id", run.id).kv("build_id", info.text(2));
    j.kv("from", r.from).kv("to", r.to);
    write_filter(j, filter);
    j.end_obj().arr("traceEvents");
    meta(j, "process_name", 0, label);
    meta(j, "thread_name", kFrameTid, "Frames");
    meta(j, "thread_name", kGcTid, "GC");
    auto f = query(db,
                   "SELECT seq, frame_index, start_ns, end_ns, alloc_count, requested_bytes, gc_bytes, heap_size, "
                   "free_bytes, live_bytes FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? ORDER BY seq");
    f.binds(run.id, r.from, r.to);
    while (f.step()) {
        int64_t start = f.i64(2), end = f.i64(3);
        Totals alloc{f.i64(4), f.i64(5), f.i64(6)};
        if (filter.active()) alloc = ft[static_cast<size_t>(f.i64(0) - r.from)];
        j.obj().kv("name", "Frame " + std::to_string(f.i64(1))).kv("cat", "frame").kv("ph", "X");
        j.kv("pid", kPid).kv("tid", kFrameTid);
        ts(j, "ts", start);
        ts(j, "dur", end > start ? end - start : 0);
        j.obj("args").kv("seq", f.i64(0)).kv("allocations", alloc.count).kv("requested_bytes", alloc.requested_bytes);
        j.end_obj().end_obj();
        counter(j, "Allocated bytes", start);
        j.kv("requested", alloc.requested_bytes).kv("gc", alloc.gc_bytes).end_obj().end_obj();
        counter(j, "Allocations", start);
        j.kv("count", alloc.count).end_obj().end_obj();
        counter(j, "Heap", start);
        j.kv("heap_size", f.i64(7)).kv("free_bytes", f.i64(8)).end_obj().end_obj();
        if (!f.null(9)) {
            counter(j, "Live bytes", start);
            j.kv("live", f.i64(9)).end_obj().end_obj();
        }
    }
    auto g = query(db,
                   "SELECT seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no FROM gc_events "
                   "WHERE run_id=? AND seq BETWEEN ? AND ? ORDER BY start_ns");
    g.binds(run.id, r.from, r.to);
    while (g.step()) {
        j.obj().kv("name", "GC #" + std::to_string(g.i64(6))).kv("cat", "gc").kv("ph", "X");
        j.kv("pid", kPid).kv("tid", kGcTid);
        ts(j, "ts", g.i64(1));
        ts(j, "dur", g.i64(2) > g.i64(1) ? g.i64(2) - g.i64(1) : 0);
        j.obj("args").kv("frame_seq", g.i64(0)).kv("heap_size", g.i64(3)).kv("free_bytes", g.i64(4));
        j.kv("reclaimed_bytes", g.i64(5)).end_obj().end_obj();
    }
    j.end_arr().end_obj();
    return {200, j.take(), "application/json", "run-" + std::to_string(run.id) + ".trace.json"};
}

}  // namespace mt::viewer
