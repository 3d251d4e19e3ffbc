#include "lifetimes_model.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "sqlite.h"

namespace mt::viewer {

namespace {

struct PairHash {
    size_t operator()(const std::pair<int64_t, int64_t> &p) const {
        return std::hash<int64_t>()(p.first * 1000003 ^ p.second);
    }
};
using CsKey = std::pair<int64_t, int64_t>;

bool table_exists(Database &db, std::string_view name) {
    auto s = query(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?");
    s.binds(name);
    return s.step();
}

int64_t varint(std::string_view b, size_t &i) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (i >= b.size()) throw std::runtime_error("death_sites.ages: blob ends inside a number");
        auto byte = static_cast<uint8_t>(b[i++]);
        v |= static_cast<uint64_t>(byte & 0x7F) << shift;
        if (!(byte & 0x80)) return static_cast<int64_t>(v);
    }
    throw std::runtime_error("death_sites.ages: a number longer than 64 bits");
}

}  // namespace

LifetimeSupport lifetime_support(Database &db, int64_t run) {
    LifetimeSupport s;
    auto q = query(db, "SELECT has_lifetimes FROM runs WHERE run_id=?");
    q.binds(run);
    s.recorded = q.step() && q.i64(0) != 0;
    s.per_site = s.recorded && table_exists(db, "death_sites");
    auto c = query(db, "SELECT 1 FROM pragma_table_info('survivors') WHERE name='frames'");
    s.survivor_frames = c.step();
    if (!s.recorded)
        s.why = "run " + std::to_string(run) +
                " recorded no lifetimes: capture with MT_FLAG_LIFETIMES (memtracer-sample-game --lifetimes) to see "
                "leaks and temporaries";
    else if (!s.per_site)
        s.why = "this database was written before death_sites: only leaks over the whole run are known; "
                "symbolize the run.mt again for frame ranges and temporaries";
    return s;
}

void decode_ages(std::string_view blob, std::vector<AgeCount> &out) {
    out.clear();
    size_t i = 0;
    while (i < blob.size()) {
        AgeCount a;
        a.age = varint(blob, i);
        a.count = varint(blob, i);
        a.gc_bytes = varint(blob, i);
        out.push_back(a);
    }
}

