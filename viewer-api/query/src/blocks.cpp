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
// (database path, run, ingest time): a database file replaced under the server, or a run id
// reused after a delete, never hits an old entry.
using Key = std::tuple<std::string, int64_t, int64_t>;
constexpr size_t kMaxRuns = 16;  // ~50 blocks x a few thousand rows each: a few MB per run

std::mutex g_mu;
std::map<Key, std::shared_ptr<const RunBlocks>> g_cache;

std::shared_ptr<const RunBlocks> build(Database &db, const RunRow &run) {
    auto out = std::make_shared<RunBlocks>();
    out->block = block_frames(run.frames);
    const int64_t full = run.frames / out->block;  // the last, partial block is scanned instead
    out->sums.resize(static_cast<size_t>(full));
    struct PairHash {
        size_t operator()(const std::pair<int64_t, int64_t> &p) const { return std::hash<int64_t>()(p.first * 1000003 ^ p.second); }
    };
    std::vector<std::unordered_map<std::pair<int64_t, int64_t>, size_t, PairHash>> at(static_cast<size_t>(full));
    auto s = query(db, "SELECT seq, class_id, stack_id, count, requested_bytes, gc_bytes FROM allocs "
                       "WHERE run_id=?1 AND seq BETWEEN 0 AND ?2");
    s.binds(run.id, full * out->block - 1);
    while (s.step()) {
        auto k = static_cast<size_t>(s.i64(0) / out->block);
        auto &v = out->sums[k];
        auto [it, fresh] = at[k].try_emplace({s.i64(1), s.i64(2)}, v.size());
        if (fresh) v.push_back({s.i64(1), s.i64(2), {}});
        v[it->second].t.add({s.i64(3), s.i64(4), s.i64(5)});
    }
    return out;
}
}  // namespace

int64_t block_frames(int64_t frames) { return std::clamp<int64_t>(frames / 50, 32, 1024); }

std::shared_ptr<const RunBlocks> run_blocks(Database &db, const RunRow &run) {
    auto t = query(db, "SELECT ingested_unix_ns FROM runs WHERE run_id=?");
    t.binds(run.id);
    Key key{db.path(), run.id, t.step() ? t.i64(0) : 0};
    {
        std::lock_guard<std::mutex> lock(g_mu);
        if (auto it = g_cache.find(key); it != g_cache.end()) return it->second;
    }
    auto b = build(db, run);  // outside the lock: two threads may build the same run once each
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_cache.size() >= kMaxRuns) g_cache.erase(g_cache.begin());
    return g_cache.emplace(key, b).first->second;
}

}  // namespace mt::viewer
