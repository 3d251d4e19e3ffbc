#include "model.h"

#include <limits>
#include <unordered_map>
#include <utility>

#include "sqlite.h"

namespace mt::viewer {

constexpr int64_t kMaxId = std::numeric_limits<int64_t>::max();

int64_t parse_id(std::string_view seg, const std::string &what) { return parse_int(seg, 0, kMaxId, what); }

// runs.live_state came with --follow; a database written before it has no such column.
static bool has_live_state(Database &db) {
    auto c = query(db, "SELECT count(*) FROM pragma_table_info('runs') WHERE name='live_state'");
    return c.step() && c.i64(0) > 0;
}

RunRow load_run(Database &db, int64_t run_id) {
    auto s = query(db, has_live_state(db) ? "SELECT build_id, frame_count, live_state FROM runs WHERE run_id=?"
                                          : "SELECT build_id, frame_count, '' FROM runs WHERE run_id=?");
    s.binds(run_id);
    if (!s.step()) throw ApiError{404, "no run " + std::to_string(run_id), "run"};
    RunRow r;
    r.id = run_id;
    r.build_id = s.str(0);
    auto f = query(db, "SELECT max(seq) FROM frames WHERE run_id=?");
    f.binds(run_id);
    r.frames = f.step() && !f.null(0) ? f.i64(0) + 1 : 0;
    // Still followed (memtracer-symbolize --follow: live_state 'live'), or a frame_count behind
    // its frames: a batch committed between those two reads, or a writer without live_state.
    r.growing = s.i64(1) != r.frames || s.str(2) == "live";
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
    auto s = query(db, "SELECT class_id, name, namespace, full_name, flags, element_size FROM classes WHERE run_id=?");
    s.binds(run);
    while (s.step()) out[s.i64(0)] = {s.str(1), s.str(2), s.str(3), s.i64(4), s.i64(5)};
    return out;
}

std::optional<ClassInfo> find_class(Database &db, int64_t run, int64_t class_id) {
    auto s = query(db,
                   "SELECT name, namespace, full_name, flags, element_size FROM classes WHERE run_id=? AND class_id=?");
    s.binds(run, class_id);
    if (!s.step()) return std::nullopt;
    return ClassInfo{s.str(0), s.str(1), s.str(2), s.i64(3), s.i64(4)};
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
    auto s = query(db, "SELECT stack_id, site_id FROM stacks WHERE run_id=?");
    s.binds(run);
    while (s.step()) out[s.i64(0)] = s.null(1) ? kNoSite : s.i64(1);
    return out;
}

std::unordered_map<int64_t, SiteInfo> load_sites(Database &db, int64_t run) {
    std::unordered_map<int64_t, SiteInfo> out;
    auto s = query(db,
                   "SELECT site_id, function, file, line FROM sites WHERE site_id IN "
                   "(SELECT site_id FROM stacks WHERE run_id=? AND site_id IS NOT NULL)");
    s.binds(run);
    while (s.step()) out[s.i64(0)] = {s.i64(0), s.str(1), s.str(2), s.i64(3)};
    return out;
}

std::optional<SiteInfo> find_stack_site(Database &db, int64_t run, int64_t stack_id) {
    auto s = query(db,
                   "SELECT s.site_id, s.function, s.file, s.line FROM stacks st JOIN sites s ON s.site_id=st.site_id "
                   "WHERE st.run_id=? AND st.stack_id=?");
    s.binds(run, stack_id);
    if (!s.step()) return std::nullopt;
    return SiteInfo{s.i64(0), s.str(1), s.str(2), s.i64(3)};
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

}  // namespace mt::viewer
