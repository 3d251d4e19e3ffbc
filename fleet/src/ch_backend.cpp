// ch_backend.cpp — the per-run backend over ClickHouse (ch_backend.h): runs, frames and the
// per-frame tables, one SELECT per call, sorted as SQLite's primary keys sort (backend.h's
// order contract), in the SQL subset docs/clickhouse.md lists.
#include "ch_backend_impl.h"
#include "ch_fleet.h"

#include <memtracer/format.h>

#include <stdexcept>

namespace mt::fleet {

int64_t to_i64(const std::string &s) { return s.empty() ? 0 : std::stoll(s); }

namespace {
std::string num(int64_t v) { return std::to_string(v); }
std::string range(int64_t from, int64_t to) { return " AND seq >= " + num(from) + " AND seq <= " + num(to); }

// store/'s runs columns as exported: `device` is a label there, the capture's is capture_device.
constexpr const char *kRunColumns =
    "run_id, source_file, start_unix_ns, process, capture_device, os, arch, session_label, build_id, mode, "
    "frame_count, duration_ns, alloc_count, requested_bytes, gc_bytes, gc_count, dropped, stop, "
    "stop_reason, has_lifetimes, sample_interval, source_size, ingested_unix_ns, pid, tick_hz";

RunEntry read_run(const std::vector<std::string> &r) {
    RunEntry e;
    e.run_id = to_i64(r[0]), e.source_file = r[1], e.start_unix_ns = to_i64(r[2]);
    e.process = r[3], e.device = r[4], e.os = r[5], e.arch = r[6];
    e.session_label = r[7], e.build_id = r[8], e.mode = r[9];
    e.frames = to_i64(r[10]), e.duration_ns = to_i64(r[11]);
    e.totals = {to_i64(r[12]), to_i64(r[13]), to_i64(r[14])};
    e.collections = to_i64(r[15]), e.dropped = to_i64(r[16]);
    e.stop = r[17], e.stop_reason = r[18], e.has_lifetimes = to_i64(r[19]) != 0;
    e.sample_interval = to_i64(r[20]), e.source_size = to_i64(r[21]), e.ingested_unix_ns = to_i64(r[22]);
    e.pid = to_i64(r[23]), e.tick_hz = std::stod(r[24]);
    return e;
}

constexpr const char *kFrameColumns =
    "seq, frame_index, start_ns, end_ns, alloc_count, requested_bytes, gc_bytes, gc_count, heap_size, gc_ns, "
    "free_bytes, dropped, flags, ifNull(live_bytes, 0), isNull(live_bytes)";

FrameRow read_frame(const std::vector<std::string> &r) {
    FrameRow f{to_i64(r[0]), to_i64(r[1]), to_i64(r[2]), to_i64(r[3]), to_i64(r[4]), to_i64(r[5]), to_i64(r[6]),
               to_i64(r[7]), to_i64(r[8]), to_i64(r[9]), to_i64(r[10]), to_i64(r[11]), to_i64(r[12]), std::nullopt};
    if (r[14] == "0") f.live_bytes = to_i64(r[13]);
    return f;
}
}  // namespace

ClickHouseBackend::ClickHouseBackend(ClickHouseUrl url) : ch_(url), name_(url.text) {
    // Reachable, and a fleet database: the same first check a run.db gets.
    auto have = ch_.rows("SELECT count() FROM system.tables WHERE database = " + sql_quote(url.database) +
                         " AND name = 'runs'");
    if (have.empty() || have[0][0] != "1")
        throw std::runtime_error(url.text + " is not a MemTracer fleet database (no runs table; memtracer-export creates it)");
}

namespace {
// The viewer's clickhouse:// database answers the cross-run endpoints (/api/trend, /api/fleet/*)
// from ClickHouse itself (ch_fleet.cpp: the export's labels, the per-run summaries), not run by
// run through the per-run reads above.
class ClickHouseWithFleet final : public ClickHouseBackend, public FleetSource {
public:
    explicit ClickHouseWithFleet(const ClickHouseUrl &url) : ClickHouseBackend(url), url_(url) {}
    std::unique_ptr<FleetBackend> open_fleet() override { return open_clickhouse_fleet(url_); }

private:
    ClickHouseUrl url_;
};
}  // namespace

std::unique_ptr<RunBackend> open_clickhouse_backend(const std::string &url) {
    return std::make_unique<ClickHouseWithFleet>(ClickHouseUrl::parse(url));
}

std::optional<std::string> ClickHouseBackend::where(int64_t run) {
    if (auto it = where_.find(run); it != where_.end()) return it->second;
    auto r = rows("SELECT run_key, export_id FROM runs WHERE run_id = " + num(run) + " LIMIT 1");
    if (r.empty()) return std::nullopt;
    return where_[run] = "run_key = " + r[0][0] + " AND export_id = " + r[0][1];
}

std::string ClickHouseBackend::where_or_none(int64_t run) { return where(run).value_or("run_key = 0 AND export_id = 0"); }

int64_t ClickHouseBackend::run_count() { return to_i64(rows("SELECT count() FROM runs").at(0).at(0)); }

std::vector<RunEntry> ClickHouseBackend::runs(const Page &page) {
    std::vector<RunEntry> out;
    for (const auto &r : rows(std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY run_id LIMIT " +
                              num(page.limit) + " OFFSET " + num(page.offset)))
        out.push_back(read_run(r));
    return out;
}

std::optional<RunEntry> ClickHouseBackend::run(int64_t run) {
    auto r = rows(std::string("SELECT ") + kRunColumns + " FROM runs WHERE run_id = " + num(run) + " LIMIT 1");
    if (r.empty()) return std::nullopt;
    return read_run(r[0]);
}

std::optional<RunState> ClickHouseBackend::run_state(int64_t run) {
    auto r = rows("SELECT build_id, frame_count, live_state, start_unix_ns, pid, has_lifetimes, thread_split, mode, "
                  "process, capture_device FROM runs WHERE run_id = " + num(run) + " LIMIT 1");
    if (r.empty()) return std::nullopt;
    const auto &v = r[0];
    RunState s;
    s.build_id = v[0], s.frame_count = to_i64(v[1]), s.live_state = v[2];
    s.start_unix_ns = to_i64(v[3]), s.pid = to_i64(v[4]), s.has_lifetimes = to_i64(v[5]) != 0;
    s.thread_split = to_i64(v[6]), s.mode = v[7], s.process = v[8], s.device = v[9];
    auto f = rows("SELECT count(), max(seq) FROM frames WHERE " + *where(run));
    s.frames = f.empty() || f[0][0] == "0" ? 0 : to_i64(f[0][1]) + 1;
    return s;
}

std::vector<std::pair<std::string, std::string>> ClickHouseBackend::run_info(int64_t run) {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto &r : rows("SELECT `key`, `value` FROM run_info WHERE " + where_or_none(run) + " ORDER BY `key`"))
        out.emplace_back(r[0], r[1]);
    return out;
}

