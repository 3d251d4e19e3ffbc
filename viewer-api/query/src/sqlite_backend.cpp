// sqlite_backend.cpp — runs, frames, classes, sites and stacks of a run.db (sqlite_backend.h).
#include "sqlite_backend.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <vector>

#include <memtracer/format.h>
#include <memtracer/store/queries.h>

namespace mt::viewer {

SqliteBackend::SqliteBackend(const std::string &path) : path_(path) {
    try {
        // Read-only: the viewer never writes the database; the symbolizer is the only writer.
        db_ = store::Db::open_readonly(path, 5000);
    } catch (const store::Error &e) {
        throw std::runtime_error("cannot open database " + path + ": " + e.message());
    }
    store::tune_reader(db_);
    // Fail now, with the reason, on a file that is not a MemTracer database.
    try {
        store::run_count(db_);
        const store::Features f = store::read_features(db_);
        features_ = {f.markers, f.live_state, f.thread_split, f.alloc_threads, f.death_sites, f.survivor_frames, f.machinery};
    } catch (const store::Error &e) {
        throw std::runtime_error(path + " is not a MemTracer database: " + e.message());
    }
}

std::unique_ptr<RunBackend> open_sqlite_backend(const std::string &path) { return std::make_unique<SqliteBackend>(path); }

void SqliteBackend::begin_snapshot() {
    snapshot_.reset();
    snapshot_ = std::make_unique<store::ReadTransaction>(db_);
}

void SqliteBackend::end_snapshot() {
    if (snapshot_) snapshot_->end();
    snapshot_.reset();
}

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

GcRow read_gc(const Stmt &g) {
    return {g.i64(0), g.i64(1), g.i64(2) - g.i64(1), g.i64(3), g.i64(4), g.i64(5), g.i64(6)};
}

// Columns shared by the stack queries below, from column `c`.
SymFrame read_frame(const Stmt &s, int c) {
    SymFrame f;
    f.pos = s.i64(c);
    f.address = static_cast<uint64_t>(s.i64(c + 1));
    f.module = s.str(c + 2);
    f.file_address = static_cast<uint64_t>(s.i64(c + 3));
    f.has_symbol = !s.null(c + 4);
    f.depth = s.null(c + 4) ? 0 : s.i64(c + 4);
    f.function = s.str(c + 5);
    f.demangled = s.str(c + 6);
    f.csharp = s.str(c + 7);
    f.file = s.str(c + 8);
    f.line = s.i64(c + 9);
    f.cs_file = s.str(c + 10);
    f.cs_line = s.i64(c + 11);
    return f;
}

#define MT_FRAME_COLUMNS                                                                          \
    "sf.pos, sf.address, coalesce(a.module_path,''), coalesce(a.file_address,0), s.depth, "      \
    "coalesce(s.function,''), coalesce(s.demangled,''), coalesce(s.csharp,''), coalesce(s.file,''), " \
    "coalesce(s.line,0), coalesce(s.cs_file,''), coalesce(s.cs_line,0) "                          \
    "FROM stack_frames sf LEFT JOIN addresses a ON a.addr_id=sf.addr_id "                         \
    "LEFT JOIN symbols s ON s.addr_id=sf.addr_id "
}  // namespace

int64_t SqliteBackend::run_count() {
    auto n = query("SELECT count(*) FROM runs");
    n.step();
    return n.i64(0);
}

