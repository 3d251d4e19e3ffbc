#include "model.h"

#include <limits>
#include <unordered_map>
#include <utility>

#include "memtracer/viewer/backend.h"

namespace mt::viewer {

constexpr int64_t kMaxId = std::numeric_limits<int64_t>::max();

int64_t parse_id(std::string_view seg, const std::string &what) { return parse_int(seg, 0, kMaxId, what); }

RunRow load_run(Database &db, int64_t run_id) {
    auto st = db.backend().run_state(run_id);
    if (!st) throw ApiError{404, "no run " + std::to_string(run_id), "run"};
    RunRow r;
    r.id = run_id;
    r.build_id = st->build_id;
    r.frames = st->frames;
    // Still followed (memtracer-symbolize --follow: live_state 'live'), or a frame_count behind
    // its frames: a batch committed between those two reads, or a writer without live_state.
    r.growing = st->frame_count != r.frames || st->live_state == "live";
    r.markers = load_markers(db, run_id);
    return r;
}

Range frame_range(const Params &p, const RunRow &run, const std::string &from, const std::string &to) {
    Range r;
    r.to = run.frames - 1;
    auto f = p.get(from), t = p.get(to);
    if (run.frames == 0) {
        if (f || t) throw ApiError{400, "run " + std::to_string(run.id) + " has no frames", f ? from : to};
        return r;
    }
    auto end = [&](std::string_view v, const std::string &name) {
        if (auto m = marker_end(run, v, name)) return *m;
        return parse_int(v, 0, run.frames - 1, name);
    };
    if (f) r.from = end(*f, from);
    if (t) r.to = end(*t, to);
    if (r.to < r.from) throw ApiError{400, to + " must not be below " + from, to};
    r.whole = r.from == 0 && r.to == run.frames - 1;
    return r;
}

Metric metric_param(const Params &p, std::string_view name) {
    auto m = p.choice(name, {"bytes", "gc_bytes", "count"}, "bytes");
    return m == "count" ? Metric::Count : m == "gc_bytes" ? Metric::GcBytes : Metric::Bytes;
}

std::string_view metric_name(Metric m) {
    return m == Metric::Count ? "count" : m == Metric::GcBytes ? "gc_bytes" : "bytes";
}

void write_totals(Json &j, const Totals &t) {
    j.kv("count", t.count).kv("requested_bytes", t.requested_bytes).kv("gc_bytes", t.gc_bytes);
}


std::unordered_map<int64_t, ClassInfo> load_classes(Database &db, int64_t run) {
    std::unordered_map<int64_t, ClassInfo> out;
    for (auto &[id, c] : db.backend().classes(run)) out[id] = std::move(c);
    return out;
}

std::optional<ClassInfo> find_class(Database &db, int64_t run, int64_t class_id) {
    return db.backend().find_class(run, class_id);
}

void write_class(Json &j, int64_t class_id, const ClassInfo *c) {
    j.kv("class_id", class_id);
    if (!c) {  // allocs rows name a class the CLASSES chunk never defined: show, do not drop
        std::string n = "<class " + std::to_string(class_id) + ">";
        j.kv("name", n).kv("namespace", "").kv("full_name", n).kv("flags", 0);
        return;
    }
    j.kv("name", c->name).kv("namespace", c->ns).kv("full_name", c->full_name).kv("flags", c->flags);
}

std::unordered_map<int64_t, int64_t> load_stack_sites(Database &db, int64_t run) {
    std::unordered_map<int64_t, int64_t> out;
    for (auto [stack, site] : db.backend().stack_sites(run)) out[stack] = site;
    return out;
}

std::unordered_map<int64_t, SiteInfo> load_sites(Database &db, int64_t run) {
    std::unordered_map<int64_t, SiteInfo> out;
    for (auto &s : db.backend().sites(run)) out[s.id] = std::move(s);
    return out;
}

std::optional<SiteInfo> find_stack_site(Database &db, int64_t run, int64_t stack_id) {
    return db.backend().find_stack_site(run, stack_id);
}

void write_site(Json &j, const std::optional<SiteInfo> &s) {
    write_site(j, s ? s->id : kNoSite, s ? &*s : nullptr);
}

void write_site(Json &j, int64_t site_id, const SiteInfo *s) {
    if (site_id == kNoSite || !s) {
        j.key("site_id").null().kv("function", "(no game code)").kv("file", "").kv("line", 0);
        return;
    }
    j.kv("site_id", site_id).kv("function", s->function).kv("file", s->file).kv("line", s->line);
}

Page page_params(const Params &p, int64_t def_limit, int64_t max_limit) {
    Page pg;
    pg.limit = p.integer("limit", def_limit, 1, max_limit);
    pg.offset = p.integer("offset", 0, 0, kMaxId / 2);
    return pg;
}

void write_page(Json &j, int64_t total, const Page &pg) {
    j.kv("total", total).kv("limit", pg.limit).kv("offset", pg.offset).key("next_offset");
    if (pg.offset + pg.limit < total)
        j.val(pg.offset + pg.limit);
    else
        j.null();
}

std::string end_paged(Json &j, int64_t total, const Page &pg) {
    j.end_arr();
    write_page(j, total, pg);
    j.end_obj();
    return j.take();
}

}  // namespace mt::viewer
