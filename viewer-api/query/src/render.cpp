// render.cpp — the typed results (memtracer/viewer/results.h) as their endpoints' JSON. Knows
// nothing of the database: what is here is the JSON contract of docs/api.md.
#include "filter.h"
#include "memtracer/json.h"
#include "model.h"
#include "stacks.h"

namespace mt::viewer {

std::string class_display_name(int64_t class_id, const std::optional<ClassInfo> &c) {
    return c ? c->full_name : "<class " + std::to_string(class_id) + ">";
}

SiteInfo site_or_none(const std::optional<SiteInfo> &s) { return s ? *s : SiteInfo{kNoSite, "(no game code)", "", 0}; }

namespace {
void write_class(Json &j, int64_t id, const std::optional<ClassInfo> &c) { mt::viewer::write_class(j, id, c ? &*c : nullptr); }

// A row's identity: a class, a site, or a stack with its site and frames (`frames_key`).
template <class E>
void write_key(Json &j, Group g, const E &e, std::string_view frames_key, const std::vector<SymFrame> &frames) {
    if (g == Group::Class) {
        write_class(j, e.key, e.cls);
    } else if (g == Group::Site) {
        write_site(j, e.key, e.site ? &*e.site : nullptr);
    } else {
        j.kv("stack_id", e.key).obj("site");
        write_site(j, e.site);
        j.end_obj().key(frames_key);
        write_frames(j, frames);
    }
}
}  // namespace

std::string render_top(const TopResult &r) {
    Json j;
    j.obj().kv("run_id", r.run_id).obj("range").kv("from", r.range.from).kv("to", r.range.to).kv("whole", r.range.whole);
    j.kv("game_frames", r.range.game_frames).end_obj();
    write_filter(j, r.filter);
    j.kv("by", metric_name(r.by)).kv("group", group_name(r.group)).obj("totals");
    write_totals(j, r.totals);
    j.end_obj().arr("entries");
    for (const TopEntry &e : r.entries) {
        j.obj().kv("rank", e.rank);
        write_key(j, r.group, e, "frames", e.frames);
        write_totals(j, e.t);
        j.kv("share", e.share);
        if (r.group != Group::Class) {
            j.arr("classes");
            for (const TopClass &c : e.classes) {
                j.obj();
                write_class(j, c.class_id, c.info);
                write_totals(j, c.t);
                j.end_obj();
            }
            j.end_arr().kv("class_count", e.class_count);
        }
        j.end_obj();
    }
    return end_paged(j, r.total, r.page);
}

std::string render_lifetimes(const LifetimeResult &r) {
    Json j;
    j.obj().kv("run_id", r.run_id).obj("range").kv("from", r.range.from).kv("to", r.range.to).kv("whole", r.range.whole).end_obj();
    j.kv("by", r.by == LifetimeMetric::Count ? "count" : r.by == LifetimeMetric::Frames ? "frames" : "gc_bytes");
    j.kv("group", group_name(r.group));
    j.kv("lifetimes", r.available).key("note");
    r.available ? j.null() : j.val(r.note);
    write_filter(j, r.filter);
    if (r.leaks) {
        j.obj("totals").kv("count", r.count).kv("gc_bytes", r.gc_bytes).end_obj();
    } else {
        j.kv("within", r.within).obj("totals").kv("count", r.count).kv("gc_bytes", r.gc_bytes);
        j.kv("allocated", r.allocated).end_obj();
    }
    j.arr("entries");
    for (const LifetimeEntry &e : r.entries) {
        j.obj().kv("rank", e.rank);
        write_key(j, r.group, e, r.leaks ? "stack_frames" : "frames", e.stack_frames);
        j.kv("count", e.count).kv("gc_bytes", e.gc_bytes).kv("allocated", e.allocated).kv("share", e.share);
        if (r.leaks) j.kv("oldest_seq", e.oldest_seq).kv("age_frames", e.age_frames).kv("frames", e.frames);
        if (e.main_class) {
            j.obj("main_class");
            write_class(j, e.main_class->class_id, e.main_class->info);
            j.kv("gc_bytes", e.main_class->gc_bytes).kv("class_count", e.main_class->class_count).end_obj();
        }
        j.end_obj();
    }
    return end_paged(j, r.total, r.page);
}

std::string render_frames(const FramesResult &r) {
    Json j;
    const size_t n = r.columns[0].size();
    j.reserve(n * (r.ncols == kFrameAllCols ? 110 : 60) + 256);
    j.obj().kv("run_id", r.run_id).kv("from", r.from).kv("to", r.to).kv("frames", r.frames).key("next_from");
    r.next_from ? j.val(*r.next_from) : j.null();
    write_filter(j, r.filter);
    for (int c = 0; c < r.ncols; ++c) {
        j.arr(kFrameColumnNames[c]);
        for (int64_t x : r.columns[static_cast<size_t>(c)]) j.val(x);
        j.end_arr();
    }
    j.key("live_bytes");  // null: the run did not record lifetimes
    if (r.live_bytes) {
        j.arr();
        for (auto &v : *r.live_bytes) v ? j.val(*v) : j.null();
        j.end_arr();
    } else {
        j.null();
    }
    j.key("live_peak");
    r.live_peak ? j.obj().kv("seq", r.live_peak->seq).kv("live_bytes", r.live_peak->value).end_obj() : j.null();
    j.key("heap_peak");
    r.heap_peak ? j.obj().kv("seq", r.heap_peak->seq).kv("heap_size", r.heap_peak->value).end_obj() : j.null();
    j.arr("gc");
    for (const GcRow &g : r.gc) write_gc(j, g);
    j.end_arr().end_obj();
    return j.take();
}

void write_gc(Json &j, const GcRow &g) {
    j.obj().kv("seq", g.seq).kv("start_ns", g.start_ns).kv("duration_ns", g.duration_ns);
    j.kv("heap_size", g.heap_size).kv("free_bytes", g.free_bytes).kv("reclaimed_bytes", g.reclaimed_bytes).kv("gc_no", g.gc_no);
    j.end_obj();
}

std::string render_markers(const MarkersResult &r) {
    Json j;
    j.obj().kv("run", r.run).arr("markers");
    for (const MarkerRow &m : r.markers)
        j.obj().kv("seq", m.seq).kv("frame_index", m.frame_index).kv("ns", m.ns).kv("label", m.label).end_obj();
    j.end_arr().end_obj();
    return j.take();
}

void write_run_entry(Json &j, const RunEntry &e) {
    j.kv("run_id", e.run_id).kv("source_file", e.source_file).kv("start_unix_ns", e.start_unix_ns);
    j.kv("process", e.process).kv("device", e.device).kv("os", e.os).kv("arch", e.arch);
    j.kv("session_label", e.session_label).kv("build_id", e.build_id).kv("mode", e.mode);
    j.kv("frames", e.frames).kv("duration_ns", e.duration_ns);
    j.obj("totals").kv("count", e.totals.count).kv("requested_bytes", e.totals.requested_bytes).kv("gc_bytes", e.totals.gc_bytes);
    j.kv("collections", e.collections).kv("dropped", e.dropped).end_obj();
    j.kv("stop", e.stop).kv("stop_reason", e.stop_reason).kv("has_lifetimes", e.has_lifetimes);
}

std::string render_runs(const RunsResult &r) {
    Json j;
    j.obj().arr("runs");
    for (const RunEntry &e : r.runs) {
        j.obj();
        write_run_entry(j, e);
        j.end_obj();
    }
    return end_paged(j, r.total, r.page);
}

}  // namespace mt::viewer
