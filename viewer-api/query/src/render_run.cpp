// render_run.cpp — a run's summary and its threads (results.h) as their endpoints' JSON
// (docs/api.md). Knows nothing of the database.
#include "memtracer/json.h"
#include "filter.h"
#include "model.h"
#include "stacks.h"

namespace mt::viewer {

std::string render_summary(const SummaryResult &r) {
    const RunEntry &e = r.run;
    Json j;
    j.obj();
    write_run_entry(j, e);
    j.kv("sample_interval", e.sample_interval).kv("source_size", e.source_size).kv("ingested_unix_ns", e.ingested_unix_ns);
    j.kv("pid", e.pid).kv("tick_hz", e.tick_hz);
    j.obj("figures").kv("gc_sizes", r.gc_sizes).kv("collections", r.collections).end_obj();

    j.obj("info");
    for (const auto &[k, v] : r.info) j.kv(k, v);
    j.end_obj();

    const FrameStats &fr = r.frame_stats;
    j.obj("frame_stats").kv("rows", fr.rows).kv("first_frame_index", fr.first_frame_index).kv("last_frame_index", fr.last_frame_index);
    j.kv("max_heap_size", fr.max_heap_size).key("max_live_bytes");
    fr.max_live_bytes ? j.val(*fr.max_live_bytes) : j.null();
    j.kv("gc_ns", fr.gc_ns).kv("dropped", fr.dropped).end_obj();

    j.arr("threads");
    for (const ThreadRow &t : r.threads) j.obj().kv("thread_id", t.thread_id).kv("os_tid", t.os_tid).kv("name", t.name).end_obj();
    j.end_arr();

    j.arr("modules");
    for (const ModuleRow &m : r.modules) {
        j.obj().kv("module_id", m.module_id).kv("kind", m.kind).kv("path", m.path).kv("build_id", m.build_id);
        j.key("symbol_file");
        m.symbol_file ? j.val(*m.symbol_file) : j.null();
        j.end_obj();
    }
    j.end_arr();

    const RunCounts &c = r.counts;
    j.obj("counts").kv("classes", c.classes).kv("stacks", c.stacks).kv("sites", c.sites);
    j.kv("gc_events", c.gc_events).kv("survivors", c.survivors).kv("survivor_bytes", c.survivor_bytes).end_obj();
    j.end_obj();
    return j.take();
}

std::string render_threads(const ThreadsResult &r) {
    Json j;
    j.obj().kv("run_id", r.run_id).kv("split", r.split).arr("threads");
    for (const ThreadEntry &e : r.threads) {
        j.obj().kv("thread_id", e.thread.thread_id).kv("os_tid", e.thread.os_tid).kv("name", e.thread.name);
        if (e.t) {
            write_totals(j, *e.t);
        } else {
            j.key("count").null().key("requested_bytes").null().key("gc_bytes").null();
        }
        j.end_obj();
    }
    j.end_arr().end_obj();
    return j.take();
}

}  // namespace mt::viewer

namespace mt::viewer {

std::string render_frame_detail(const FrameDetailResult &r) {
    const FrameRow &f = r.frame;
    Json j;
    j.obj().kv("run_id", r.run_id).obj("frame").kv("seq", r.seq).kv("frame_index", f.frame_index).kv("start_ns", f.start_ns);
    j.kv("duration_ns", f.end_ns - f.start_ns).kv("count", f.alloc_count).kv("requested_bytes", f.requested_bytes);
    j.kv("gc_bytes", f.gc_bytes).kv("dropped", f.dropped).kv("heap_size", f.heap_size).kv("free_bytes", f.free_bytes);
    j.kv("collections", f.gc_count).kv("gc_ns", f.gc_ns).key("live_bytes");
    f.live_bytes ? j.val(*f.live_bytes) : j.null();
    j.kv("flags", f.flags).end_obj();
    write_filter(j, r.filter);
    j.kv("by", metric_name(r.by)).arr("classes");
    for (const FrameClass &c : r.classes) {
        j.obj();
        write_class(j, c.class_id, c.info ? &*c.info : nullptr);
        write_totals(j, c.t);
        j.arr("stacks");
        for (const FrameStack &st : c.stacks) {
            j.obj().kv("stack_id", st.stack_id);
            write_totals(j, st.t);
            j.obj("site");
            write_site(j, st.site);
            j.end_obj().key("frames");
            write_frames(j, st.frames);
            j.end_obj();
        }
        j.end_arr().end_obj();
    }
    j.end_arr();
    write_page(j, r.total, r.page);
    j.arr("gc");
    for (const GcRow &g : r.gc) write_gc(j, g);
    j.end_arr();
    j.arr("deaths");
    for (const FrameDeath &d : r.deaths) {
        j.obj();
        write_class(j, d.class_id, d.info ? &*d.info : nullptr);
        j.kv("count", d.count).kv("gc_bytes", d.gc_bytes).end_obj();
    }
    j.end_arr().end_obj();
    return j.take();
}

}  // namespace mt::viewer
