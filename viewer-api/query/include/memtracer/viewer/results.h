// results.h — the query layer's typed face: each endpoint is compute (a typed query in, a typed
// result out) and render (the result as the endpoint's JSON, query/src/render_*.cpp). The HTTP
// endpoints parse a Request into these queries; memtracer-report calls compute directly, with no
// URL, no JSON and no private header. A query's string fields are what a client would send (a
// frame number or "marker:LABEL", a thread list): compute validates them exactly as the endpoint
// does, so a bad value is the same ApiError(400) naming the same parameter.
#ifndef MEMTRACER_VIEWER_RESULTS_H
#define MEMTRACER_VIEWER_RESULTS_H

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memtracer/viewer/query.h"

namespace mt::viewer {

enum class Metric { Bytes, GcBytes, Count };
std::string_view metric_name(Metric m);  // "bytes", "gc_bytes", "count"

struct Totals {
    int64_t count = 0, requested_bytes = 0, gc_bytes = 0;
    void add(const Totals &o) {
        count += o.count;
        requested_bytes += o.requested_bytes;
        gc_bytes += o.gc_bytes;
    }
    int64_t get(Metric m) const {
        return m == Metric::Count ? count : m == Metric::GcBytes ? gc_bytes : requested_bytes;
    }
};

struct ClassInfo {
    std::string name, ns, full_name;
    int64_t flags = 0, element_size = 0;
};
// A class as an answer names it: its full name, or "<class N>" for an id the CLASSES chunk
// never defined (shown, not dropped).
std::string class_display_name(int64_t class_id, const std::optional<ClassInfo> &c);

struct SiteInfo {
    int64_t id = 0;
    std::string function, file;
    int64_t line = 0;
};
constexpr int64_t kNoSite = -1;  // a stack with no game-code frame
// A site as an answer names it: "(no game code)" with no file for none.
SiteInfo site_or_none(const std::optional<SiteInfo> &s);

// One frame of a resolved stack (query/src/stacks.cpp): the inline chain of each address
// expanded, with the C# name and C# file:line preferred for display.
struct SymFrame {
    int64_t pos = 0, depth = 0;
    bool inlined = false;     // an inlined call inside the next frame's function
    bool has_symbol = false;  // a backend named it
    uint64_t address = 0, file_address = 0;
    std::string module;       // path of the module holding the address ("" outside every module)
    std::string function, demangled, csharp, file, cs_file;
    int64_t line = 0, cs_line = 0;
    std::string name() const;      // C# name, else demangled, else raw, else module+offset
    std::string location() const;  // "Assets/X.cs:42", else "file.cpp:10", else ""
};

struct MarkerRow {  // one mt_mark
    int64_t seq = 0, frame_index = -1, ns = 0;
    std::string label;
};

struct Page {
    int64_t limit = 50, offset = 0;
};

// An inclusive frame (seq) range; `whole` when it covers the run, so run_class_stack serves it.
struct Range {
    int64_t from = 0, to = -1;
    bool whole = true;
    int64_t size() const { return to - from + 1; }
};

// What a client asks for, as it would send it; nullopt = not given.
struct RangeSpec {
    std::optional<std::string> from, to;  // a frame (seq) or "marker:LABEL"
};
struct FilterSpec {
    std::optional<std::string> cls, function, thread;  // substring, substring, "ids or names,"
    std::optional<std::string> kind;                   // "native" | "managed"
};

// The filter an answer applied (echoed as "filter" when active).
struct AppliedFilter {
    std::string cls;               // as given; matched lowercased, ASCII case-insensitive
    std::string function;          // as given
    std::string kind;              // "native", "managed" or "" (both)
    std::string thread;            // as given (echoed)
    std::vector<int64_t> threads;  // the thread ids it matched; empty: no thread filter
    bool active() const { return !cls.empty() || !function.empty() || !threads.empty() || !kind.empty(); }
    bool by_thread() const { return !threads.empty(); }
    // Whether rows of allocating thread `t` pass (always without a thread filter).
    bool keeps_thread(int64_t t) const;
};

enum class Group { Class, Site, Stack };
std::string_view group_name(Group g);  // "class", "site", "stack"

// A client's word for a metric or group, checked as the endpoints check their `by` and `group`
// parameters: ApiError(400) naming the parameter and the choices.
Metric metric_of(std::string_view by);  // bytes | gc_bytes | count
Group group_of(std::string_view group);  // class | site | stack

// ---- GET /api/runs ----
struct RunEntry {
    int64_t run_id = 0, start_unix_ns = 0;
    std::string source_file, process, device, os, arch, session_label, build_id, mode;
    int64_t frames = 0, duration_ns = 0;
    Totals totals;
    int64_t collections = 0, dropped = 0;
    std::string stop, stop_reason;
    bool has_lifetimes = false;
    int64_t sample_interval = 0, source_size = 0, ingested_unix_ns = 0, pid = 0;
    double tick_hz = 0;
};
struct RunsResult {
    std::vector<RunEntry> runs;
    int64_t total = 0;
    Page page;
};
RunsResult compute_runs(Database &db, const Page &page);
std::string render_runs(const RunsResult &r);

// ---- GET /api/runs/{run} ----
struct FrameStats {  // the summary's frame_stats
    int64_t rows = 0, first_frame_index = 0, last_frame_index = 0, max_heap_size = 0, gc_ns = 0, dropped = 0;
    std::optional<int64_t> max_live_bytes;
};
struct FigureFlags {  // whether any frame carries each GC-figure flag
    bool exact = false, estimated = false, profiler = false;
};
struct RunCounts {  // the summary's counts
    int64_t classes = 0, stacks = 0, sites = 0, gc_events = 0, survivors = 0, survivor_bytes = 0;
};
struct ThreadRow {
    int64_t thread_id = 0, os_tid = 0;
    std::string name;
};
struct ModuleRow {
    int64_t module_id = 0;
    std::string kind, path, build_id;
    std::optional<std::string> symbol_file;
};

struct SummaryResult {
    RunEntry run;
    std::string gc_sizes, collections;  // where the GC figures came from: "exact"|"estimated"|..., "boehm"|...
    std::vector<std::pair<std::string, std::string>> info;  // run_info by key
    FrameStats frame_stats;
    std::vector<ThreadRow> threads;
    std::vector<ModuleRow> modules;
    RunCounts counts;
};
SummaryResult compute_summary(Database &db, int64_t run);
std::string render_summary(const SummaryResult &r);

// ---- GET /api/runs/{run}/threads ----
struct ThreadEntry {
    ThreadRow thread;
    std::optional<Totals> t;  // nullopt when the run is not split per thread
};
struct ThreadsResult {
    int64_t run_id = 0;
    bool split = false;
    std::vector<ThreadEntry> threads;
};
ThreadsResult compute_threads(Database &db, int64_t run);
std::string render_threads(const ThreadsResult &r);

// ---- GET /api/runs/{run}/search ----
struct SearchQuery {
    int64_t run = 0;
    std::string q;       // 1..256 bytes, matched ASCII case-insensitively
    int64_t limit = 20;  // 1..200 of each kind
    Metric by = Metric::Bytes;
    FilterSpec filter;
};
struct SearchClass {
    int64_t class_id = 0;
    ClassInfo info;
    Totals t;
    std::string match;  // "exact", "prefix" or "substring"
};
struct SearchFunction {
    std::string name;
    bool csharp = false;  // named by its C# name (else native)
    std::string file;     // where it allocates most
    int64_t line = 0, stacks = 0;
    Totals t;
    std::string match;
};
struct SearchResult {
    int64_t run_id = 0;
    std::string q;
    Metric by = Metric::Bytes;
    AppliedFilter filter;
    std::vector<SearchClass> classes;  // ranked, the first `limit`
    int64_t total_classes = 0;
    std::vector<SearchFunction> functions;
    int64_t total_functions = 0;
};
SearchResult compute_search(Database &db, const SearchQuery &q);
std::string render_search(const SearchResult &r);

// 404 naming the run when `run` is not in the database.
void require_run(Database &db, int64_t run);

// ---- GET /api/runs/{run}/markers ----
struct MarkersResult {
    int64_t run = 0;
    std::vector<MarkerRow> markers;
};
MarkersResult compute_markers(Database &db, int64_t run);
std::string render_markers(const MarkersResult &r);

// ---- GET /api/runs/{run}/top ----
struct TopQuery {
    int64_t run = 0;
    Metric by = Metric::Bytes;
    Group group = Group::Class;
    RangeSpec range;
    FilterSpec filter;
    Page page{50, 0};  // limit 1..1000
};
struct TopClass {  // what a site or stack allocated, biggest first (five at most)
    int64_t class_id = 0;
    std::optional<ClassInfo> info;
    Totals t;
};
struct TopEntry {
    int64_t rank = 0, key = 0;          // key: class_id, site_id (kNoSite) or stack_id
    std::optional<ClassInfo> cls;       // group class
    std::optional<SiteInfo> site;       // group site or stack
    std::vector<SymFrame> frames;       // group stack
    Totals t;
    double share = 0;
    std::vector<TopClass> classes;      // group site or stack
    int64_t class_count = 0;
};
struct RangeInfo {
    int64_t from = 0, to = -1;
    bool whole = true;
    int64_t game_frames = 0;  // frames the runtime merged count as each game frame they cover
};
struct TopResult {
    int64_t run_id = 0;
    RangeInfo range;
    AppliedFilter filter;
    Metric by = Metric::Bytes;
    Group group = Group::Class;
    Totals totals;
    std::vector<TopEntry> entries;  // the page
    int64_t total = 0;              // groups over every page
    Page page;
};
TopResult compute_top(Database &db, const TopQuery &q);
std::string render_top(const TopResult &r);

// ---- GET /api/runs/{run}/leaks and .../temporaries ----
enum class LifetimeMetric { GcBytes, Count, Frames };
struct LifetimeQuery {
    int64_t run = 0;
    bool leaks = true;  // false: temporaries
    LifetimeMetric by = LifetimeMetric::Frames;  // leaks: frames | gc_bytes | count; temporaries: gc_bytes | count
    Group group = Group::Class;
    RangeSpec range;
    FilterSpec filter;
    Page page{50, 0};   // limit 1..1000
    int64_t within = 1;  // temporaries: died within this many frames (0..1000000)
};
struct MainClass {  // the class holding most bytes of a site or stack
    int64_t class_id = 0;
    std::optional<ClassInfo> info;
    int64_t gc_bytes = 0, class_count = 0;
};
struct LifetimeEntry {
    int64_t rank = 0, key = 0;
    std::optional<ClassInfo> cls;
    std::optional<SiteInfo> site;
    std::vector<SymFrame> stack_frames;  // group stack
    int64_t count = 0, gc_bytes = 0, allocated = 0;
    double share = 0;
    int64_t oldest_seq = 0, age_frames = 0, frames = 0;  // leaks only
    std::optional<MainClass> main_class;                 // group site or stack
};
struct LifetimeResult {
    int64_t run_id = 0;
    bool leaks = true;
    Range range;
    LifetimeMetric by = LifetimeMetric::Frames;
    Group group = Group::Class;
    bool available = false;  // the run can answer; else `note` says why
    std::string note;
    AppliedFilter filter;
    int64_t within = 1;
    int64_t count = 0, gc_bytes = 0, allocated = 0;  // totals (allocated: temporaries only)
    std::vector<LifetimeEntry> entries;
    int64_t total = 0;
    Page page;
};
// leaks: frames | gc_bytes | count; temporaries: gc_bytes | count.
LifetimeMetric lifetime_metric_of(std::string_view by, bool leaks);
LifetimeResult compute_lifetimes(Database &db, const LifetimeQuery &q);
std::string render_lifetimes(const LifetimeResult &r);

// ---- GET /api/runs/{run}/frames ----
struct FramesQuery {
    int64_t run = 0;
    bool all_fields = false;
    RangeSpec range;
    FilterSpec filter;
    int64_t limit = 200000;  // 1..200000 frames per page
};
struct GcRow {
    int64_t seq = 0, start_ns = 0, duration_ns = 0, heap_size = 0, free_bytes = 0, reclaimed_bytes = 0, gc_no = 0;
};
struct Peak {
    int64_t seq = 0, value = 0;
};
// Column order of FramesResult::columns; the first 7 are the basic set.
constexpr int kFrameBasicCols = 7, kFrameAllCols = 13;
extern const char *const kFrameColumnNames[kFrameAllCols];
struct FramesResult {
    int64_t run_id = 0, from = 0, to = -1, frames = 0;
    std::optional<int64_t> next_from;
    AppliedFilter filter;
    int ncols = kFrameBasicCols;
    std::array<std::vector<int64_t>, kFrameAllCols> columns;  // [0, ncols) filled
    std::optional<std::vector<std::optional<int64_t>>> live_bytes;  // nullopt: no lifetimes
    std::optional<Peak> live_peak, heap_peak;
    std::vector<GcRow> gc;
};
FramesResult compute_frames(Database &db, const FramesQuery &q);
std::string render_frames(const FramesResult &r);

// ---- GET /api/runs/{run}/frames/{seq} ----
struct FrameRow {  // one row of `frames`
    int64_t seq = 0, frame_index = 0, start_ns = 0, end_ns = 0;
    int64_t alloc_count = 0, requested_bytes = 0, gc_bytes = 0, gc_count = 0, heap_size = 0;
    int64_t gc_ns = 0, free_bytes = 0, dropped = 0, flags = 0;
    std::optional<int64_t> live_bytes;
};

struct FrameDetailQuery {
    int64_t run = 0, seq = 0;
    Metric by = Metric::Bytes;
    FilterSpec filter;
    Page page{200, 0};  // limit 1..2000
};
struct FrameStack {
    int64_t stack_id = 0;
    Totals t;
    std::optional<SiteInfo> site;
    std::vector<SymFrame> frames;
};
struct FrameClass {  // biggest first, its stacks too
    int64_t class_id = 0;
    std::optional<ClassInfo> info;
    Totals t;
    std::vector<FrameStack> stacks;
};
struct FrameDeath {
    int64_t class_id = 0;
    std::optional<ClassInfo> info;
    int64_t count = 0, gc_bytes = 0;
};
struct FrameDetailResult {
    int64_t run_id = 0, seq = 0;
    FrameRow frame;
    AppliedFilter filter;
    Metric by = Metric::Bytes;
    std::vector<FrameClass> classes;  // the page
    int64_t total = 0;                // classes over every page
    Page page;
    std::vector<GcRow> gc;
    std::vector<FrameDeath> deaths;  // biggest first
};
FrameDetailResult compute_frame_detail(Database &db, const FrameDetailQuery &q);
std::string render_frame_detail(const FrameDetailResult &r);

// ---- GET /api/compare ----
enum class CompareMatch { Auto, Function, Location };  // sites: auto = by location within one build
enum class CompareOnly { All, New, Vanished, Changed, Grown, Shrunk };
struct CompareQuery {
    int64_t a = 0, b = 0;          // the two runs (may be the same run)
    RangeSpec a_range, b_range;    // sent as a_from/a_to and b_from/b_to
    FilterSpec filter;             // applied to both sides
    Group group = Group::Class;    // class | site
    Metric by = Metric::Bytes;
    CompareMatch match = CompareMatch::Auto;
    bool per_frame = false;        // normalize=per_frame
    CompareOnly only = CompareOnly::All;
    Page page{50, 0};              // limit 1..1000
};
struct CompareSide {
    int64_t run_id = 0, from = 0, to = -1, frames = 0, game_frames = 0;
    std::string build_id;
    Totals totals;
};
struct CompareEntry {
    std::string_view status;  // "new", "vanished", "changed" or "same"
    ClassInfo cls;            // group class
    SiteInfo site;            // group site: where the newer side (b) allocates
    Totals a, b;
    double growth = 0;        // in `by`, per game frame when per_frame
};
struct CompareResult {
    Group group = Group::Class;
    Metric by = Metric::Bytes;
    bool full_key = false;  // sites matched by function/file/line (else by function alone)
    bool per_frame = false;
    AppliedFilter filter;
    CompareSide a, b;
    int64_t n_new = 0, n_vanished = 0, n_changed = 0, n_same = 0;
    std::vector<CompareEntry> entries;  // the page, biggest growth first
    int64_t total = 0;                  // entries over every page (after `only`)
    Page page;
};
CompareResult compute_compare(Database &db, const CompareQuery &q);
std::string render_compare(const CompareResult &r);

// ---- GET /api/runs/{run}/flame, .../collapsed, .../speedscope ----
struct StacksQuery {  // what the three call-tree views share
    int64_t run = 0;
    Metric by = Metric::Bytes;
    RangeSpec range;
    FilterSpec filter;
    bool csharp_only = false;  // frames=csharp
    bool classes = true;       // the class as the innermost frame
};
struct FlameQuery : StacksQuery {
    bool invert = false;
    double min_share = 0.001;  // 0..1: nodes under this share of the total are left out
    int64_t max_nodes = 20000;  // 1..200000 nodes written
};
struct FlameNode {
    std::string name;
    int64_t value = 0;
    bool is_class = false;
    std::string location;  // of the heaviest stack through the node; "" for none
    // Heaviest first; nullopt when no child reaches min_value, empty when the node budget ran out.
    std::optional<std::vector<FlameNode>> children;
};
struct FlameResult {
    int64_t run_id = 0;
    Range range;
    AppliedFilter filter;
    bool inverted = false, csharp_only = false;
    Metric by = Metric::Bytes;
    int64_t min_value = 1, nodes = 0;  // nodes: in the whole tree, before min_value and max_nodes
    FlameNode root;
    bool truncated = false;
};
FlameResult compute_flame(Database &db, const FlameQuery &q);
std::string render_flame(const FlameResult &r);

struct CollapsedResult {  // flamegraph.pl's folded stacks, sorted
    int64_t run_id = 0;
    std::vector<std::pair<std::string, int64_t>> lines;  // "a;b;Class", value
};
CollapsedResult compute_collapsed(Database &db, const StacksQuery &q);
std::string render_collapsed(const CollapsedResult &r);

struct SpeedscopeFrame {
    std::string name, location;  // location "file:line" or ""
};
struct SpeedscopeResult {  // one sampled profile: a sample per (class, stack) row
    int64_t run_id = 0;
    Metric by = Metric::Bytes;
    std::vector<SpeedscopeFrame> frames;
    std::vector<std::vector<int64_t>> samples;  // frame indexes, root first
    std::vector<int64_t> weights;
    int64_t total = 0;
};
SpeedscopeResult compute_speedscope(Database &db, const StacksQuery &q);
std::string render_speedscope(const SpeedscopeResult &r);

// ---- GET /api/runs/{run}/trace ----
struct TraceQuery {
    int64_t run = 0;
    RangeSpec range;
    FilterSpec filter;
};
struct TraceFrame {
    FrameRow row;
    Totals alloc;  // what the filter keeps (the row's own figures without a filter)
};
struct TraceResult {
    int64_t run_id = 0, from = 0, to = -1;
    std::string build_id, label;  // label: "process (run N, device)"
    AppliedFilter filter;
    std::vector<TraceFrame> frames;
    std::vector<GcRow> gc;  // by start time
};
TraceResult compute_trace(Database &db, const TraceQuery &q);
std::string render_trace(const TraceResult &r);  // Chrome trace event JSON

// Runs `fn` as handle() runs an endpoint: inside one read snapshot of the database, so every
// query it makes sees the same state. Exceptions pass through (ApiError included).
void in_snapshot(Database &db, const std::function<void()> &fn);

}  // namespace mt::viewer

#endif
