// site_lifetimes.h — the death_sites table: the deaths of each frame per (class, stack), with
// how many died at each age in frames: the link from a death back to its allocation site and
// frame that `deaths` (per class only) lacks. Leaks at any frame and temporaries per site are
// read from it (viewer-api/query/src/lifetimes_model.cpp decodes `ages`).
#ifndef MEMTRACER_SYM_SITE_LIFETIMES_H
#define MEMTRACER_SYM_SITE_LIFETIMES_H

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "memtracer/reader.h"
#include "memtracer/store/db.h"

namespace mt::sym {

class DeathSites {
public:
    DeathSites(store::Db &db, int64_t run_id);
    // The deaths of frame f (found by the collections that ended in it); threads[i]: the thread
    // that allocated f.deaths[i] (-1 unknown or not split).
    void add(const mt::reader::Frame &f, const std::vector<int64_t> &threads);

private:
    int64_t run_id_;
    store::Stmt insert_;
    // (class, stack, thread) -> age -> (count, gc bytes); ordered, so rows go in primary-key
    // order and ages ascend in the blob. Reused frame to frame.
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::map<uint64_t, std::pair<uint64_t, uint64_t>>> frame_;
    std::string blob_;
};

// Unsigned LEB128, the encoding of death_sites.ages.
void append_varint(std::string &out, uint64_t v);

}  // namespace mt::sym

#endif
