// ep_markers.cpp — the run's mt_mark labels (GET /api/runs/{run}/markers) and their use as frame
// range ends: from=marker:level loaded&to=marker:boss spawned (model.cpp's frame_range).
#include "endpoints.h"
#include "model.h"
#include "sqlite.h"

namespace mt::viewer {

namespace {
constexpr std::string_view kPrefix = "marker:";

// A database ingested before markers existed has no such table: it has no markers either.
bool has_markers_table(Database &db) {
    auto s = query(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='markers'");
    return s.step();
}
}  // namespace

std::vector<MarkerRow> load_markers(Database &db, int64_t run) {
    std::vector<MarkerRow> out;
    if (!has_markers_table(db)) return out;
    auto s = query(db, "SELECT m.seq, f.frame_index, m.ns, m.label FROM markers m "
                       "LEFT JOIN frames f ON f.run_id = m.run_id AND f.seq = m.seq "
                       "WHERE m.run_id=?1 ORDER BY m.seq, m.ns, m.rowid");
    s.binds(run);
    while (s.step()) out.push_back({s.i64(0), s.null(1) ? -1 : s.i64(1), s.i64(2), s.str(3)});
    return out;
}

std::optional<int64_t> marker_end(const RunRow &run, std::string_view value, const std::string &param) {
    if (value.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
    std::string_view label = value.substr(kPrefix.size());
    // A label may repeat: a range end names its first occurrence.
    for (const MarkerRow &m : run.markers)
        if (m.label == label) return m.seq;
    throw ApiError{400, "run " + std::to_string(run.id) + " has no marker '" + std::string(label) + "'", param};
}

MarkersResult compute_markers(Database &db, int64_t run_id) {
    RunRow run = load_run(db, run_id);
    return {run.id, run.markers};
}

void require_run(Database &db, int64_t run) { load_run(db, run); }

Response markers(Database &db, const Request &, int64_t run_id) {
    return Response{200, render_markers(compute_markers(db, run_id)), "application/json", ""};
}

}  // namespace mt::viewer
