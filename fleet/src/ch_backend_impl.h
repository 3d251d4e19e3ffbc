// ch_backend_impl.h — ClickHouseBackend's parts (ch_backend.h): per-call SQL over the per-frame
// tables (ch_backend.cpp) and a run's dictionaries held in memory (ch_backend_dicts.cpp).
#ifndef MEMTRACER_FLEET_CH_BACKEND_IMPL_H
#define MEMTRACER_FLEET_CH_BACKEND_IMPL_H

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ch_backend.h"
#include "clickhouse.h"

namespace mt::fleet {

using namespace mt::viewer;
using Rows = std::vector<std::vector<std::string>>;

int64_t to_i64(const std::string &s);

// What a run's dictionaries say, read once (ch_backend_dicts.cpp).
struct RunDicts {
    std::map<int64_t, ClassInfo> classes;  // by class_id
    struct Stack {
        int64_t site_id = kNoSite, machinery = 0;
        uint64_t site_key = 0;
        std::vector<SymFrame> frames;  // pos, then inline depth
    };
    std::map<int64_t, Stack> stacks;                  // by stack_id
    std::unordered_map<uint64_t, SiteInfo> sites;     // by site_key (id: the run's site_id)
};

class ClickHouseBackend : public RunBackend {
public:
    explicit ClickHouseBackend(ClickHouseUrl url);
    const std::string &name() const override { return name_; }
    const BackendFeatures &features() override { return features_; }
    // Exported runs never change once their runs row exists: every read sees the same run.
    void begin_snapshot() override {}
    void end_snapshot() override {}
    MT_RUN_BACKEND_READS(MT_RUN_BACKEND_OVERRIDE)

private:
    // "run_key = K AND export_id = E" of a run that is there (its runs row); nullopt otherwise.
    std::optional<std::string> where(int64_t run);
    std::string where_or_none(int64_t run);  // a condition no row meets for a run not there
    Rows rows(const std::string &sql) { return ch_.rows(sql); }
    const RunDicts &dicts(int64_t run);  // ch_backend_dicts.cpp
    // The (class, stack) part of a filter, answered from the dictionaries: whether it keeps them.
    struct Keep {
        bool all = true;
        std::unordered_set<int64_t> classes, stacks;
        bool cls_filter = false, stack_filter = false;
        bool operator()(int64_t c, int64_t s) const {
            return all || ((!cls_filter || classes.count(c)) && (!stack_filter || stacks.count(s)));
        }
    };
    Keep keep(int64_t run, const AllocFilter &f);
    static std::string thread_sql(const AllocFilter &f);
    void grouped(const std::string &table, int64_t run, const std::string &extra, const AllocFilter &f,
                 RowFn<AllocRow> fn);

    ClickHouse ch_;
    std::string name_;
    BackendFeatures features_;
    std::map<int64_t, std::string> where_;                  // run -> its keys condition
    std::map<int64_t, std::unique_ptr<RunDicts>> dicts_;    // a few runs per connection
};

}  // namespace mt::fleet

#endif
