// fleet_backend.h — the query layer's cross-run seam (docs/clickhouse.md): what the cross-run
// answers (fleet.h: trend, fleet top, growth between build ranges, the differential flame graph)
// need from wherever the runs live. Two implementations give the same sums: a list of run.db
// files read through this layer (open_run_files, SQLite) and ClickHouse (fleet/src/ch_fleet.h,
// outside this layer: the query layer knows no ClickHouse SQL). Everything above this seam
// (ordering, build ranges, per-frame figures, trees, JSON) is computed once, in fleet.cpp.
#ifndef MEMTRACER_VIEWER_FLEET_BACKEND_H
#define MEMTRACER_VIEWER_FLEET_BACKEND_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "memtracer/viewer/results.h"

namespace mt::viewer {

// A run with the labels memtracer-export gives it (a run.db's by default: project = the process,
// platform = the OS, build = the build id, device, night = the capture's UTC date).
struct FleetRun {
    std::string id;  // the backend's identity of the run (opaque above the seam)
    std::string project, platform, build, device, night;
    int64_t frames = 0;
};

// A capture's night label: the UTC date (YYYY-MM-DD) of its start.
std::string fleet_night(int64_t start_unix_ns);

struct LabelFilter {
    std::string project, platform, device;  // "" = any
    bool keeps(const FleetRun &r) const {
        return (project.empty() || r.project == project) && (platform.empty() || r.platform == platform) &&
               (device.empty() || r.device == device);
    }
};

// What a per-run sum selects: every allocation, one class (by full name) or one site
// ("Function" for any file, or "Function (File)").
struct Selection {
    enum class What { Total, Class, Site } what = What::Total;
    std::string name;
};

// Site keys across runs are "Function (File)" ("Function" with no file, "(no game code)" for
// none): a site's line moves between builds, as the report's compare and gate have it.
std::string fleet_site_key(const std::string &function, const std::string &file);
// Whether a site matches a Selection's site name.
bool fleet_site_matches(const std::string &name, const std::string &function, const std::string &file);

struct GroupSum {
    std::string key;  // class: class_display_name; site: fleet_site_key
    Totals t;
};
struct StackSum {
    std::vector<std::string> path;  // frame names (SymFrame::name), outermost first, machinery trimmed
    Totals t;
};

class FleetBackend {
public:
    virtual ~FleetBackend() = default;
    // The runs `f` keeps, in any order.
    virtual std::vector<FleetRun> runs(const LabelFilter &f) = 0;
    // For each of `runs` (as runs() gave them), in that order: what `sel` selects, whole run.
    virtual std::vector<Totals> run_sums(const std::vector<FleetRun> &runs, const Selection &sel) = 0;
    // Over all of `runs`, per class or per site (Group::Stack: std::invalid_argument), any order.
    virtual std::vector<GroupSum> group_sums(const std::vector<FleetRun> &runs, Group g) = 0;
    // Over all of `runs`, per stack path, any order (two stacks with one path may come twice).
    virtual std::vector<StackSum> stack_sums(const std::vector<FleetRun> &runs) = 0;
};

// A per-run backend (backend.h) whose store answers the cross-run questions itself (ClickHouse:
// fleet/'s ch_fleet.cpp, from its per-run summaries and export labels), rather than run by run
// through the per-run reads.
class FleetSource {
public:
    virtual ~FleetSource() = default;
    virtual std::unique_ptr<FleetBackend> open_fleet() = 0;
};

// run.db files through this layer (SQLite); a file that cannot be opened is an ApiError naming it.
std::unique_ptr<FleetBackend> open_run_files(const std::vector<std::string> &paths);
// The runs of one open database (the viewer's): its backend's own cross-run answers when it is
// a FleetSource (a clickhouse:// history), else its runs read through this layer inside the
// request's read snapshot (a run.db).
std::unique_ptr<FleetBackend> borrow_run_database(Database &db);

}  // namespace mt::viewer

#endif