std::vector<Alive> alive_at_end(Database &db, const RunRow &run, const Range &r, const LifetimeSupport &sup) {
    std::vector<Alive> out;
    if (sup.survivor_frames && ((r.whole && !run.growing) || !sup.per_site)) {  // a growing run has no survivors yet
        // The symbolizer's survivors are exactly "alive at the end of the run".
        auto s = query(db,
                       "SELECT class_id, stack_id, count, gc_bytes, first_seq, frames FROM survivors WHERE run_id=?");
        s.binds(run.id);
        while (s.step()) out.push_back({s.i64(0), s.i64(1), s.i64(2), s.i64(3), s.i64(4), s.i64(5)});
        return out;
    }
    if (!sup.per_site) {  // a database older than both death_sites and survivors.frames
        auto s = query(db, "SELECT class_id, stack_id, count, gc_bytes, first_seq FROM survivors WHERE run_id=?");
        s.binds(run.id);
        while (s.step()) out.push_back({s.i64(0), s.i64(1), s.i64(2), s.i64(3), s.i64(4), 0});
        return out;
    }
    // Net objects per (class, stack, allocation frame) over the range, as the symbolizer's
    // Lifetimes does for the whole run: allocations add, deaths up to r.to subtract. The whole
    // run too (not survivors): the per-frame detail gives `frames`.
    // Per (class, stack): its allocation frames in seq order (allocs is read in primary-key
    // order), each with what is still alive of it. Flat vectors, not trees: a whole run is
    // millions of entries. A death whose allocation frame is not there would go negative and be
    // clamped to zero anyway, so it is skipped.
    struct Net {
        int64_t seq, count, gc_bytes;
    };
    std::unordered_map<CsKey, std::vector<Net>, PairHash> net;
    auto a = query(db,
                   "SELECT seq, class_id, stack_id, count, gc_bytes FROM allocs WHERE run_id=? AND seq BETWEEN ? AND ?");
    a.binds(run.id, r.from, r.to);
    CsKey last_key{-1, -1};
    std::vector<Net> *cur = nullptr;
    while (a.step()) {
        // Each column read once: over a long range this loop is most of the request.
        const int64_t seq = a.i64(0), count = a.i64(3), gc_bytes = a.i64(4);
        CsKey k{a.i64(1), a.i64(2)};
        if (!cur || k != last_key) cur = &net[k], last_key = k;
        if (!cur->empty() && cur->back().seq == seq) {
            cur->back().count += count;
            cur->back().gc_bytes += gc_bytes;
        } else {
            cur->push_back({seq, count, gc_bytes});
        }
    }
    auto d = query(db, "SELECT seq, class_id, stack_id, ages FROM death_sites WHERE run_id=? AND seq BETWEEN ? AND ?");
    d.binds(run.id, r.from, r.to);
    std::vector<AgeCount> ages;
    while (d.step()) {
        auto it = net.find({d.i64(1), d.i64(2)});
        if (it == net.end()) continue;
        decode_ages(d.blob(3), ages);
        auto &v = it->second;
        const int64_t seq = d.i64(0);
        for (const auto &x : ages) {
            int64_t born = seq - x.age;
            auto at = std::lower_bound(v.begin(), v.end(), born, [](const Net &n, int64_t s) { return n.seq < s; });
            if (at == v.end() || at->seq != born) continue;
            at->count -= x.count;
            at->gc_bytes -= x.gc_bytes;
        }
    }
    auto last = query(db, "SELECT max(seq) FROM death_sites WHERE run_id=? AND seq BETWEEN ? AND ?");
    last.binds(run.id, r.from, r.to);
    int64_t last_gc = last.step() && !last.null(0) ? last.i64(0) : -1;
    for (const auto &[cs, frames] : net) {
        Alive v{cs.first, cs.second, 0, 0, r.to, 0};
        for (const auto &n : frames) {
            // Sampled runs weigh allocations but count sampled deaths: clamp as survivors does.
            if (n.count > 0) {
                v.count += n.count;
                v.gc_bytes += std::max<int64_t>(0, n.gc_bytes);
                v.oldest_seq = std::min(v.oldest_seq, n.seq);
                v.frames += n.seq < last_gc;
            }
        }
        if (v.count > 0) out.push_back(v);
    }
    return out;
}

std::vector<Temporary> temporaries_in(Database &db, const RunRow &run, const Range &r, int64_t within) {
    std::unordered_map<CsKey, Temporary, PairHash> by_cs;
    auto d = query(db, "SELECT seq, class_id, stack_id, ages FROM death_sites WHERE run_id=? AND seq BETWEEN ? AND ?");
    d.binds(run.id, r.from, r.to + within);
    std::vector<AgeCount> ages;
    while (d.step()) {
        decode_ages(d.blob(3), ages);
        const int64_t seq = d.i64(0);
        Temporary sum;  // this row's (class, stack): one map lookup per row, not per age
        for (const auto &x : ages) {
            int64_t born = seq - x.age;
            if (x.age > within || born < r.from || born > r.to) continue;
            sum.count += x.count;
            sum.gc_bytes += x.gc_bytes;
        }
        if (sum.count == 0 && sum.gc_bytes == 0) continue;
        Temporary &t = by_cs[{d.i64(1), d.i64(2)}];
        t.class_id = d.i64(1);
        t.stack_id = d.i64(2);
        t.count += sum.count;
        t.gc_bytes += sum.gc_bytes;
    }
    std::vector<Temporary> out;
    out.reserve(by_cs.size());
    for (auto &[_, t] : by_cs) out.push_back(t);
    return out;
}

}  // namespace mt::viewer
