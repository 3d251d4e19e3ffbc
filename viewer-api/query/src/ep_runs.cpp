// ep_runs.cpp — the runs list and one run's summary.
#include "endpoints.h"
#include "model.h"
#include "memtracer/viewer/backend.h"

#include <memtracer/format.h>

namespace mt::viewer {

namespace {
// Where the run's GC figures came from, from its frames' flags: a patched libil2cpp measures
// GC sizes, no-patch mode estimates them and may see collections only through il2cpp's profiler
// (timing, no heap figures). A user comparing runs must know an estimate from a measurement.
void write_figure_sources(Json &j, Database &db, int64_t run, int64_t collections) {
    const FigureFlags f = db.backend().figure_flags(run);
    const bool exact = f.exact, estimated = f.estimated, profiler = f.profiler;
    // Neither bit: a capture older than these flags, or no collector reachable (GC size = requested).
    const char *gc_sizes = exact && estimated ? "mixed" : exact ? "exact" : estimated ? "estimated" : "unknown";
    const char *gcs = profiler ? "il2cpp_profiler" : collections > 0 ? "boehm" : "none";
    j.obj("figures").kv("gc_sizes", gc_sizes).kv("collections", gcs).end_obj();
}
}  // namespace

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

Response run_summary(Database &db, const Request &req, int64_t run) {
    Params p(req, {});
    RunBackend &be = db.backend();
    auto found = be.run(run);
    if (!found) throw ApiError{404, "no run " + std::to_string(run), "run"};
    Json j;
    const RunEntry &e = *found;
    j.obj();
    write_run_entry(j, e);
    j.kv("sample_interval", e.sample_interval).kv("source_size", e.source_size).kv("ingested_unix_ns", e.ingested_unix_ns);
    j.kv("pid", e.pid).kv("tick_hz", e.tick_hz);
    write_figure_sources(j, db, run, e.collections);

    j.obj("info");
    for (const auto &[k, v] : be.run_info(run)) j.kv(k, v);
    j.end_obj();

    const FrameStats fr = be.frame_stats(run);
    j.obj("frame_stats").kv("rows", fr.rows).kv("first_frame_index", fr.first_frame_index).kv("last_frame_index", fr.last_frame_index);
    j.kv("max_heap_size", fr.max_heap_size).key("max_live_bytes");
    fr.max_live_bytes ? j.val(*fr.max_live_bytes) : j.null();
    j.kv("gc_ns", fr.gc_ns).kv("dropped", fr.dropped).end_obj();

    j.arr("threads");
    for (const ThreadRow &t : be.threads(run))
        j.obj().kv("thread_id", t.thread_id).kv("os_tid", t.os_tid).kv("name", t.name).end_obj();
    j.end_arr();

    j.arr("modules");
    for (const ModuleRow &m : be.modules(run)) {
        j.obj().kv("module_id", m.module_id).kv("kind", m.kind).kv("path", m.path).kv("build_id", m.build_id);
        j.key("symbol_file");
        m.symbol_file ? j.val(*m.symbol_file) : j.null();
        j.end_obj();
    }
    j.end_arr();

    const RunCounts cnt = be.counts(run);
    j.obj("counts").kv("classes", cnt.classes).kv("stacks", cnt.stacks).kv("sites", cnt.sites);
    j.kv("gc_events", cnt.gc_events).kv("survivors", cnt.survivors).kv("survivor_bytes", cnt.survivor_bytes).end_obj();
    j.end_obj();
    return ok(j);
}

}  // namespace mt::viewer