std::vector<ThreadRow> ClickHouseBackend::threads(int64_t run) {
    std::vector<ThreadRow> out;
    for (auto &r : rows("SELECT thread_id, os_tid, name FROM threads WHERE " + where_or_none(run) + " ORDER BY thread_id"))
        out.push_back({to_i64(r[0]), to_i64(r[1]), r[2]});
    return out;
}

std::vector<ModuleRow> ClickHouseBackend::modules(int64_t run) {
    std::vector<ModuleRow> out;
    for (auto &r : rows("SELECT module_id, kind, path, build_id, ifNull(symbol_file, ''), isNull(symbol_file) FROM modules "
                        "WHERE " + where_or_none(run) + " ORDER BY module_id"))
        out.push_back({to_i64(r[0]), r[1], r[2], r[3], r[5] == "1" ? std::nullopt : std::optional<std::string>(r[4])});
    return out;
}

RunCounts ClickHouseBackend::counts(int64_t run) {
    const RunDicts &d = dicts(run);
    RunCounts c;
    c.classes = static_cast<int64_t>(d.classes.size());
    c.stacks = static_cast<int64_t>(d.stacks.size());
    std::set<int64_t> sites;  // count(DISTINCT site_id): NULL is not a site
    for (const auto &[_, s] : d.stacks)
        if (s.site_id != kNoSite) sites.insert(s.site_id);
    c.sites = static_cast<int64_t>(sites.size());
    c.gc_events = to_i64(rows("SELECT count() FROM gc_events WHERE " + where_or_none(run)).at(0).at(0));
    auto s = rows("SELECT count(), sum(`count`), sum(gc_bytes) FROM survivors WHERE " + where_or_none(run)).at(0);
    if (s[0] != "0") c.survivors = to_i64(s[1]), c.survivor_bytes = to_i64(s[2]);
    return c;
}

FrameStats ClickHouseBackend::frame_stats(int64_t run) {
    auto r = rows("SELECT count(), min(frame_index), max(frame_index), max(heap_size), max(ifNull(live_bytes, 0)), "
                  "count(live_bytes), sum(gc_ns), sum(dropped) FROM frames WHERE " + where_or_none(run)).at(0);
    FrameStats s;
    s.rows = to_i64(r[0]);
    if (s.rows == 0) return s;  // SQLite's min/max of nothing: NULL, read as 0
    s.first_frame_index = to_i64(r[1]), s.last_frame_index = to_i64(r[2]), s.max_heap_size = to_i64(r[3]);
    if (r[5] != "0") s.max_live_bytes = to_i64(r[4]);
    s.gc_ns = to_i64(r[6]), s.dropped = to_i64(r[7]);
    return s;
}

