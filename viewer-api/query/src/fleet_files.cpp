// fleet_files.cpp — the cross-run seam over run.db files (SQLite): every run through this layer's
// own compute (runs, top) and stack paths, so a developer's few files answer as ClickHouse does.
#include <cstdio>
#include <ctime>
#include <functional>
#include <map>
#include <stdexcept>

#include "memtracer/viewer/backend.h"
#include "memtracer/viewer/fleet_backend.h"
#include "memtracer/viewer/query.h"
#include "memtracer/viewer/results.h"
#include "stacks.h"

namespace mt::viewer {

namespace {


class RunFiles final : public FleetBackend {
public:
    // The viewer's own database, borrowed: the request's snapshot is already open.
    explicit RunFiles(Database &db) : borrowed_(true) { dbs_.push_back({db.path(), nullptr, &db}); }
    explicit RunFiles(std::vector<std::string> paths) {
        for (std::string &p : paths) {
            try {
                auto db = std::make_unique<Database>(p);
                Database *raw = db.get();
                dbs_.push_back({p, std::move(db), raw});
            } catch (const ApiError &) {
                throw;
            } catch (const std::exception &e) {
                throw ApiError{400, p + ": " + e.what(), ""};
            }
        }
    }

    std::vector<FleetRun> runs(const LabelFilter &f) override {
        std::vector<FleetRun> out;
        for (size_t i = 0; i < dbs_.size(); ++i) {
            RunsResult rr;
            snapshot(*dbs_[i].db, [&] { rr = compute_runs(*dbs_[i].db, {1000, 0}); });
            for (const RunEntry &e : rr.runs) {
                FleetRun r{dbs_[i].path + "@" + std::to_string(e.run_id), e.process, e.os, e.build_id, e.device,
                           fleet_night(e.start_unix_ns), e.frames};
                if (f.keeps(r)) {
                    where_[r.id] = {i, e.run_id};
                    out.push_back(std::move(r));
                }
            }
        }
        return out;
    }

    std::vector<Totals> run_sums(const std::vector<FleetRun> &runs, const Selection &sel) override {
        std::vector<Totals> out;
        for (const FleetRun &r : runs) {
            Totals t;
            if (sel.what == Selection::What::Total) {
                each_top(r, Group::Class, [&](const TopResult &top) { t = top.totals; });
            } else {
                for (const GroupSum &g : one_run(r, sel.what == Selection::What::Class ? Group::Class : Group::Site, &sel))
                    t.add(g.t);
            }
            out.push_back(t);
        }
        return out;
    }

    std::vector<GroupSum> group_sums(const std::vector<FleetRun> &runs, Group g) override {
        if (g == Group::Stack) throw std::invalid_argument("group_sums: class or site");
        std::map<std::string, Totals> by;
        for (const FleetRun &r : runs)
            for (const GroupSum &s : one_run(r, g, nullptr)) by[s.key].add(s.t);
        std::vector<GroupSum> out;
        for (auto &[k, t] : by) out.push_back({k, t});
        return out;
    }

    std::vector<StackSum> stack_sums(const std::vector<FleetRun> &runs) override {
        std::vector<StackSum> out;
        for (const FleetRun &r : runs) {
            auto [i, run] = where(r);
            Database &db = *dbs_[i].db;
            snapshot(db, [&] {
                auto paths = stack_paths(db, run);
                std::map<int64_t, Totals> per_stack;  // by stack_id, as the run's stacks are numbered
                db.backend().run_class_stacks(run, AllocFilter{}, [&](const AllocRow &a) { per_stack[a.stack_id].add(a.t); });
                for (const auto &[stack, t] : per_stack) out.push_back({paths[stack], t});
            });
        }
        return out;
    }

private:
    struct File {
        std::string path;
        std::unique_ptr<Database> owned;
        Database *db;
    };
    std::vector<File> dbs_;
    bool borrowed_ = false;

    // One read snapshot per call on files of our own; a borrowed database is inside its request's.
    void snapshot(Database &db, const std::function<void()> &fn) {
        if (borrowed_)
            fn();
        else
            in_snapshot(db, fn);
    }
    std::map<std::string, std::pair<size_t, int64_t>> where_;  // run id -> file, run

    std::pair<size_t, int64_t> where(const FleetRun &r) {
        auto it = where_.find(r.id);
        if (it == where_.end()) throw std::logic_error("run " + r.id + " did not come from runs()");
        return it->second;
    }

    // Every page of the run's whole-run top by `g`.
    template <class F>
    void each_top(const FleetRun &r, Group g, F &&fn) {
        auto [i, run] = where(r);
        TopQuery tq;
        tq.run = run;
        tq.group = g;
        for (int64_t offset = 0;; offset += 1000) {
            tq.page = {1000, offset};
            TopResult top;
            snapshot(*dbs_[i].db, [&] { top = compute_top(*dbs_[i].db, tq); });
            fn(top);
            if (offset + 1000 >= top.total) break;
        }
    }

    // One run's sums per class or site, only those `sel` names when given.
    std::vector<GroupSum> one_run(const FleetRun &r, Group g, const Selection *sel) {
        std::vector<GroupSum> out;
        each_top(r, g, [&](const TopResult &top) {
            for (const TopEntry &e : top.entries) {
                std::string key;
                if (g == Group::Class) {
                    key = class_display_name(e.key, e.cls);
                    if (sel && !(e.cls && e.cls->full_name == sel->name)) continue;
                } else {
                    SiteInfo s = site_or_none(e.site);
                    key = fleet_site_key(s.function, s.file);
                    if (sel && !(e.site && fleet_site_matches(sel->name, s.function, s.file))) continue;
                }
                out.push_back({key, e.t});
            }
        });
        return out;
    }
};

}  // namespace

std::string fleet_night(int64_t start_unix_ns) {
    std::time_t t = static_cast<std::time_t>(start_unix_ns / 1000000000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char b[16];
    std::strftime(b, sizeof b, "%Y-%m-%d", &tm);
    return b;
}

std::unique_ptr<FleetBackend> open_run_files(const std::vector<std::string> &paths) {
    return std::make_unique<RunFiles>(paths);
}

std::unique_ptr<FleetBackend> borrow_run_database(Database &db) {
    if (auto *own = dynamic_cast<FleetSource *>(&db.backend())) return own->open_fleet();
    return std::make_unique<RunFiles>(db);
}

}  // namespace mt::viewer
