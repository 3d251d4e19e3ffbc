// ep_markers.cpp — the run's mt_mark labels (GET /api/runs/{run}/markers) and their use as frame
// range ends: from=marker:level loaded&to=marker:boss spawned (model.cpp's frame_range).
#include "endpoints.h"
#include "model.h"
#include "memtracer/viewer/backend.h"

namespace mt::viewer {

namespace {
constexpr std::string_view kPrefix = "marker:";
}  // namespace

std::vector<MarkerRow> load_markers(Database &db, int64_t run) { return db.backend().markers(run); }

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