FigureFlags ClickHouseBackend::figure_flags(int64_t run) {
    auto r = rows("SELECT max(bitAnd(flags, " + num(MT_FRAME_GC_SIZE_EXACT) + ")), max(bitAnd(flags, " +
                  num(MT_FRAME_GC_SIZE_ESTIMATED) + ")), max(bitAnd(flags, " + num(MT_FRAME_GC_FROM_PROFILER) +
                  ")), count() FROM frames WHERE " + where_or_none(run)).at(0);
    if (r[3] == "0") return {};
    return {to_i64(r[0]) != 0, to_i64(r[1]) != 0, to_i64(r[2]) != 0};
}

std::vector<MarkerRow> ClickHouseBackend::markers(int64_t run) {
    std::vector<MarkerRow> out;
    auto w = where_or_none(run);
    for (auto &r : rows("SELECT seq, ns, label FROM markers WHERE " + w + " ORDER BY seq, ns"))
        out.push_back({to_i64(r[0]), -1, to_i64(r[1]), r[2]});
    if (out.empty()) return out;
    std::string seqs;  // the markers' frames (a LEFT JOIN in SQLite): a handful
    for (const auto &m : out) seqs += (seqs.empty() ? "" : ", ") + num(m.seq);
    std::map<int64_t, int64_t> index;
    for (auto &r : rows("SELECT seq, frame_index FROM frames WHERE " + w + " AND seq IN (" + seqs + ")"))
        index[to_i64(r[0])] = to_i64(r[1]);
    for (auto &m : out)
        if (auto it = index.find(m.seq); it != index.end()) m.frame_index = it->second;
    return out;
}

void ClickHouseBackend::frames(int64_t run, int64_t from, int64_t to, RowFn<FrameRow> fn) {
    for (const auto &r : rows(std::string("SELECT ") + kFrameColumns + " FROM frames WHERE " + where_or_none(run) +
                              range(from, to) + " ORDER BY seq"))
        fn(read_frame(r));
}

std::optional<FrameRow> ClickHouseBackend::frame(int64_t run, int64_t seq) {
    std::optional<FrameRow> out;
    frames(run, seq, seq, [&](const FrameRow &f) { out = f; });
    return out;
}

std::optional<Peak> ClickHouseBackend::live_peak(int64_t run, int64_t from, int64_t to) {
    auto r = rows("SELECT seq, ifNull(live_bytes, 0) FROM frames WHERE " + where_or_none(run) + range(from, to) +
                  " AND NOT isNull(live_bytes) ORDER BY live_bytes DESC, seq LIMIT 1");
    if (r.empty()) return std::nullopt;
    return Peak{to_i64(r[0][0]), to_i64(r[0][1])};
}

std::optional<Peak> ClickHouseBackend::heap_peak(int64_t run, int64_t from, int64_t to) {
    auto r = rows("SELECT seq, heap_size FROM frames WHERE " + where_or_none(run) + range(from, to) +
                  " ORDER BY heap_size DESC, seq LIMIT 1");
    if (r.empty()) return std::nullopt;
    return Peak{to_i64(r[0][0]), to_i64(r[0][1])};
}

std::vector<GcRow> ClickHouseBackend::gc_events(int64_t run, int64_t from, int64_t to, GcOrder order) {
    std::vector<GcRow> out;
    for (auto &r : rows("SELECT seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no FROM gc_events WHERE " +
                        where_or_none(run) + range(from, to) +
                        (order == GcOrder::Start ? " ORDER BY start_ns, seq, gc_no" : " ORDER BY seq, start_ns, gc_no")))
        out.push_back({to_i64(r[0]), to_i64(r[1]), to_i64(r[2]) - to_i64(r[1]), to_i64(r[3]), to_i64(r[4]), to_i64(r[5]),
                       to_i64(r[6])});
    return out;
}

std::vector<std::pair<int64_t, int64_t>> ClickHouseBackend::merged_frames(int64_t run) {
    // A merged frame and the frame before it: the run's index and flag columns, in seq order.
    std::vector<std::pair<int64_t, int64_t>> out;
    int64_t prev_seq = -2, prev_index = 0;
    for (auto &r : rows("SELECT seq, frame_index, bitAnd(flags, 2) FROM frames WHERE " + where_or_none(run) + " ORDER BY seq")) {
        const int64_t seq = to_i64(r[0]), index = to_i64(r[1]);
        if (r[2] != "0" && prev_seq == seq - 1 && index > prev_index + 1) out.emplace_back(seq, index - prev_index - 1);
        prev_seq = seq, prev_index = index;
    }
    return out;
}

std::vector<DeathRow> ClickHouseBackend::deaths(int64_t run, int64_t seq) {
    std::vector<DeathRow> out;
    for (auto &r : rows("SELECT class_id, `count`, gc_bytes FROM deaths WHERE " + where_or_none(run) + " AND seq = " + num(seq) +
                        " ORDER BY gc_bytes DESC, class_id"))
        out.push_back({to_i64(r[0]), to_i64(r[1]), to_i64(r[2])});
    return out;
}

}  // namespace mt::fleet
