#include "blocks.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>

#include "sqlite.h"

namespace mt::viewer {

namespace {
// (database path, run, its start time and pid, frames per block): a database file replaced under
// the server, or a run id reused after a delete for another capture, never hits an old entry.
// Not the ingest time: a run still followed (--live) keeps its entry while it grows. The last
// part is the thread filter's SQL ("" for every thread).
using Key = std::tuple<std::string, int64_t, int64_t, int64_t, int64_t, std::string>;
constexpr size_t kMaxRuns = 16;  // ~50 blocks x a few thousand rows each: a few MB per run (or thread set)
// A run still growing keeps one block size, so its entry is extended rather than rebuilt.
constexpr int64_t kGrowingBlock = 256;

std::mutex g_mu;
std::map<Key, std::shared_ptr<const RunBlocks>> g_cache;

// Adds the sums of blocks [out.sums.size(), full) to `out`: committed frames never change, so
// the blocks already summed stay right while a live run grows.
void extend(Database &db, const RunRow &run, int64_t full, const std::string &thread_sql, RunBlocks &out) {
    const auto first = static_cast<int64_t>(out.sums.size());
    if (full <= first) return;
    out.sums.resize(static_cast<size_t>(full));
    struct PairHash {
        size_t operator()(const std::pair<int64_t, int64_t> &p) const { return std::hash<int64_t>()(p.first * 1000003 ^ p.second); }
    };
    std::vector<std::unordered_map<std::pair<int64_t, int64_t>, size_t, PairHash>> at(static_cast<size_t>(full - first));
    auto s = query(db, "SELECT seq, class_id, stack_id, count, requested_bytes, gc_bytes FROM allocs "
                       "WHERE run_id=?1 AND seq BETWEEN ?2 AND ?3" + thread_sql);
    s.binds(run.id, first * out.block, full * out.block - 1);
    while (s.step()) {
        auto k = static_cast<size_t>(s.i64(0) / out.block);
        auto &v = out.sums[k];
        auto [it, fresh] = at[k - static_cast<size_t>(first)].try_emplace({s.i64(1), s.i64(2)}, v.size());
        if (fresh) v.push_back({s.i64(1), s.i64(2), {}});
        v[it->second].t.add({s.i64(3), s.i64(4), s.i64(5)});
    }
}
}  // namespace

int64_t block_frames(int64_t frames) { return std::clamp<int64_t>(frames / 50, 32, 1024); }
int64_t block_frames(const RunRow &run) { return run.growing ? kGrowingBlock : block_frames(run.frames); }

std::shared_ptr<const RunBlocks> run_blocks(Database &db, const RunRow &run, const std::vector<int64_t> &threads) {
    auto t = query(db, "SELECT start_unix_ns, pid FROM runs WHERE run_id=?");
    t.binds(run.id);
    const bool found = t.step();
    const int64_t block = block_frames(run);
    // Ids, not text from the request: written into the SQL as numbers.
    std::string thread_sql;
    for (size_t i = 0; i < threads.size(); ++i)
        thread_sql += (i ? ", " : " AND thread_id IN (") + std::to_string(threads[i]) + (i + 1 == threads.size() ? ")" : "");
    Key key{db.path(), run.id, found ? t.i64(0) : 0, found ? t.i64(1) : 0, block, thread_sql};
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
    extend(db, run, full, thread_sql, *b);
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
