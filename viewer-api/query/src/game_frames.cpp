// game_frames.cpp — the game frames a range of committed frames covers (model.h). Merged frames
// are rare (a writer that fell behind), so a run's merged frames and what each adds are read once
// per process and run length, and a range is then a binary search: a whole-run TopN stays a
// few-thousand-row read instead of also joining every frame row with its predecessor.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "model.h"
#include "memtracer/viewer/backend.h"

namespace mt::viewer {

namespace {

struct Merged {
    std::vector<int64_t> seq;    // ascending
    std::vector<int64_t> extra;  // running sum of the game frames each merged frame adds beyond 1
};

// (database path, run, frames): a run that grows (live) or a replaced file never hits an old entry.
using Key = std::tuple<std::string, int64_t, int64_t>;
constexpr size_t kMaxRuns = 64;  // a few merged frames per run, usually none

std::mutex g_mu;
std::map<Key, std::shared_ptr<const Merged>> g_cache;

std::shared_ptr<const Merged> merged_frames(Database &db, int64_t run_id, int64_t frames) {
    Key key{db.path(), run_id, frames};
    {
        std::lock_guard<std::mutex> lock(g_mu);
        if (auto it = g_cache.find(key); it != g_cache.end()) return it->second;
    }
    auto m = std::make_shared<Merged>();
    int64_t sum = 0;
    for (auto [seq, extra] : db.backend().merged_frames(run_id)) {
        m->seq.push_back(seq);
        m->extra.push_back(sum += extra);
    }
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_cache.size() >= kMaxRuns) g_cache.erase(g_cache.begin());
    return g_cache.emplace(key, std::move(m)).first->second;
}

// Extra game frames of the merged frames with seq <= at.
int64_t extra_through(const Merged &m, int64_t at) {
    auto n = std::upper_bound(m.seq.begin(), m.seq.end(), at) - m.seq.begin();
    return n == 0 ? 0 : m.extra[static_cast<size_t>(n - 1)];
}

}  // namespace

int64_t game_frames(Database &db, const RunRow &run, const Range &r) {
    if (r.to < r.from) return 0;
    auto m = merged_frames(db, run.id, run.frames);
    return r.size() + extra_through(*m, r.to) - extra_through(*m, r.from - 1);
}

}  // namespace mt::viewer