std::vector<RunEntry> SqliteBackend::runs(const Page &page) {
    std::vector<RunEntry> out;
    auto s = query(std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY run_id LIMIT ? OFFSET ?");
    s.binds(page.limit, page.offset);
    while (s.step()) out.push_back(read_run(s));
    return out;
}

std::optional<RunEntry> SqliteBackend::run(int64_t run) {
    auto s = query(std::string("SELECT ") + kRunColumns + " FROM runs WHERE run_id=?");
    s.binds(run);
    if (!s.step()) return std::nullopt;
    return read_run(s);
}

std::optional<RunState> SqliteBackend::run_state(int64_t run) {
    // runs.live_state came with --follow, thread_split with per-thread rows.
    auto s = query(features_.live_state
                       ? (features_.thread_split ? "SELECT build_id, frame_count, live_state, start_unix_ns, pid, has_lifetimes, "
                                                   "thread_split, mode, process, device FROM runs WHERE run_id=?"
                                                 : "SELECT build_id, frame_count, live_state, start_unix_ns, pid, has_lifetimes, "
                                                   "0, mode, process, device FROM runs WHERE run_id=?")
                       : (features_.thread_split ? "SELECT build_id, frame_count, '', start_unix_ns, pid, has_lifetimes, "
                                                   "thread_split, mode, process, device FROM runs WHERE run_id=?"
                                                 : "SELECT build_id, frame_count, '', start_unix_ns, pid, has_lifetimes, "
                                                   "0, mode, process, device FROM runs WHERE run_id=?"));
    s.binds(run);
    if (!s.step()) return std::nullopt;
    RunState r;
    r.build_id = s.str(0), r.frame_count = s.i64(1), r.live_state = s.str(2);
    r.start_unix_ns = s.i64(3), r.pid = s.i64(4), r.has_lifetimes = s.i64(5) != 0, r.thread_split = s.i64(6);
    r.mode = s.str(7), r.process = s.str(8), r.device = s.str(9);
    auto f = query("SELECT max(seq) FROM frames WHERE run_id=?");
    f.binds(run);
    r.frames = f.step() && !f.null(0) ? f.i64(0) + 1 : 0;
    return r;
}

std::vector<std::pair<std::string, std::string>> SqliteBackend::run_info(int64_t run) {
    std::vector<std::pair<std::string, std::string>> out;
    auto info = query("SELECT key, value FROM run_info WHERE run_id=? ORDER BY key");
    info.binds(run);
    while (info.step()) out.emplace_back(info.str(0), info.str(1));
    return out;
}

std::vector<ThreadRow> SqliteBackend::threads(int64_t run) {
    std::vector<ThreadRow> out;
    auto th = query("SELECT thread_id, os_tid, name FROM threads WHERE run_id=? ORDER BY thread_id");
    th.binds(run);
    while (th.step()) out.push_back({th.i64(0), th.i64(1), th.str(2)});
    return out;
}

std::vector<ModuleRow> SqliteBackend::modules(int64_t run) {
    std::vector<ModuleRow> out;
    auto mo = query("SELECT module_id, kind, path, build_id, symbol_file FROM modules WHERE run_id=? ORDER BY module_id");
    mo.binds(run);
    while (mo.step())
        out.push_back({mo.i64(0), mo.str(1), mo.str(2), mo.str(3),
                       mo.null(4) ? std::nullopt : std::optional<std::string>(mo.str(4))});
    return out;
}

RunCounts SqliteBackend::counts(int64_t run) {
    auto cnt = query("SELECT (SELECT count(*) FROM classes WHERE run_id=?1), (SELECT count(*) FROM stacks WHERE "
                     "run_id=?1), (SELECT count(DISTINCT site_id) FROM stacks WHERE run_id=?1), "
                     "(SELECT count(*) FROM gc_events WHERE run_id=?1), "
                     "(SELECT coalesce(sum(count),0) FROM survivors WHERE run_id=?1), "
                     "(SELECT coalesce(sum(gc_bytes),0) FROM survivors WHERE run_id=?1)");
    cnt.binds(run);
    cnt.step();
    return {cnt.i64(0), cnt.i64(1), cnt.i64(2), cnt.i64(3), cnt.i64(4), cnt.i64(5)};
}

FrameStats SqliteBackend::frame_stats(int64_t run) {
    auto fr = query("SELECT count(*), min(frame_index), max(frame_index), max(heap_size), max(live_bytes), "
                    "sum(gc_ns), sum(dropped) FROM frames WHERE run_id=?");
    fr.binds(run);
    fr.step();
    FrameStats s{fr.i64(0), fr.i64(1), fr.i64(2), fr.i64(3), fr.i64(5), fr.i64(6), std::nullopt};
    if (!fr.null(4)) s.max_live_bytes = fr.i64(4);
    return s;
}

FigureFlags SqliteBackend::figure_flags(int64_t run) {
    auto f = query("SELECT coalesce(max((flags & ?2) != 0), 0), coalesce(max((flags & ?3) != 0), 0), "
                   "coalesce(max((flags & ?4) != 0), 0) FROM frames WHERE run_id=?1");
    f.binds(run, int64_t{MT_FRAME_GC_SIZE_EXACT}, int64_t{MT_FRAME_GC_SIZE_ESTIMATED}, int64_t{MT_FRAME_GC_FROM_PROFILER});
    f.step();
    return {f.i64(0) != 0, f.i64(1) != 0, f.i64(2) != 0};
}

std::vector<MarkerRow> SqliteBackend::markers(int64_t run) {
    std::vector<MarkerRow> out;
    // A database ingested before markers existed has no such table: it has no markers either.
    if (!features_.markers) return out;
    auto s = query("SELECT m.seq, f.frame_index, m.ns, m.label FROM markers m "
                   "LEFT JOIN frames f ON f.run_id = m.run_id AND f.seq = m.seq "
                   "WHERE m.run_id=?1 ORDER BY m.seq, m.ns, m.rowid");
    s.binds(run);
    while (s.step()) out.push_back({s.i64(0), s.null(1) ? -1 : s.i64(1), s.i64(2), s.str(3)});
    return out;
}

void SqliteBackend::frames(int64_t run, int64_t from, int64_t to, RowFn<FrameRow> fn) {
    auto s = query("SELECT seq, frame_index, start_ns, end_ns, alloc_count, requested_bytes, gc_bytes, gc_count, heap_size, "
                   "gc_ns, free_bytes, dropped, flags, live_bytes FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? "
                   "ORDER BY seq");
    s.binds(run, from, to);
    FrameRow f;
    while (s.step()) {
        f = {s.i64(0), s.i64(1), s.i64(2), s.i64(3), s.i64(4), s.i64(5), s.i64(6), s.i64(7), s.i64(8),
             s.i64(9), s.i64(10), s.i64(11), s.i64(12), s.null(13) ? std::nullopt : std::optional<int64_t>(s.i64(13))};
        fn(f);
    }
}

std::optional<FrameRow> SqliteBackend::frame(int64_t run, int64_t seq) {
    std::optional<FrameRow> out;
    frames(run, seq, seq, [&](const FrameRow &f) { out = f; });
    return out;
}

// The first frame (seq, value) a peak query finds: [run, from, to] bound in that order.
std::optional<Peak> SqliteBackend::peak(std::string_view sql, int64_t run, int64_t from, int64_t to) {
    auto s = query(sql);
    s.binds(run, from, to);
    if (s.step()) return Peak{s.i64(0), s.i64(1)};
    return std::nullopt;
}

std::optional<Peak> SqliteBackend::live_peak(int64_t run, int64_t from, int64_t to) {
    return peak("SELECT seq, live_bytes FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? AND live_bytes IS NOT NULL "
                "ORDER BY live_bytes DESC, seq LIMIT 1", run, from, to);
}

std::optional<Peak> SqliteBackend::heap_peak(int64_t run, int64_t from, int64_t to) {
    return peak("SELECT seq, heap_size FROM frames WHERE run_id=? AND seq BETWEEN ? AND ? "
                "ORDER BY heap_size DESC, seq LIMIT 1", run, from, to);
}

std::vector<GcRow> SqliteBackend::gc_events(int64_t run, int64_t from, int64_t to, GcOrder order) {
    std::vector<GcRow> out;
    auto g = query(order == GcOrder::Start
                       ? "SELECT seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no FROM gc_events "
                         "WHERE run_id=? AND seq BETWEEN ? AND ? ORDER BY start_ns"
                       : "SELECT seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no FROM gc_events "
                         "WHERE run_id=? AND seq BETWEEN ? AND ? ORDER BY seq, start_ns");
    g.binds(run, from, to);
    while (g.step()) out.push_back(read_gc(g));
    return out;
}

std::vector<std::pair<int64_t, int64_t>> SqliteBackend::merged_frames(int64_t run) {
    std::vector<std::pair<int64_t, int64_t>> out;
    auto s = query("SELECT f.seq, f.frame_index - p.frame_index - 1 FROM frames f "
                   "JOIN frames p ON p.run_id = f.run_id AND p.seq = f.seq - 1 "
                   "WHERE f.run_id = ? AND (f.flags & 2) != 0 AND f.frame_index > p.frame_index + 1 ORDER BY f.seq");
    s.binds(run);
    while (s.step()) out.emplace_back(s.i64(0), s.i64(1));
    return out;
}

std::vector<DeathRow> SqliteBackend::deaths(int64_t run, int64_t seq) {
    std::vector<DeathRow> out;
    auto d = query("SELECT class_id, count, gc_bytes FROM deaths WHERE run_id=? AND seq=? ORDER BY gc_bytes DESC");
    d.binds(run, seq);
    while (d.step()) out.push_back({d.i64(0), d.i64(1), d.i64(2)});
    return out;
}

std::vector<std::pair<int64_t, ClassInfo>> SqliteBackend::classes(int64_t run) {
    std::vector<std::pair<int64_t, ClassInfo>> out;
    auto s = query("SELECT class_id, name, namespace, full_name, flags, element_size FROM classes WHERE run_id=?");
    s.binds(run);
    while (s.step()) out.push_back({s.i64(0), {s.str(1), s.str(2), s.str(3), s.i64(4), s.i64(5)}});
    return out;
}

std::optional<ClassInfo> SqliteBackend::find_class(int64_t run, int64_t class_id) {
    auto s = query("SELECT name, namespace, full_name, flags, element_size FROM classes WHERE run_id=? AND class_id=?");
    s.binds(run, class_id);
    if (!s.step()) return std::nullopt;
    return ClassInfo{s.str(0), s.str(1), s.str(2), s.i64(3), s.i64(4)};
}

std::vector<std::pair<int64_t, ClassInfo>> SqliteBackend::classes_matching(int64_t run, const std::string &lower) {
    std::vector<std::pair<int64_t, ClassInfo>> out;
    auto s = query("SELECT class_id, name, namespace, full_name, flags, element_size FROM classes "
                   "WHERE run_id=?1 AND instr(lower(full_name), ?2) > 0");
    s.binds(run, std::string_view(lower));
    while (s.step()) out.push_back({s.i64(0), {s.str(1), s.str(2), s.str(3), s.i64(4), s.i64(5)}});
    return out;
}

std::vector<std::pair<int64_t, int64_t>> SqliteBackend::stack_sites(int64_t run) {
    std::vector<std::pair<int64_t, int64_t>> out;
    auto s = query("SELECT stack_id, site_id FROM stacks WHERE run_id=?");
    s.binds(run);
    while (s.step()) out.emplace_back(s.i64(0), s.null(1) ? kNoSite : s.i64(1));
    return out;
}

std::vector<SiteInfo> SqliteBackend::sites(int64_t run) {
    std::vector<SiteInfo> out;
    auto s = query("SELECT site_id, function, file, line FROM sites WHERE site_id IN "
                   "(SELECT site_id FROM stacks WHERE run_id=? AND site_id IS NOT NULL)");
    s.binds(run);
    while (s.step()) out.push_back({s.i64(0), s.str(1), s.str(2), s.i64(3)});
    return out;
}

std::optional<SiteInfo> SqliteBackend::find_stack_site(int64_t run, int64_t stack_id) {
    auto s = query("SELECT s.site_id, s.function, s.file, s.line FROM stacks st JOIN sites s ON s.site_id=st.site_id "
                   "WHERE st.run_id=? AND st.stack_id=?");
    s.binds(run, stack_id);
    if (!s.step()) return std::nullopt;
    return SiteInfo{s.i64(0), s.str(1), s.str(2), s.i64(3)};
}

namespace {

// The stack queries order by stack and pos in SQL and put each frame's inline chain in depth order
// here. `ORDER BY ..., s.depth` made SQLite sort every stack's rows once stack_frames became a view
// of two tables (schema version 5: the planner does not carry the uniqueness of (stack_id, pos)
// through the join, so it cannot use symbol_frames' key order for depth); a chain is 1-3 rows.
// `emit(stack_id, frame)` gets the rows by stack_id, pos, depth.
void frames_by_depth(Stmt &s, int c, const std::function<void(int64_t, const SymFrame &)> &emit) {
    std::vector<SymFrame> chain;
    int64_t chain_stack = 0;
    const auto flush = [&] {
        std::stable_sort(chain.begin(), chain.end(), [](const SymFrame &a, const SymFrame &b) { return a.depth < b.depth; });
        for (const auto &f : chain) emit(chain_stack, f);
        chain.clear();
    };
    while (s.step()) {
        const int64_t stack = c > 0 ? s.i64(0) : 0;
        SymFrame f = read_frame(s, c);
        if (!chain.empty() && (stack != chain_stack || f.pos != chain.front().pos)) flush();
        chain_stack = stack;
        chain.push_back(std::move(f));
    }
    flush();
}

}  // namespace

std::vector<SymFrame> SqliteBackend::stack_frames(int64_t run, int64_t stack_id) {
    auto s = query("SELECT " MT_FRAME_COLUMNS "WHERE sf.run_id=? AND sf.stack_id=? ORDER BY sf.pos");
    s.binds(run, stack_id);
    std::vector<SymFrame> out;
    frames_by_depth(s, 0, [&](int64_t, const SymFrame &f) { out.push_back(f); });
    return out;
}

void SqliteBackend::all_stack_frames(int64_t run, const std::function<void(int64_t, const SymFrame &)> &fn) {
    auto s = query("SELECT sf.stack_id, " MT_FRAME_COLUMNS "WHERE sf.run_id=? ORDER BY sf.stack_id, sf.pos");
    s.binds(run);
    frames_by_depth(s, 1, fn);
}

std::vector<std::pair<int64_t, int64_t>> SqliteBackend::machinery(int64_t run) {
    std::vector<std::pair<int64_t, int64_t>> out;
    if (!features_.machinery) return out;  // a database written before the column: nothing trimmed
    auto s = query("SELECT stack_id, machinery FROM stacks WHERE run_id=? AND machinery > 0");
    s.binds(run);
    while (s.step()) out.emplace_back(s.i64(0), s.i64(1));
    return out;
}

std::vector<FunctionMatch> SqliteBackend::functions_matching(int64_t run, const std::string &lower) {
    std::vector<FunctionMatch> out;
    auto s = query("SELECT DISTINCT sf.stack_id, s.csharp, s.demangled, s.function, s.file, s.line, s.cs_file, "
                   "s.cs_line FROM stack_frames sf JOIN symbols s ON s.addr_id=sf.addr_id WHERE sf.run_id=?1 AND "
                   "(instr(lower(s.csharp), ?2) > 0 OR instr(lower(s.demangled), ?2) > 0 OR "
                   "instr(lower(s.function), ?2) > 0)");
    s.binds(run, std::string_view(lower));
    while (s.step()) out.push_back({s.i64(0), s.str(1), s.str(2), s.str(3), s.str(4), s.str(6), s.i64(5), s.i64(7)});
    return out;
}

}  // namespace mt::viewer
