// ep_trace.cpp — a run as Chrome trace event JSON (chrome://tracing, Perfetto UI): per-frame
// counters as "C" events, frames and GCs as "X" slices on their own tracks.
#include <cstdio>

#include "endpoints.h"
#include "filter.h"
#include "model.h"

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
    auto st = db.backend().run_state(run.id);
    RunState info = st ? *st : RunState{};
    std::string label = (info.process.empty() ? std::string("run") : info.process) + " (run " + std::to_string(run.id) +
                        (info.device.empty() ? "" : ", " + info.device) + ")";
    Json j;
    j.reserve(static_cast<size_t>(r.size()) * 600 + 1024);
    j.obj().kv("displayTimeUnit", "ms").obj("otherData").kv("run_id", run.id).kv("build_id", info.build_id);
    j.kv("from", r.from).kv("to", r.to);
    write_filter(j, filter);
    j.end_obj().arr("traceEvents");
    meta(j, "process_name", 0, label);
    meta(j, "thread_name", kFrameTid, "Frames");
    meta(j, "thread_name", kGcTid, "GC");
    db.backend().frames(run.id, r.from, r.to, [&](const FrameRow &f) {
        int64_t start = f.start_ns, end = f.end_ns;
        Totals alloc{f.alloc_count, f.requested_bytes, f.gc_bytes};
        if (filter.active()) alloc = ft[static_cast<size_t>(f.seq - r.from)];
        j.obj().kv("name", "Frame " + std::to_string(f.frame_index)).kv("cat", "frame").kv("ph", "X");
        j.kv("pid", kPid).kv("tid", kFrameTid);
        ts(j, "ts", start);
        ts(j, "dur", end > start ? end - start : 0);
        j.obj("args").kv("seq", f.seq).kv("allocations", alloc.count).kv("requested_bytes", alloc.requested_bytes);
        j.end_obj().end_obj();
        counter(j, "Allocated bytes", start);
        j.kv("requested", alloc.requested_bytes).kv("gc", alloc.gc_bytes).end_obj().end_obj();
        counter(j, "Allocations", start);
        j.kv("count", alloc.count).end_obj().end_obj();
        counter(j, "Heap", start);
        j.kv("heap_size", f.heap_size).kv("free_bytes", f.free_bytes).end_obj().end_obj();
        if (f.live_bytes) {
            counter(j, "Live bytes", start);
            j.kv("live", *f.live_bytes).end_obj().end_obj();
        }
    });
    for (const GcRow &g : db.backend().gc_events(run.id, r.from, r.to, GcOrder::Start)) {
        j.obj().kv("name", "GC #" + std::to_string(g.gc_no)).kv("cat", "gc").kv("ph", "X");
        j.kv("pid", kPid).kv("tid", kGcTid);
        ts(j, "ts", g.start_ns);
        ts(j, "dur", g.duration_ns > 0 ? g.duration_ns : 0);
        j.obj("args").kv("frame_seq", g.seq).kv("heap_size", g.heap_size).kv("free_bytes", g.free_bytes);
        j.kv("reclaimed_bytes", g.reclaimed_bytes).end_obj().end_obj();
    }
    j.end_arr().end_obj();
    return {200, j.take(), "application/json", "run-" + std::to_string(run.id) + ".trace.json"};
}

}  // namespace mt::viewer
