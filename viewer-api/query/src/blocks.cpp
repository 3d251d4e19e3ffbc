#include "blocks.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>

#include "memtracer/viewer/backend.h"

namespace mt::viewer {

namespace {
// (database path, run, its start time and pid, frames per block): a database file replaced under
// the server, or a run id reused after a delete for another capture, never hits an old entry.
// Not the ingest time: a run still followed (--live) keeps its entry while it grows. The last
// part is the thread filter's ids ("" for every thread).
using Key = std::tuple<std::string, int64_t, int64_t, int64_t, int64_t, std::string>;
constexpr size_t kMaxRuns = 16;  // ~50 blocks x a few thousand rows each: a few MB per run (or thread set)
// A run still growing keeps one block size, so its entry is extended rather than rebuilt.
constexpr int64_t kGrowingBlock = 256;

std::mutex g_mu;
std::map<Key, std::shared_ptr<const RunBlocks>> g_cache;

// Adds the sums of blocks [out.sums.size(), full) to `out`: committed frames never change, so
// the blocks already summed stay right while a live run grows.
void extend(Database &db, const RunRow &run, int64_t full, const std::vector<int64_t> &threads, RunBlocks &out) {
    const auto first = static_cast<int64_t>(out.sums.size());
    if (full <= first) return;
    out.sums.resize(static_cast<size_t>(full));
    struct PairHash {
        size_t operator()(const std::pair<int64_t, int64_t> &p) const { return std::hash<int64_t>()(p.first * 1000003 ^ p.second); }
    };
    std::vector<std::unordered_map<std::pair<int64_t, int64_t>, size_t, PairHash>> at(static_cast<size_t>(full - first));
    AllocFilter f;
    f.threads = threads;
    db.backend().allocs(run.id, first * out.block, full * out.block - 1, f, [&](const AllocRow &r) {
        auto k = static_cast<size_t>(r.seq / out.block);
        auto &v = out.sums[k];
        auto [it, fresh] = at[k - static_cast<size_t>(first)].try_emplace({r.class_id, r.stack_id}, v.size());
        if (fresh) v.push_back({r.class_id, r.stack_id, {}});
        v[it->second].t.add(r.t);
    });
}
}  // namespace

int64_t block_frames(int64_t frames) { return std::clamp<int64_t>(frames / 50, 32, 1024); }
int64_t block_frames(const RunRow &run) { return run.growing ? kGrowingBlock : block_frames(run.frames); }

std::shared_ptr<const RunBlocks> run_blocks(Database &db, const RunRow &run, const std::vector<int64_t> &threads) {
    auto t = db.backend().run_state(run.id);
    const bool found = t.has_value();
    const int64_t block = block_frames(run);
    std::string thread_key;  // the thread filter's ids, "" for every thread
    for (int64_t id : threads) thread_key += std::to_string(id) + ",";
    Key key{db.path(), run.id, found ? t->start_unix_ns : 0, found ? t->pid : 0, block, thread_key};
    const int64_t full = run.frames / block;  // the last, partial block is scanned instead
    std::shared_ptr<const RunBlocks> have;
    {
        std::lock_guard<std::mutex> lock(g_mu);
        if (auto it = g_cache.find(key); it != g_cache.end()) have = it->second;
    }
    if (have && static_cast<int64_t>(have->sums.size()) >= full) return have;
    // Outside the lock: two threads may build the same run once each. A live run's entry is
    // copied and extended by its new blocks only.
    auto b = have ? std::make_shared<RunBlocks>(*have) : std::make_shared<RunBlocks>();
    b->block = block;
    extend(db, run, full, threads, *b);
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = g_cache.find(key);
    if (it != g_cache.end()) {
        if (it->second->sums.size() < b->sums.size()) it->second = b;
        return it->second;
    }
    if (g_cache.size() >= kMaxRuns) g_cache.erase(g_cache.begin());
    return g_cache.emplace(key, b).first->second;
}

}  // namespace mt::viewer
