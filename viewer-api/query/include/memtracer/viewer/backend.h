// backend.h — the one per-run read interface below compute (issue 23): every endpoint reads a
// run through these calls and nothing else, so the same compute and render code answers from a
// run.db (SQLite, query/src/sqlite_backend.cpp, store/'s SQL) and from ClickHouse (fleet/, over
// the exported tables). The query layer knows no SQL dialect and no transport.
//
// Granularity: one call per logical read of one run (a table over a frame range, a dictionary,
// a grouped total), typed rows out. Everything an endpoint does with those rows (block sums,
// ranking, lifetimes arithmetic, stack trimming, JSON) stays above, written once. Filters travel
// as AllocFilter (typed), never as SQL text: each backend renders its own condition.
//
// Row order is part of the contract where the caller depends on it (said per call): a backend
// sorts as SQLite's primary key would, so both give byte-identical answers.
#ifndef MEMTRACER_VIEWER_BACKEND_H
#define MEMTRACER_VIEWER_BACKEND_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "memtracer/viewer/results.h"

namespace mt::viewer {

// What an older database lacks (store/'s features, read once per connection): the query layer
// answers without each part rather than failing.
struct BackendFeatures {
    bool markers = true;          // the markers table
    bool live_state = true;       // runs.live_state (--follow)
    bool thread_split = true;     // runs.thread_split
    bool alloc_threads = true;    // allocs/run_class_stack/death_sites/survivors.thread_id (schema v2)
    bool death_sites = true;      // the death_sites table
    bool survivor_frames = true;  // survivors.frames / all_frames
    bool machinery = true;        // stacks.machinery
};

// A run as the range and cache code needs it (model.h's RunRow is built from it).
struct RunState {
    std::string build_id, live_state, mode, process, device;
    int64_t frame_count = 0;      // runs.frame_count
    int64_t frames = 0;           // max(seq) + 1 of its frame rows, 0 for none
    int64_t start_unix_ns = 0, pid = 0;
    bool has_lifetimes = false;
    int64_t thread_split = 0;     // runs.thread_split (0 when the column is missing)
};

// One allocs (or run_class_stack) row: seq is -1 for run_class_stack, thread_id -1 for a
// database without per-thread rows.
struct AllocRow {
    int64_t seq = -1, class_id = 0, stack_id = 0, thread_id = -1;
    Totals t;
};
// The filter as data (filter.h parses it): lowercase needles, "native"/"managed"/"", thread ids.
struct AllocFilter {
    std::string cls, function, kind;
    std::vector<int64_t> threads;
    bool active() const { return !cls.empty() || !function.empty() || !kind.empty() || !threads.empty(); }
};

struct DeathSiteRow {
    int64_t seq = 0, class_id = 0, stack_id = 0, thread_id = -1;
    std::string ages;  // death_sites.ages, LEB128 triples (lifetimes_model.h decodes)
};
struct SurvivorRow {
    int64_t class_id = 0, stack_id = 0, count = 0, gc_bytes = 0, first_seq = 0;
    int64_t frames = 0, thread_id = -1, all_frames = 0;  // frames 0 without survivor_frames
};
struct DeathRow {
    int64_t class_id = 0, count = 0, gc_bytes = 0;
};
// A symbol row of a stack matching a search (ep_search.cpp).
struct FunctionMatch {
    int64_t stack_id = 0;
    std::string csharp, demangled, function, file, cs_file;
    int64_t line = 0, cs_line = 0;
};

enum class GcOrder { SeqThenStart, Start };

template <class T>
using RowFn = const std::function<void(const T &)> &;

// Return types the read list names (a macro argument cannot hold a bare comma).
using KeyValues = std::vector<std::pair<std::string, std::string>>;
using IdPairs = std::vector<std::pair<int64_t, int64_t>>;
using ClassList = std::vector<std::pair<int64_t, ClassInfo>>;
using ThreadTotals = std::vector<std::pair<int64_t, Totals>>;
using StackFrameFn = const std::function<void(int64_t, const SymFrame &)> &;

// Every read of RunBackend, once: X(return type, name, (parameters)). RunBackend declares them
// pure from this list and each backend declares its overrides from it, so a new read is one line
// here plus its definition in each backend (sqlite_backend*.cpp, fleet/src/ch_backend*.cpp).
#define MT_RUN_BACKEND_READS(X)                                                                   \
    /* ---- runs ---- */                                                                          \
    X(int64_t, run_count, ())                                                                     \
    X(std::vector<RunEntry>, runs, (const Page &page)) /* by run_id */                            \
    X(std::optional<RunEntry>, run, (int64_t run))                                                \
    X(std::optional<RunState>, run_state, (int64_t run))                                          \
    X(KeyValues, run_info, (int64_t run))               /* by key */                              \
    X(std::vector<ThreadRow>, threads, (int64_t run))   /* by thread_id */                        \
    X(std::vector<ModuleRow>, modules, (int64_t run))   /* by module_id */                        \
    X(RunCounts, counts, (int64_t run))                                                           \
    X(FrameStats, frame_stats, (int64_t run))                                                     \
    X(FigureFlags, figure_flags, (int64_t run))                                                   \
    /* By seq, ns, then insertion order; frame_index -1 where the frame is missing. */            \
    X(std::vector<MarkerRow>, markers, (int64_t run))                                             \
    /* ---- frames ---- */                                                                        \
    X(void, frames, (int64_t run, int64_t from, int64_t to, RowFn<FrameRow> fn)) /* by seq */     \
    X(std::optional<FrameRow>, frame, (int64_t run, int64_t seq))                                 \
    /* The first frame of [from, to] with the most live bytes (non-null) / the biggest heap. */   \
    X(std::optional<Peak>, live_peak, (int64_t run, int64_t from, int64_t to))                    \
    X(std::optional<Peak>, heap_peak, (int64_t run, int64_t from, int64_t to))                    \
    X(std::vector<GcRow>, gc_events, (int64_t run, int64_t from, int64_t to, GcOrder order))      \
    /* Frames the runtime merged (flag 2, frame_index jumping): (seq, game frames beyond 1),      \
       by seq. */                                                                                 \
    X(IdPairs, merged_frames, (int64_t run))                                                      \
    X(std::vector<DeathRow>, deaths, (int64_t run, int64_t seq)) /* biggest gc_bytes first */     \
    /* ---- classes, sites, stacks ---- */                                                        \
    X(ClassList, classes, (int64_t run))                                                          \
    X(std::optional<ClassInfo>, find_class, (int64_t run, int64_t class_id))                      \
    X(ClassList, classes_matching, (int64_t run, const std::string &lower))                       \
    X(IdPairs, stack_sites, (int64_t run))             /* stack -> site (kNoSite) */              \
    X(std::vector<SiteInfo>, sites, (int64_t run))     /* those the run's stacks name */          \
    X(std::optional<SiteInfo>, find_stack_site, (int64_t run, int64_t stack_id))                  \
    /* A stack's frames, pos then inline depth (innermost first); `inlined` left false. */        \
    X(std::vector<SymFrame>, stack_frames, (int64_t run, int64_t stack_id))                       \
    /* Every stack's, by stack_id, pos, depth. */                                                 \
    X(void, all_stack_frames, (int64_t run, StackFrameFn fn))                                     \
    /* stack -> its leading machinery frames, for stacks with any (none without the column). */   \
    X(IdPairs, machinery, (int64_t run))                                                          \
    /* Rows of stack frames whose symbol's C#, demangled or raw name contains `lower`, distinct. */\
    X(std::vector<FunctionMatch>, functions_matching, (int64_t run, const std::string &lower))    \
    /* ---- allocations ---- */                                                                   \
    /* allocs rows of [from, to] the filter keeps, by seq, class_id, stack_id, thread_id. */      \
    X(void, allocs, (int64_t run, int64_t from, int64_t to, const AllocFilter &f, RowFn<AllocRow> fn)) \
    /* One frame's allocs summed per (class, stack) over threads, by class_id, stack_id. */       \
    X(void, frame_class_stacks, (int64_t run, int64_t seq, const AllocFilter &f, RowFn<AllocRow> fn)) \
    /* run_class_stack summed per (class, stack), by class_id, stack_id. */                       \
    X(void, run_class_stacks, (int64_t run, const AllocFilter &f, RowFn<AllocRow> fn))            \
    /* run_class_stack rows as stored (per thread), by class_id, stack_id, thread_id. */          \
    X(void, run_class_stack_rows, (int64_t run, const AllocFilter &f, RowFn<AllocRow> fn))        \
    /* run_class_stack per allocating thread: (thread_id, totals), by thread_id. */               \
    X(ThreadTotals, thread_totals, (int64_t run))                                                 \
    /* ---- lifetimes ---- */                                                                     \
    X(void, survivors, (int64_t run, RowFn<SurvivorRow> fn)) /* by class_id, stack_id, thread */  \
    /* by seq, class, stack, thread */                                                            \
    X(void, death_sites, (int64_t run, int64_t from, int64_t to, RowFn<DeathSiteRow> fn))         \
    X(std::optional<int64_t>, last_death_seq, (int64_t run, int64_t from, int64_t to))

// What a backend class puts in its body: MT_RUN_BACKEND_READS(MT_RUN_BACKEND_OVERRIDE).
#define MT_RUN_BACKEND_OVERRIDE(Ret, name, params) Ret name params override;

class RunBackend {
public:
    virtual ~RunBackend() = default;
    // The path or URL: cache keys (a replaced file never hits an old entry) and messages.
    virtual const std::string &name() const = 0;
    virtual const BackendFeatures &features() = 0;
    // Every read between begin and end sees one state (SQLite: a read transaction). The query
    // layer calls end on every way out, a throw included (SnapshotGuard below).
    virtual void begin_snapshot() = 0;
    virtual void end_snapshot() = 0;

    // The reads, one line each in MT_RUN_BACKEND_READS above: a backend declares them all with
    // MT_RUN_BACKEND_READS(MT_RUN_BACKEND_OVERRIDE) and defines each in its .cpp.
#define MT_RUN_BACKEND_PURE(Ret, name, params) virtual Ret name params = 0;
    MT_RUN_BACKEND_READS(MT_RUN_BACKEND_PURE)
#undef MT_RUN_BACKEND_PURE
};

// begin_snapshot now, end_snapshot when it goes out of scope.
class SnapshotGuard {
public:
    explicit SnapshotGuard(RunBackend &b) : b_(b) { b_.begin_snapshot(); }
    ~SnapshotGuard() { b_.end_snapshot(); }
    SnapshotGuard(const SnapshotGuard &) = delete;
    SnapshotGuard &operator=(const SnapshotGuard &) = delete;

private:
    RunBackend &b_;
};

// The SQLite backend over a run.db (store/), what Database(path) opens.
std::unique_ptr<RunBackend> open_sqlite_backend(const std::string &path);

}  // namespace mt::viewer

#endif
