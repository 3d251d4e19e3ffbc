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

    // ---- runs ----
    virtual int64_t run_count() = 0;
    virtual std::vector<RunEntry> runs(const Page &page) = 0;  // by run_id
    virtual std::optional<RunEntry> run(int64_t run) = 0;
    virtual std::optional<RunState> run_state(int64_t run) = 0;
    virtual std::vector<std::pair<std::string, std::string>> run_info(int64_t run) = 0;  // by key
    virtual std::vector<ThreadRow> threads(int64_t run) = 0;                             // by thread_id
    virtual std::vector<ModuleRow> modules(int64_t run) = 0;                             // by module_id
    virtual RunCounts counts(int64_t run) = 0;
    virtual FrameStats frame_stats(int64_t run) = 0;
    virtual FigureFlags figure_flags(int64_t run) = 0;
    // By seq, ns, then insertion order; frame_index -1 where the frame is missing.
    virtual std::vector<MarkerRow> markers(int64_t run) = 0;

    // ---- frames ----
    virtual void frames(int64_t run, int64_t from, int64_t to, RowFn<FrameRow> fn) = 0;  // by seq
    virtual std::optional<FrameRow> frame(int64_t run, int64_t seq) = 0;
    // The first frame of [from, to] with the most live bytes (non-null) / the biggest heap.
    virtual std::optional<Peak> live_peak(int64_t run, int64_t from, int64_t to) = 0;
    virtual std::optional<Peak> heap_peak(int64_t run, int64_t from, int64_t to) = 0;
    virtual std::vector<GcRow> gc_events(int64_t run, int64_t from, int64_t to, GcOrder order) = 0;
    // Frames the runtime merged (flag 2, frame_index jumping): (seq, game frames beyond 1), by seq.
    virtual std::vector<std::pair<int64_t, int64_t>> merged_frames(int64_t run) = 0;
    virtual std::vector<DeathRow> deaths(int64_t run, int64_t seq) = 0;  // biggest gc_bytes first

    // ---- classes, sites, stacks ----
    virtual std::vector<std::pair<int64_t, ClassInfo>> classes(int64_t run) = 0;
    virtual std::optional<ClassInfo> find_class(int64_t run, int64_t class_id) = 0;
    virtual std::vector<std::pair<int64_t, ClassInfo>> classes_matching(int64_t run, const std::string &lower) = 0;
    virtual std::vector<std::pair<int64_t, int64_t>> stack_sites(int64_t run) = 0;  // stack -> site (kNoSite)
    virtual std::vector<SiteInfo> sites(int64_t run) = 0;                           // those the run's stacks name
    virtual std::optional<SiteInfo> find_stack_site(int64_t run, int64_t stack_id) = 0;
    // A stack's frames, pos then inline depth (innermost first); `inlined` left false.
    virtual std::vector<SymFrame> stack_frames(int64_t run, int64_t stack_id) = 0;
    // Every stack's, by stack_id, pos, depth.
    virtual void all_stack_frames(int64_t run, const std::function<void(int64_t, const SymFrame &)> &fn) = 0;
    // stack -> its leading machinery frames, for stacks with any (none without the column).
    virtual std::vector<std::pair<int64_t, int64_t>> machinery(int64_t run) = 0;
    // Rows of stack frames whose symbol's C#, demangled or raw name contains `lower`, distinct.
    virtual std::vector<FunctionMatch> functions_matching(int64_t run, const std::string &lower) = 0;

    // ---- allocations ----
    // allocs rows of [from, to] the filter keeps, by seq, class_id, stack_id, thread_id.
    virtual void allocs(int64_t run, int64_t from, int64_t to, const AllocFilter &f, RowFn<AllocRow> fn) = 0;
    // One frame's allocs summed per (class, stack) over threads, by class_id, stack_id.
    virtual void frame_class_stacks(int64_t run, int64_t seq, const AllocFilter &f, RowFn<AllocRow> fn) = 0;
    // run_class_stack summed per (class, stack), by class_id, stack_id.
    virtual void run_class_stacks(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) = 0;
    // run_class_stack rows as stored (per thread), by class_id, stack_id, thread_id.
    virtual void run_class_stack_rows(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) = 0;
    // run_class_stack per allocating thread: (thread_id, totals), by thread_id.
    virtual std::vector<std::pair<int64_t, Totals>> thread_totals(int64_t run) = 0;

    // ---- lifetimes ----
    virtual void survivors(int64_t run, RowFn<SurvivorRow> fn) = 0;  // by class_id, stack_id, thread_id
    virtual void death_sites(int64_t run, int64_t from, int64_t to, RowFn<DeathSiteRow> fn) = 0;  // by seq, class, stack, thread
    virtual std::optional<int64_t> last_death_seq(int64_t run, int64_t from, int64_t to) = 0;
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
