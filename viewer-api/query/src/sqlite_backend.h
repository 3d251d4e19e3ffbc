// sqlite_backend.h — the per-run backend over a run.db (backend.h): store/'s connection with its
// prepared statements, and the SQL the endpoints used to hold, moved here unchanged. Split in
// two files: runs, frames and stacks (sqlite_backend.cpp), allocations and lifetimes
// (sqlite_backend_allocs.cpp).
#ifndef MEMTRACER_VIEWER_SQLITE_BACKEND_H
#define MEMTRACER_VIEWER_SQLITE_BACKEND_H

#include <string>
#include <string_view>

#include "memtracer/store/db.h"
#include "memtracer/viewer/backend.h"

namespace mt::viewer {

using store::Stmt;

class SqliteBackend : public RunBackend {
public:
    explicit SqliteBackend(const std::string &path);
    const std::string &name() const override { return path_; }
    const BackendFeatures &features() override { return features_; }
    void begin_snapshot() override;
    void end_snapshot() override;

    int64_t run_count() override;
    std::vector<RunEntry> runs(const Page &page) override;
    std::optional<RunEntry> run(int64_t run) override;
    std::optional<RunState> run_state(int64_t run) override;
    std::vector<std::pair<std::string, std::string>> run_info(int64_t run) override;
    std::vector<ThreadRow> threads(int64_t run) override;
    std::vector<ModuleRow> modules(int64_t run) override;
    RunCounts counts(int64_t run) override;
    FrameStats frame_stats(int64_t run) override;
    FigureFlags figure_flags(int64_t run) override;
    std::vector<MarkerRow> markers(int64_t run) override;

    void frames(int64_t run, int64_t from, int64_t to, RowFn<FrameRow> fn) override;
    std::optional<FrameRow> frame(int64_t run, int64_t seq) override;
    std::optional<Peak> live_peak(int64_t run, int64_t from, int64_t to) override;
    std::optional<Peak> heap_peak(int64_t run, int64_t from, int64_t to) override;
    std::vector<GcRow> gc_events(int64_t run, int64_t from, int64_t to, GcOrder order) override;
    std::vector<std::pair<int64_t, int64_t>> merged_frames(int64_t run) override;
    std::vector<DeathRow> deaths(int64_t run, int64_t seq) override;

    std::vector<std::pair<int64_t, ClassInfo>> classes(int64_t run) override;
    std::optional<ClassInfo> find_class(int64_t run, int64_t class_id) override;
    std::vector<std::pair<int64_t, ClassInfo>> classes_matching(int64_t run, const std::string &lower) override;
    std::vector<std::pair<int64_t, int64_t>> stack_sites(int64_t run) override;
    std::vector<SiteInfo> sites(int64_t run) override;
    std::optional<SiteInfo> find_stack_site(int64_t run, int64_t stack_id) override;
    std::vector<SymFrame> stack_frames(int64_t run, int64_t stack_id) override;
    void all_stack_frames(int64_t run, const std::function<void(int64_t, const SymFrame &)> &fn) override;
    std::vector<std::pair<int64_t, int64_t>> machinery(int64_t run) override;
    std::vector<FunctionMatch> functions_matching(int64_t run, const std::string &lower) override;

    void allocs(int64_t run, int64_t from, int64_t to, const AllocFilter &f, RowFn<AllocRow> fn) override;
    void frame_class_stacks(int64_t run, int64_t seq, const AllocFilter &f, RowFn<AllocRow> fn) override;
    void run_class_stacks(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) override;
    void run_class_stack_rows(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) override;
    std::vector<std::pair<int64_t, Totals>> thread_totals(int64_t run) override;

    void survivors(int64_t run, RowFn<SurvivorRow> fn) override;
    void death_sites(int64_t run, int64_t from, int64_t to, RowFn<DeathSiteRow> fn) override;
    std::optional<int64_t> last_death_seq(int64_t run, int64_t from, int64_t to) override;

private:
    // A statement from the connection's cache. The SQL must be one of a few texts per call site:
    // the cache is keyed by it.
    Stmt query(std::string_view sql) { return db_.cached(sql); }
    std::optional<Peak> peak(std::string_view sql, int64_t run, int64_t from, int64_t to);

    std::string path_;
    store::Db db_;
    BackendFeatures features_;
    std::unique_ptr<store::ReadTransaction> snapshot_;
};

// " AND class_id IN (...) ..." over a table with class_id, stack_id, thread_id, placeholders
// ?first, ?first+1, ...; "" when inactive (sqlite_backend_allocs.cpp).
std::string filter_sql(const AllocFilter &f, int first);
// Binds what filter_sql(first) placed; returns the next free placeholder index.
int filter_bind(const AllocFilter &f, int64_t run, Stmt &s, int first);

}  // namespace mt::viewer

#endif
