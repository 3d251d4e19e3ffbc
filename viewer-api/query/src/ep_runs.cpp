// ep_runs.cpp — the runs list and one run's summary.
#include "endpoints.h"
#include "model.h"
#include "sqlite.h"

#include <memtracer/format.h>

namespace mt::viewer {

namespace {
// The columns a runs-list entry and a summary share, in this order.
constexpr const char *kRunColumns =
    "run_id, source_file, start_unix_ns, process, device, os, arch, session_label, build_id, mode, "
    "frame_count, duration_ns, alloc_count, requested_bytes, gc_bytes, gc_count, dropped, stop, "
    "stop_reason, has_lifetimes, sample_interval, source_size, ingested_unix_ns, pid, tick_hz";

RunEntry read_run(const Stmt &s) {
    RunEntry e;
    e.run_id = s.i64(0), e.source_file = s.str(1), e.start_unix_ns = s.i64(2);
    e.process = s.str(3), e.device = s.str(4), e.os = s.str(5), e.arch = s.str(6);
    e.session_label = s.str(7), e.build_id = s.str(8), e.mode = s.str(9);
    e.frames = s.i64(10), e.duration_ns = s.i64(11);
    e.totals = {s.i64(12), s.i64(13), s.i64(14)};
    e.collections = s.i64(15), e.dropped = s.i64(16);
    e.stop = s.str(17), e.stop_reason = s.str(18), e.has_lifetimes = s.i64(19) != 0;
    e.sample_interval = s.i64(20), e.source_size = s.i64(21), e.ingested_unix_ns = s.i64(22);
    e.pid = s.i64(23), e.tick_hz = s.f64(24);
    return e;
}

// Where the run's GC figures came from, from its frames' flags: a patched libil2cpp measures
// GC sizes, no-patch mode estimates them and may see collections only through il2cpp's profiler
// (timing, no heap figures). A user comparing runs must know an estimate from a measurement.
void write_figure_sources(Json &j, Database &db, int64_t run, int64_t collections) {
    auto f = query(db, "SELECT coalesce(max((flags & ?2) != 0), 0), coalesce(max((flags & ?3) != 0), 0), "
                       "coalesce(max((flags & ?4) != 0), 0) FROM frames WHERE run_id=?1");
    f.binds(run, int64_t{MT_FRAME_GC_SIZE_EXACT}, int64_t{MT_FRAME_GC_SIZE_ESTIMATED}, int64_t{MT_FRAME_GC_FROM_PROFILER});
    f.step();
    const bool exact = f.i64(0) != 0, estimated = f.i64(1) != 0, profiler = f.i64(2) != 0;
    // Neither bit: a capture older than these flags, or no collector reachable (GC size = requested).
    const char *gc_sizes = exact && estimated ? "mixed" : exact ? "exact" : estimated ? "estimated" : "unknown";
    const char *gcs = profiler ? "il2cpp_profiler" : collections > 0 ? "boehm" : "none";
    j.obj("figures").kv("gc_sizes", gc_sizes).kv("collections", gcs).end_obj();
}
}  // namespace

RunsResult compute_runs(Database &db, const Page &page) {
    RunsResult r;
    r.page = page;
    auto n = query(db, "SELECT count(*) FROM runs");
    n.step();
    r.total = n.i64(0);
    auto s = query(db, std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY run_id LIMIT ? OFFSET ?");
    s.binds(page.limit, page.offset);
    while (s.step()) r.runs.push_back(read_run(s));
    return r;
}

Response runs_list(Database &db, const Request &req) {
    Params p(req, {"limit", "offset"});
    return Response{200, render_runs(compute_runs(db, page_params(p, 100, 1000))), "application/json", ""};
}

Response run_summary(Database &db, const Request &req, int64_t run) {
    Params p(req, {});
    auto s = query(db, std::string("SELECT ") + kRunColumns + " FROM runs WHERE run_id=?");
    s.binds(run);
    if (!s.step()) throw ApiError{404, "no run " + std::to_string(run), "run"};
    Json j;
    const RunEntry e = read_run(s);
    j.obj();
    write_run_entry(j, e);
    j.kv("sample_interval", e.sample_interval).kv("source_size", e.source_size).kv("ingested_unix_ns", e.ingested_unix_ns);
    j.kv("pid", e.pid).kv("tick_hz", e.tick_hz);
    write_figure_sources(j, db, run, s.i64(15));

    auto info = query(db, "SELECT key, value FROM run_info WHERE run_id=? ORDER BY key");
    info.binds(run);
    j.obj("info");
    while (info.step()) j.kv(info.text(0), info.text(1));
    j.end_obj();

    auto fr = query(db,
                    "SELECT count(*), min(frame_index), max(frame_index), max(heap_size), max(live_bytes), "
                    "sum(gc_ns), sum(dropped) FROM frames WHERE run_id=?");
    fr.binds(run);
    fr.step();
    j.obj("frame_stats").kv("rows", fr.i64(0)).kv("first_frame_index", fr.i64(1)).kv("last_frame_index", fr.i64(2));
    j.kv("max_heap_size", fr.i64(3)).key("max_live_bytes");
    fr.null(4) ? j.null() : j.val(fr.i64(4));
    j.kv("gc_ns", fr.i64(5)).kv("dropped", fr.i64(6)).end_obj();

    auto th = query(db, "SELECT thread_id, os_tid, name FROM threads WHERE run_id=? ORDER BY thread_id");
    th.binds(run);
    j.arr("threads");
    while (th.step()) j.obj().kv("thread_id", th.i64(0)).kv("os_tid", th.i64(1)).kv("name", th.text(2)).end_obj();
    j.end_arr();

    auto mo = query(db,
                    "SELECT module_id, kind, path, build_id, symbol_file FROM modules WHERE run_id=? ORDER BY module_id");
    mo.binds(run);
    j.arr("modules");
    while (mo.step()) {
        j.obj().kv("module_id", mo.i64(0)).kv("kind", mo.text(1)).kv("path", mo.text(2)).kv("build_id", mo.text(3));
        j.key("symbol_file");
        mo.null(4) ? j.null() : j.val(mo.text(4));
        j.end_obj();
    }
    j.end_arr();

    auto cnt = query(db,
                     "SELECT (SELECT count(*) FROM classes WHERE run_id=?1), (SELECT count(*) FROM stacks WHERE "
                     "run_id=?1), (SELECT count(DISTINCT site_id) FROM stacks WHERE run_id=?1), "
                     "(SELECT count(*) FROM gc_events WHERE run_id=?1), "
                     "(SELECT coalesce(sum(count),0) FROM survivors WHERE run_id=?1), "
                     "(SELECT coalesce(sum(gc_bytes),0) FROM survivors WHERE run_id=?1)");
    cnt.binds(run);
    cnt.step();
    j.obj("counts").kv("classes", cnt.i64(0)).kv("stacks", cnt.i64(1)).kv("sites", cnt.i64(2));
    j.kv("gc_events", cnt.i64(3)).kv("survivors", cnt.i64(4)).kv("survivor_bytes", cnt.i64(5)).end_obj();
    j.end_obj();
    return ok(j);
}

}  // namespace mt::viewer
