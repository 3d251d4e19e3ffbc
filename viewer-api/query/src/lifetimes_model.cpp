#include "lifetimes_model.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "memtracer/viewer/backend.h"

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
    const BackendFeatures &f = db.backend().features();
    auto st = db.backend().run_state(run);
    s.recorded = st && st->has_lifetimes;
    s.per_site = s.recorded && f.death_sites;
    s.survivor_frames = f.survivor_frames;
    s.threads = f.alloc_threads;
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
        db.backend().survivors(run.id, [&](const SurvivorRow &s) {
            if (!kept(s.thread_id)) return;
            int64_t frames = threads.empty() ? s.all_frames : s.frames;
            if (!out.empty() && out.back().class_id == s.class_id && out.back().stack_id == s.stack_id) {
                Alive &a = out.back();
                a.count += s.count;
                a.gc_bytes += s.gc_bytes;
                a.oldest_seq = std::min(a.oldest_seq, s.first_seq);
                a.frames = frames;
            } else {
                out.push_back({s.class_id, s.stack_id, s.count, s.gc_bytes, s.first_seq, frames});
            }
        });
        return out;
    }
    if (!sup.per_site) {  // a database older than both death_sites and survivors.frames
        db.backend().survivors(run.id, [&](const SurvivorRow &s) {
            out.push_back({s.class_id, s.stack_id, s.count, s.gc_bytes, s.first_seq, 0});
        });
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
    CsKey last_key{-1, -1, -2};
    std::vector<Net> *cur = nullptr;
    db.backend().allocs(run.id, r.from, r.to, AllocFilter{}, [&](const AllocRow &a) {
        if (!kept(a.thread_id)) return;
        const int64_t seq = a.seq, count = a.t.count, gc_bytes = a.t.gc_bytes;
        CsKey k{a.class_id, a.stack_id, a.thread_id};
        if (!cur || k != last_key) cur = &net[k], last_key = k;
        if (!cur->empty() && cur->back().seq == seq) {
            cur->back().count += count;
            cur->back().gc_bytes += gc_bytes;
        } else {
            cur->push_back({seq, count, gc_bytes});
        }
    });
    std::vector<AgeCount> ages;
    db.backend().death_sites(run.id, r.from, r.to, [&](const DeathSiteRow &d) {
        auto it = net.find({d.class_id, d.stack_id, d.thread_id});
        if (it == net.end()) return;
        decode_ages(d.ages, ages);
        auto &v = it->second;
        const int64_t seq = d.seq;
        for (const auto &x : ages) {
            int64_t born = seq - x.age;
            auto at = std::lower_bound(v.begin(), v.end(), born, [](const Net &n, int64_t s) { return n.seq < s; });
            if (at == v.end() || at->seq != born) continue;
            at->count -= x.count;
            at->gc_bytes -= x.gc_bytes;
        }
    });
    int64_t last_gc = db.backend().last_death_seq(run.id, r.from, r.to).value_or(-1);
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

std::vector<Temporary> temporaries_in(Database &db, const RunRow &run, const Range &r, int64_t within) {
    std::unordered_map<CsKey, Temporary, CsKeyHash> by_cs;
    std::vector<AgeCount> ages;
    db.backend().death_sites(run.id, r.from, r.to + within, [&](const DeathSiteRow &d) {
        decode_ages(d.ages, ages);
        const int64_t seq = d.seq;
        Temporary sum;  // this row's (class, stack, thread): one map lookup per row, not per age
        for (const auto &x : ages) {
            int64_t born = seq - x.age;
            if (x.age > within || born < r.from || born > r.to) continue;
            sum.count += x.count;
            sum.gc_bytes += x.gc_bytes;
        }
        if (sum.count == 0 && sum.gc_bytes == 0) return;
        Temporary &t = by_cs[{d.class_id, d.stack_id, d.thread_id}];
        t.class_id = d.class_id;
        t.stack_id = d.stack_id;
        t.thread_id = d.thread_id;
        t.count += sum.count;
        t.gc_bytes += sum.gc_bytes;
    });
    std::vector<Temporary> out;
    out.reserve(by_cs.size());
    for (auto &[_, t] : by_cs) out.push_back(t);
    return out;
}

}  // namespace mt::viewer
