// model.h — what several endpoints read the same way: a run and its frame range, per
// (class, stack) totals over a range, class/site dictionaries, pagination.
#ifndef MEMTRACER_VIEWER_MODEL_H
#define MEMTRACER_VIEWER_MODEL_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "memtracer/json.h"
#include "params.h"
#include "memtracer/viewer/results.h"

namespace mt::viewer {

inline Response ok(Json &j) { return Response{200, j.take(), "application/json", ""}; }

struct RunRow {
    int64_t id = 0;
    int64_t frames = 0;  // rows in `frames` (seq is dense from 0)
    // Still being ingested (memtracer-viewer --live: the symbolizer's --follow adds frames while
    // it is served): its whole-run tables (run_class_stack) are not final, so nothing may read
    // them, and per-run caches must key on `frames`.
    bool growing = false;
    std::string build_id;
    std::vector<MarkerRow> markers;  // a handful: range ends may name them
};

// ep_markers.cpp: the run's markers in frame order; none for a database without the table.
std::vector<MarkerRow> load_markers(Database &db, int64_t run);
// The frame of "marker:LABEL" (its first occurrence), nullopt for any other value; 400 naming
// `param` and the label for an unknown one.
std::optional<int64_t> marker_end(const RunRow &run, std::string_view value, const std::string &param);

// Parses a path segment as an id: 400 naming `what` if it is not a number.
int64_t parse_id(std::string_view seg, const std::string &what);
// 404 for an unknown run.
RunRow load_run(Database &db, int64_t run_id);

Range frame_range(const Params &p, const RunRow &run, const std::string &from = "from", const std::string &to = "to");
// The game frames a range of committed frames covers: a frame the runtime merged (its frame-end
// queue was full, MT_FRAME_MERGED) spans every game frame since the one before it, so a run whose
// writer fell behind is not read as allocating twice or three times per frame. Committed frames
// when the game's indexes do not say more (not increasing, first frame, no merge).
int64_t game_frames(Database &db, const RunRow &run, const Range &r);

Metric metric_param(const Params &p, std::string_view name = "by");

void write_totals(Json &j, const Totals &t);  // "count", "requested_bytes", "gc_bytes" members

struct ClassStack {
    int64_t class_id = 0, stack_id = 0;
    Totals t;
};
// Every (class, stack) of a range with its totals: run_class_stack for the whole run, else the
// cached block sums plus the range's ends (filter.cpp, filtered_class_stacks with no filter).
std::vector<ClassStack> class_stacks(Database &db, const RunRow &run, const Range &r);

std::unordered_map<int64_t, ClassInfo> load_classes(Database &db, int64_t run);
std::optional<ClassInfo> find_class(Database &db, int64_t run, int64_t class_id);  // one PK lookup
void write_class(Json &j, int64_t class_id, const ClassInfo *c);  // members of a class entry

std::unordered_map<int64_t, int64_t> load_stack_sites(Database &db, int64_t run);  // stack -> site
std::unordered_map<int64_t, SiteInfo> load_sites(Database &db, int64_t run);
std::optional<SiteInfo> find_stack_site(Database &db, int64_t run, int64_t stack_id);  // one lookup
void write_site(Json &j, int64_t site_id, const SiteInfo *s);  // members of a site entry
void write_site(Json &j, const std::optional<SiteInfo> &s);

Page page_params(const Params &p, int64_t def_limit, int64_t max_limit);
// "total", "limit", "offset", "next_offset" (null on the last page).
void write_page(Json &j, int64_t total, const Page &pg);
// The tail every paged view ends with: closes the entries array, writes the page fields, closes
// the answer's object and returns its text.
std::string end_paged(Json &j, int64_t total, const Page &pg);

// render.cpp: pieces several answers share.
void write_gc(Json &j, const GcRow &g);            // one gc_events entry
void write_run_entry(Json &j, const RunEntry &e);  // the members a runs-list entry and a summary share

}  // namespace mt::viewer

#endif
