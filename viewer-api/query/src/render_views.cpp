// render_views.cpp — the compare and trace results (memtracer/viewer/results.h) as their
// endpoints' JSON: /api/compare and the Chrome trace event file of .../trace.
#include <cstdio>

#include "filter.h"
#include "memtracer/json.h"
#include "model.h"

namespace mt::viewer {

namespace {
void write_side(Json &j, std::string_view name, const CompareSide &s) {
    j.obj(name).kv("run_id", s.run_id).kv("from", s.from).kv("to", s.to);
    j.kv("frames", s.frames).kv("game_frames", s.game_frames).kv("build_id", s.build_id).obj("totals");
    write_totals(j, s.totals);
    j.end_obj().end_obj();
}

void write_delta(Json &j, const Totals &a, const Totals &b) {
    j.obj("delta").kv("count", b.count - a.count).kv("requested_bytes", b.requested_bytes - a.requested_bytes);
    j.kv("gc_bytes", b.gc_bytes - a.gc_bytes).end_obj();
}
}  // namespace

std::string render_compare(const CompareResult &r) {
    const bool by_class = r.group == Group::Class;
    Json j;
    j.obj().kv("group", by_class ? "class" : "site").kv("by", metric_name(r.by));
    j.kv("match", by_class ? "full_name" : r.full_key ? "function_file_line" : "function");
    j.kv("normalize", r.per_frame ? "per_frame" : "none");
    write_filter(j, r.filter);
    write_side(j, "a", r.a);
    write_side(j, "b", r.b);
    write_delta(j, r.a.totals, r.b.totals);
    j.obj("counts").kv("new", r.n_new).kv("vanished", r.n_vanished).kv("changed", r.n_changed).kv("same", r.n_same).end_obj();
    j.arr("entries");
    for (const CompareEntry &e : r.entries) {
        j.obj().kv("status", e.status);
        if (by_class) {
            j.kv("full_name", e.cls.full_name).kv("name", e.cls.name).kv("namespace", e.cls.ns);
        } else {
            j.kv("function", e.site.function).kv("file", e.site.file).kv("line", e.site.line);
        }
        j.obj("a");
        write_totals(j, e.a);
        j.end_obj().obj("b");
        write_totals(j, e.b);
        j.end_obj();
        write_delta(j, e.a, e.b);
        j.kv("growth", e.growth);
        j.end_obj();
    }
    return end_paged(j, r.total, r.page);
}

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

void write_frame(Json &j, const TraceFrame &tf) {
    const FrameRow &f = tf.row;
    const Totals &alloc = tf.alloc;
    int64_t start = f.start_ns, end = f.end_ns;
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
}
}  // namespace

std::string render_trace(const TraceResult &r) {
    Json j;
    j.reserve(r.frames.size() * 600 + 1024);
    j.obj().kv("displayTimeUnit", "ms").obj("otherData").kv("run_id", r.run_id).kv("build_id", r.build_id);
    j.kv("from", r.from).kv("to", r.to);
    write_filter(j, r.filter);
    j.end_obj().arr("traceEvents");
    meta(j, "process_name", 0, r.label);
    meta(j, "thread_name", kFrameTid, "Frames");
    meta(j, "thread_name", kGcTid, "GC");
    for (const TraceFrame &f : r.frames) write_frame(j, f);
    for (const GcRow &g : r.gc) {
        j.obj().kv("name", "GC #" + std::to_string(g.gc_no)).kv("cat", "gc").kv("ph", "X");
        j.kv("pid", kPid).kv("tid", kGcTid);
        ts(j, "ts", g.start_ns);
        ts(j, "dur", g.duration_ns > 0 ? g.duration_ns : 0);
        j.obj("args").kv("frame_seq", g.seq).kv("heap_size", g.heap_size).kv("free_bytes", g.free_bytes);
        j.kv("reclaimed_bytes", g.reclaimed_bytes).end_obj().end_obj();
    }
    j.end_arr().end_obj();
    return j.take();
}

}  // namespace mt::viewer
