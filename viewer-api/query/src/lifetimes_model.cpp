#include "lifetimes_model.h"

#include <algorithm>
#include <map>
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
// (class, stack, allocating thread)
struct CsKey {
    int64_t class_id, stack_id, thread;
    bool operator==(const CsKey &) const = default;
};
struct CsKeyHash {
    size_t operator()(const CsKey &k) const {
        return std::hash<int64_t>()((k.class_id * 1000003 ^ k.stack_id) * 31 + k.thread);
    }
};

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
    auto t = query(db, "SELECT 1 FROM pragma_table_info('allocs') WHERE name='thread_id'");
    s.threads = t.step();
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

std::vector<Alive> alive_at_end(Database &db, const RunRow &run, const Range &r, const LifetimeSupport &sup,
                                const std::vector<int64_t> &threads) {
    std::vector<Alive> out;
    auto kept = [&](int64_t t) { return threads.empty() || std::binary_search(threads.begin(), threads.end(), t); };
    // Survivors hold `frames` per thread and over all threads (all_frames), not over a set of
    // some threads: those are counted from allocs and death_sites below.
    // A growing (live) run has no survivors yet.
    if (sup.survivor_frames && ((r.whole && !run.growing) || !sup.per_site) && threads.size() <= 1) {
        // The symbolizer's survivors are exactly "alive at the end of the run", a row per
        // allocating thread (in key order: a (class, stack)'s rows are adjacent).
        auto s = query(db, sup.threads ? "SELECT class_id, stack_id, count, gc_bytes, first_seq, frames, thread_id, "
                                         "all_frames FROM survivors WHERE run_id=?"
                                       : "SELECT class_id, stack_id, count, gc_bytes, first_seq, frames, -1, frames "
                                         "FROM survivors WHERE run_id=?");
        s.binds(run.id);
        while (s.step()) {
            if (!kept(s.i64(6))) continue;
            int64_t frames = threads.empty() ? s.i64(7) : s.i64(5);
            if (!out.empty() && out.back().class_id == s.i64(0) && out.back().stack_id == s.i64(1)) {
                Alive &a = out.back();
                a.count += s.i64(2);
                a.gc_bytes += s.i64(3);
                a.oldest_seq = std::min(a.oldest_seq, s.i64(4));
                a.frames = frames;
            } else {
                out.push_back({s.i64(0), s.i64(1), s.i64(2), s.i64(3), s.i64(4), frames});
            }
        }
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
    std::unordered_map<CsKey, std::vector<Net>, CsKeyHash> net;
    auto a = query(db, sup.threads ? "SELECT seq, class_id, stack_id, count, gc_bytes, thread_id FROM allocs "
                                     "WHERE run_id=? AND seq BETWEEN ? AND ?"
                                   : "SELECT seq, class_id, stack_id, count, gc_bytes, -1 FROM allocs "
                                     "WHERE run_id=? AND seq BETWEEN ? AND ?");
    a.binds(run.id, r.from, r.to);
    CsKey last_key{-1, -1, -2};
    std::vector<Net> *cur = nullptr;
    while (a.step()) {
        if (!kept(a.i64(5))) continue;
        // Each column read once: over a long range this loop is most of the request.
        const int64_t seq = a.i64(0), count = a.i64(3), gc_bytes = a.i64(4);
        CsKey k{a.i64(1), a.i64(2), a.i64(5)};
        if (!cur || k != last_key) cur = &net[k], last_key = k;
        if (!cur->empty() && cur->back().seq == seq) {
            cur->back().count += count;
            cur->back().gc_bytes += gc_bytes;
        } else {
            cur->push_back({seq, count, gc_bytes});
        }
    }
    auto d = query(db, sup.threads ? "SELECT seq, class_id, stack_id, ages, thread_id FROM death_sites "
                                     "WHERE run_id=? AND seq BETWEEN ? AND ?"
                                   : "SELECT seq, class_id, stack_id, ages, -1 FROM death_sites "
                                     "WHERE run_id=? AND seq BETWEEN ? AND ?");
    d.binds(run.id, r.from, r.to);
    std::vector<AgeCount> ages;
    while (d.step()) {
        auto it = net.find({d.i64(1), d.i64(2), d.i64(4)});
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
    // Per (class, stack) over its kept threads; a frame with objects alive counts once.
    struct Sum {
        Alive v;
        std::vector<int64_t> seqs;
    };
    std::map<std::pair<int64_t, int64_t>, Sum> by_cs;
    for (const auto &[cs, frames] : net) {
        auto [it, fresh] = by_cs.try_emplace({cs.class_id, cs.stack_id});
        Sum &s = it->second;
        if (fresh) s.v = Alive{cs.class_id, cs.stack_id, 0, 0, r.to, 0};
        for (const auto &n : frames) {
            // Sampled runs weigh allocations but count sampled deaths: clamp as survivors does.
            if (n.count > 0) {
                s.v.count += n.count;
                s.v.gc_bytes += std::max<int64_t>(0, n.gc_bytes);
                s.v.oldest_seq = std::min(s.v.oldest_seq, n.seq);
                if (n.seq < last_gc) s.seqs.push_back(n.seq);
            }
        }
    }
    for (auto &[_, s] : by_cs) {
        std::sort(s.seqs.begin(), s.seqs.end());
        s.v.frames = std::unique(s.seqs.begin(), s.seqs.end()) - s.seqs.begin();
        if (s.v.count > 0) out.push_back(s.v);
    }
    return out;
}

std::vector<Temporary> temporaries_in(Database &db, const RunRow &run, const Range &r, int64_t within,
                                      const LifetimeSupport &sup) {
    std::unordered_map<CsKey, Temporary, CsKeyHash> by_cs;
    auto d = query(db, sup.threads ? "SELECT seq, class_id, stack_id, ages, thread_id FROM death_sites "
                                     "WHERE run_id=? AND seq BETWEEN ? AND ?"
                                   : "SELECT seq, class_id, stack_id, ages, -1 FROM death_sites "
                                     "WHERE run_id=? AND seq BETWEEN ? AND ?");
    d.binds(run.id, r.from, r.to + within);
    std::vector<AgeCount> ages;
    while (d.step()) {
        decode_ages(d.blob(3), ages);
        const int64_t seq = d.i64(0);
        Temporary sum;  // this row's (class, stack, thread): one map lookup per row, not per age
        for (const auto &x : ages) {
            int64_t born = seq - x.age;
            if (x.age > within || born < r.from || born > r.to) continue;
            sum.count += x.count;
            sum.gc_bytes += x.gc_bytes;
        }
        if (sum.count == 0 && sum.gc_bytes == 0) continue;
        Temporary &t = by_cs[{d.i64(1), d.i64(2), d.i64(4)}];
        t.class_id = d.i64(1);
        t.stack_id = d.i64(2);
        t.thread_id = d.i64(4);
        t.count += sum.count;
        t.gc_bytes += sum.gc_bytes;
    }
    std::vector<Temporary> out;
    out.reserve(by_cs.size());
    for (auto &[_, t] : by_cs) out.push_back(t);
    return out;
}

}  // namespace mt::viewer
