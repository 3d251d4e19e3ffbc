// lifetimes_model.h — what runs recorded with lifetimes say per (class, stack): objects still
// alive at the end of a frame range (leak candidates, with the oldest one's allocation frame),
// and temporaries (objects that died within N frames of their allocation). Read from
// death_sites (schema.md), whose `ages` blob this file decodes, with allocs and survivors.
#ifndef MEMTRACER_VIEWER_LIFETIMES_MODEL_H
#define MEMTRACER_VIEWER_LIFETIMES_MODEL_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"

namespace mt::viewer {

// Whether a run can answer leak and temporary questions, and if not, the sentence saying why.
struct LifetimeSupport {
    bool recorded = false;  // runs.has_lifetimes
    bool per_site = false;  // death_sites exists (databases written before it have survivors only)
    bool survivor_frames = false;  // survivors.frames exists: the whole run needs no allocs scan
    bool threads = false;   // the tables have thread_id (schema version 2); else every row is thread -1
    std::string why;        // empty when both
};
LifetimeSupport lifetime_support(Database &db, int64_t run);

struct AgeCount {
    int64_t age = 0, count = 0, gc_bytes = 0;
};
// Decodes death_sites.ages (unsigned LEB128 triples). Throws std::runtime_error on a malformed
// blob, naming where.
void decode_ages(std::string_view blob, std::vector<AgeCount> &out);

struct Alive {
    int64_t class_id = 0, stack_id = 0;
    int64_t count = 0, gc_bytes = 0;
    int64_t oldest_seq = 0;   // allocation frame of the oldest object still alive
    // Allocation frames before the range's last collection that still have objects alive: what
    // survived a collection, frame after frame. A leak adds one every frame; a level's data, a
    // cache filled once, or garbage not yet collected do not. 0 without death_sites.
    int64_t frames = 0;
};
// Objects allocated in [r.from, r.to] and still alive at the end of frame r.to: for the whole
// run the symbolizer's survivors; for a range (or a database whose survivors lack `frames`) the
// range's allocs minus the deaths death_sites links back to them.
// `threads`: the allocating threads kept (sorted; empty: all). `frames` counts a frame once however
// many of the kept threads allocated in it.
std::vector<Alive> alive_at_end(Database &db, const RunRow &run, const Range &r, const LifetimeSupport &s,
                                const std::vector<int64_t> &threads = {});

struct Temporary {
    int64_t class_id = 0, stack_id = 0;
    int64_t count = 0, gc_bytes = 0;  // died within `within` frames of their allocation
    int64_t thread_id = -1;           // allocating thread
};
// Objects allocated in [r.from, r.to] that died at most `within` frames after (0: in the frame
// they were allocated in).
std::vector<Temporary> temporaries_in(Database &db, const RunRow &run, const Range &r, int64_t within);

}  // namespace mt::viewer

#endif
