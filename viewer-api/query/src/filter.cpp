#include "filter.h"

#include <unordered_set>

#include "blocks.h"

#include <memtracer/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>
#include <utility>

namespace mt::viewer {

namespace {
constexpr size_t kMaxFilterText = 256;

// SQLite's lower() folds ASCII only; fold the needle the same way so both sides agree.
std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string text_param(const Params &p, const char *name) {
    auto v = p.get(name);
    if (!v) return "";
    if (v->empty()) throw ApiError{400, std::string(name) + " must not be empty (leave it out for no filter)", name};
    if (v->size() > kMaxFilterText)
        throw ApiError{400, std::string(name) + " is longer than " + std::to_string(kMaxFilterText) + " bytes", name};
    return std::string(*v);
}

// "native" or "managed"; anything else is a 400 naming both.
std::string kind_param(const Params &p) {
    auto v = p.get("kind");
    if (!v) return "";
    if (*v != "native" && *v != "managed")
        throw ApiError{400, "kind must be native (native heaps: MT_CLASS_NATIVE classes) or managed (C# classes), not '" +
                                std::string(v->substr(0, 40)) + "'", "kind"};
    return std::string(*v);
}

// Refuses (400) a run whose allocation rows are not split per thread, saying why.
void require_thread_split(Database &db, const RunRow &run) {
    const std::string head = "run " + std::to_string(run.id) + " cannot be filtered by thread: ";
    const BackendFeatures &feat = db.backend().features();
    if (!feat.alloc_threads || !feat.thread_split)
        throw ApiError{400, head + "this run was symbolized before per-thread data (database schema version 1); "
                                   "re-symbolize it with this memtracer-symbolize", "thread"};
    auto st = db.backend().run_state(run.id);
    if (!st || st->thread_split == 1) return;
    if (st->mode == "aggregate")
        throw ApiError{400, head + "it is an aggregate-mode capture, which records no thread per allocation; "
                                   "capture with events (not MT_FLAG_AGGREGATE) to filter by thread", "thread"};
    throw ApiError{400, head + "this run was symbolized before per-thread data (or with --no-threads); "
                               "re-symbolize it without --no-threads", "thread"};
}

// "3", "Job Worker", "main,4": ids and names, comma-separated; a name matches every thread of
// that name (ASCII case-insensitive, exact). Unknown entries are a 400 naming the run's threads.
std::vector<int64_t> thread_param(const Params &p, Database &db, const RunRow &run, std::string &given) {
    auto v = p.get("thread");
    if (!v) return {};
    if (v->empty()) throw ApiError{400, "thread must not be empty (a thread id or name)", "thread"};
    if (v->size() > kMaxFilterText)
        throw ApiError{400, "thread is longer than " + std::to_string(kMaxFilterText) + " bytes", "thread"};
    given = std::string(*v);
    struct T {
        int64_t id;
        std::string name;
    };
    std::vector<T> all;
    for (const ThreadRow &t : db.backend().threads(run.id)) all.push_back({t.thread_id, t.name});
    std::vector<int64_t> out;
    std::string_view rest = *v;
    while (true) {
        size_t comma = rest.find(',');
        std::string_view tok = rest.substr(0, comma);
        while (!tok.empty() && tok.front() == ' ') tok.remove_prefix(1);
        while (!tok.empty() && tok.back() == ' ') tok.remove_suffix(1);
        if (tok.empty()) throw ApiError{400, "thread has an empty entry (ids or names, comma-separated)", "thread"};
        int64_t id = -1;
        auto r = std::from_chars(tok.data(), tok.data() + tok.size(), id);
        bool numeric = r.ec == std::errc() && r.ptr == tok.data() + tok.size();
        const std::string want = ascii_lower(tok);
        bool found = false;
        for (const T &t : all)
            if ((numeric && t.id == id) || (!numeric && ascii_lower(t.name) == want)) {
                found = true;
                if (std::find(out.begin(), out.end(), t.id) == out.end()) out.push_back(t.id);
            }
        if (!found) {
            std::string known;
            for (const T &t : all)
                if (known.size() < 200) known += (known.empty() ? "" : ", ") + std::to_string(t.id) + " " + t.name;
            throw ApiError{400, "run " + std::to_string(run.id) + " has no thread " + std::string(tok) +
                                    (known.empty() ? " (it recorded none)" : " (it has: " + known + ")"), "thread"};
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    std::sort(out.begin(), out.end());
    require_thread_split(db, run);
    return out;
}
}  // namespace

bool has_thread_column(Database &db) { return db.backend().features().alloc_threads; }

bool AppliedFilter::keeps_thread(int64_t t) const {
    return threads.empty() || std::binary_search(threads.begin(), threads.end(), t);
}

Filter parse_filter(const Params &p, Database &db, const RunRow &run) {
    Filter f;
    f.run = run.id;
    f.cls = text_param(p, "class");
    f.function = text_param(p, "function");
    f.threads = thread_param(p, db, run, f.thread);
    f.kind = kind_param(p);
    return f;
}

AllocFilter Filter::alloc() const {
    return AllocFilter{ascii_lower(cls), ascii_lower(function), kind, threads};
}

void write_filter(Json &j, const AppliedFilter &f) {
    if (!f.active()) return;
    j.obj("filter");
    if (!f.cls.empty()) j.kv("class", f.cls);
    if (!f.function.empty()) j.kv("function", f.function);
    if (!f.kind.empty()) j.kv("kind", f.kind);
    if (!f.threads.empty()) {
        j.kv("thread", f.thread).arr("thread_ids");
        for (int64_t t : f.threads) j.val(t);
        j.end_arr();
    }
    j.end_obj();
}

namespace {
struct PairHash {
    size_t operator()(const std::pair<int64_t, int64_t> &p) const { return std::hash<int64_t>()(p.first * 1000003 ^ p.second); }
};
using Index = std::unordered_map<std::pair<int64_t, int64_t>, size_t, PairHash>;
using PairSet = std::unordered_set<std::pair<int64_t, int64_t>, PairHash>;

void whole_run(Database &db, const RunRow &run, const Filter &f, std::vector<ClassStack> &out) {
    db.backend().run_class_stacks(run.id, f.alloc(), [&](const AllocRow &r) { out.push_back({r.class_id, r.stack_id, r.t}); });
}

// Adds the allocs rows of [from, to] into out, those the filter keeps, or with `allowed` those
// whose (class, stack) it holds. Summed here as class_stacks() does: a hash map beats SQLite's
// GROUP BY b-tree.
void scan(Database &db, const RunRow &run, int64_t from, int64_t to, const Filter &f, std::vector<ClassStack> &out,
          Index &at, const PairSet *allowed = nullptr, int64_t sign = 1) {
    // With `allowed`, only the thread part of the filter stays in the backend's read: the
    // (class, stack) part is the set, found once.
    AllocFilter sf = f.alloc();
    if (allowed) sf = AllocFilter{{}, {}, {}, f.threads};
    db.backend().allocs(run.id, from, to, sf, [&](const AllocRow &r) {
        if (allowed && !allowed->count({r.class_id, r.stack_id})) return;
        auto [it, fresh] = at.try_emplace({r.class_id, r.stack_id}, out.size());
        if (fresh) out.push_back({r.class_id, r.stack_id, {}});
        out[it->second].t.add({sign * r.t.count, sign * r.t.requested_bytes, sign * r.t.gc_bytes});
    });
}
}  // namespace

std::vector<ClassStack> filtered_class_stacks(Database &db, const RunRow &run, const Range &r, const Filter &f) {
    std::vector<ClassStack> out;
    if (r.whole && !run.growing) {
        whole_run(db, run, f, out);
        return out;
    }
    Index at;
    // Long ranges: the cached block sums inside the range, then a scan of its two partial ends.
    const int64_t bf = block_frames(run);
    const int64_t kb = (r.from + bf - 1) / bf, ke = (r.to + 1) / bf;  // blocks [kb, ke) lie inside
    if (ke - kb < 2 || (run.growing && f.active())) {  // a growing run's run_class_stack is not final
        scan(db, run, r.from, r.to, f, out, at);
        return out;
    }
    auto blocks = run_blocks(db, run, f.threads);  // a thread filter's blocks hold only its threads
    // The filter's (class, stack) pairs, found once: its subqueries are the costly part.
    PairSet allowed;
    if (f.active()) {
        std::vector<ClassStack> keep;
        whole_run(db, run, f, keep);
        for (const auto &cs : keep) allowed.emplace(cs.class_id, cs.stack_id);
    }
    const int64_t nblocks = static_cast<int64_t>(blocks->sums.size());
    auto add_block = [&](int64_t k) {
        for (const auto &cs : blocks->sums[static_cast<size_t>(k)]) {
            if (f.active() && !allowed.count({cs.class_id, cs.stack_id})) continue;
            auto [it, fresh] = at.try_emplace({cs.class_id, cs.stack_id}, out.size());
            if (fresh) out.push_back({cs.class_id, cs.stack_id, {}});
            out[it->second].t.add(cs.t);
        }
    };
    for (int64_t k = kb; k < ke && k < nblocks; ++k) add_block(k);
    const PairSet *keep = f.active() ? &allowed : nullptr;
    // Each partial end: its frames, or, when it covers more than half a block, the whole block
    // minus the frames outside the range, so no end scans more than half a block.
    if (r.from < kb * bf) {
        if (kb * bf - r.from > bf / 2 && kb >= 1) {
            add_block(kb - 1);
            scan(db, run, (kb - 1) * bf, r.from - 1, f, out, at, keep, -1);
        } else {
            scan(db, run, r.from, kb * bf - 1, f, out, at, keep);
        }
    }
    if (ke * bf <= r.to) {
        if (r.to - ke * bf + 1 > bf / 2 && ke < nblocks) {
            add_block(ke);
            scan(db, run, r.to + 1, (ke + 1) * bf - 1, f, out, at, keep, -1);
        } else {
            scan(db, run, ke * bf, r.to, f, out, at, keep);
        }
    }
    std::erase_if(out, [](const ClassStack &cs) { return cs.t.count == 0 && cs.t.requested_bytes == 0 && cs.t.gc_bytes == 0; });
    return out;
}

std::vector<Totals> filtered_frame_totals(Database &db, const RunRow &run, int64_t from, int64_t to,
                                          const Filter &f) {
    std::vector<Totals> out(static_cast<size_t>(std::max<int64_t>(0, to - from + 1)));
    db.backend().allocs(run.id, from, to, f.alloc(),
                        [&](const AllocRow &r) { out[static_cast<size_t>(r.seq - from)].add(r.t); });
    return out;
}

// Unfiltered: the same block-backed path, so a long range is block sums, not a scan of its rows.
std::vector<ClassStack> class_stacks(Database &db, const RunRow &run, const Range &r) {
    return filtered_class_stacks(db, run, r, Filter{});
}

}  // namespace mt::viewer
