#include "ch_fleet.h"

#include "summaries.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace mt::fleet {

namespace {

using viewer::FleetRun;
using viewer::GroupSum;
using viewer::Selection;
using viewer::StackSum;
using viewer::Totals;

Totals totals(const std::vector<std::string> &r, size_t at) { return {std::stoll(r[at]), std::stoll(r[at + 1]), std::stoll(r[at + 2])}; }

std::set<std::string> column(const std::vector<std::vector<std::string>> &rows) {
    std::set<std::string> out;
    for (auto &r : rows) out.insert(r.at(0));
    return out;
}

std::string key_list(const std::set<std::string> &keys) {
    std::string s;
    for (const std::string &k : keys) s += (s.empty() ? "" : ", ") + k;
    return s.empty() ? "0" : s;
}

class ClickHouseFleet final : public viewer::FleetBackend {
public:
    explicit ClickHouseFleet(const ClickHouseUrl &url) : c_(url) {}

    std::vector<FleetRun> runs(const viewer::LabelFilter &f) override {
        std::string where = "1";
        if (!f.project.empty()) where += " AND project = " + sql_quote(f.project);
        if (!f.platform.empty()) where += " AND platform = " + sql_quote(f.platform);
        if (!f.device.empty()) where += " AND device = " + sql_quote(f.device);
        std::vector<FleetRun> out;
        for (auto &r : c_.rows("SELECT run_key, export_id, project, platform, build, device, toString(night), frame_count FROM runs WHERE " +
                               where))
            out.push_back({r[0] + "," + r[1], r[2], r[3], r[4], r[5], r[6], std::stoll(r[7])});
        last_where_ = where;
        last_runs_.clear();
        for (const FleetRun &r : out) last_runs_[r.build].insert(r.id);
        return out;
    }

    // From the per-run site and class summaries (schema.cpp), tens of rows a run.
    std::vector<Totals> run_sums(const std::vector<FleetRun> &runs, const Selection &sel) override {
        summarized();
        std::string table = "run_site_sums", cond;
        if (sel.what == Selection::What::Class) {
            table = "run_class_sums";
            cond = " AND class_key IN (" + key_list(column(c_.rows("SELECT DISTINCT class_key FROM class_dict WHERE full_name = " +
                                                                  sql_quote(sel.name)))) + ")";
        } else if (sel.what == Selection::What::Site) {
            std::set<std::string> keys;
            const std::string n = sql_quote(sel.name);
            for (auto &r : c_.rows("SELECT DISTINCT site_key, function, file FROM site_dict WHERE function = " + n +
                                   " OR concat(function, ' (', file, ')') = " + n))
                if (viewer::fleet_site_matches(sel.name, r[1], r[2])) keys.insert(r[0]);
            cond = " AND site_key IN (" + key_list(keys) + ")";
        }
        std::map<std::string, Totals> by;
        for (auto &r : c_.rows("SELECT run_key, export_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM " + table + " WHERE " +
                               in_runs(runs) + cond + " GROUP BY run_key, export_id"))
            by[r[0] + "," + r[1]] = totals(r, 2);
        std::vector<Totals> out;
        for (const FleetRun &r : runs) out.push_back(by[r.id]);
        return out;
    }

    std::vector<GroupSum> group_sums(const std::vector<FleetRun> &runs, viewer::Group g) override {
        if (g != viewer::Group::Class && g != viewer::Group::Site) throw std::invalid_argument("group_sums: class or site");
        summarized();
        const bool by_class = g == viewer::Group::Class;
        auto rows = c_.rows(by_class ? "SELECT class_key, class_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_sums WHERE " +
                                           in_runs(runs) + " GROUP BY class_key, class_id"
                                     : "SELECT site_key, 0, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_site_sums WHERE " +
                                           in_runs(runs) + " GROUP BY site_key");
        std::set<std::string> keys;
        for (auto &r : rows) keys.insert(r[0]);
        std::map<std::string, std::string> names;  // the group's name per content key
        if (by_class) {
            for (auto &r : c_.rows("SELECT DISTINCT class_key, full_name FROM class_dict WHERE class_key IN (" + key_list(keys) + ")"))
                names[r[0]] = r[1];
        } else {
            for (auto &r : c_.rows("SELECT DISTINCT site_key, function, file FROM site_dict WHERE site_key IN (" + key_list(keys) + ")"))
                names[r[0]] = viewer::fleet_site_key(r[1], r[2]);
        }
        std::vector<GroupSum> out;
        for (auto &r : rows) {
            auto it = names.find(r[0]);
            // A class id the run's classes never named shows as "<class N>", a stack without game
            // code as the no-site name: as the files' answer has them.
            std::string key = it != names.end() ? it->second
                              : by_class        ? "<class " + r[1] + ">"
                                                : viewer::fleet_site_key(viewer::site_or_none(std::nullopt).function, "");
            out.push_back({key, totals(r, 2)});
        }
        return out;
    }

    std::vector<StackSum> stack_sums(const std::vector<FleetRun> &runs) override {
        std::string in = in_runs(runs);
        struct Row {
            std::string key;
            int64_t machinery;
            Totals t;
        };
        std::vector<Row> rows;
        std::set<std::string> keys;
        // A stack's machinery (the frames the flame graph trims) is the same in every run: its content.
        std::map<std::string, int64_t> machinery;
        for (auto &r : c_.rows("SELECT stack_key, max(machinery) FROM stacks WHERE " + in + " GROUP BY stack_key")) machinery[r[0]] = std::stoll(r[1]);
        for (auto &r : c_.rows("SELECT stack_key, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack WHERE " + in +
                               " GROUP BY stack_key")) {
            r.insert(r.begin() + 1, std::to_string(machinery[r[0]]));
            rows.push_back({r[0], std::stoll(r[1]), totals(r, 2)});
            keys.insert(r[0]);
        }
        auto frames = stack_frames(keys);
        std::vector<StackSum> out;
        for (const Row &r : rows) {
            // Innermost first, as the files' stack_paths reads them: the leading machinery
            // dropped, then outermost first.
            const auto &f = frames[r.key];
            auto skip = static_cast<size_t>(std::max<int64_t>(0, r.machinery));
            std::vector<std::string> path;
            for (size_t i = f.size(); i-- > std::min(skip, f.size());) path.push_back(f[i]);
            out.push_back({path, r.t});
        }
        return out;
    }

private:
    ClickHouse c_;
    bool summarized_ = false;

    // Every visible run has its summaries (once per connection): a database an earlier exporter
    // wrote is refused, naming it and the upgrade, rather than answered without its old runs.
    // The readers never write (a viewer's user may be read-only; a cluster's shards are not
    // known here), so memtracer-export fills them.
    void summarized() {
        if (!summarized_) require_summaries(c_);
        summarized_ = true;
    }
    std::string last_where_ = "1";                                // runs()'s last filter
    std::map<std::string, std::set<std::string>> last_runs_;      // and its runs by build

    // The runs as a condition on a per-run table. It leads with the labels and builds on the
    // table's own columns (its sorting key: project, platform, build, device), so the server
    // reads only those builds' granules; then (run_key, export_id) names the runs themselves,
    // so only rows of a run whose row exists, of that row's export, are read (never a
    // half-exported run's or a failed attempt's). When the runs are every run the last runs()
    // call kept in some builds (what a build range is), the runs' own rows answer that on the
    // server: ClickHouse 18.16 is slow to build a set from thousands of literal tuples.
    // Otherwise a list of literal pairs.
    std::string in_runs(const std::vector<FleetRun> &runs) const {
        std::map<std::string, std::set<std::string>> by_build;
        for (const FleetRun &r : runs) by_build[r.build].insert(r.id);
        bool whole = !runs.empty();
        for (auto &[b, ids] : by_build) {
            auto it = last_runs_.find(b);
            whole = whole && it != last_runs_.end() && it->second == ids;
        }
        std::string builds;
        for (auto &[b, _] : by_build) builds += (builds.empty() ? "" : ", ") + sql_quote(b);
        const std::string in_builds = builds.empty() ? "" : " AND build IN (" + builds + ")";
        if (whole) {
            const std::string labels = last_where_ + (by_build.size() == last_runs_.size() ? "" : in_builds);
            return labels + " AND (run_key, export_id) GLOBAL IN (SELECT run_key, export_id FROM runs WHERE " + labels + ")";
        }
        std::string s;
        for (const FleetRun &r : runs) s += (s.empty() ? "(" : ", (") + r.id + ")";
        if (runs.size() == 1) s += ", (" + runs[0].id + ")";  // one pair would read as a tuple, not a list
        return "1" + in_builds + " AND (run_key, export_id) IN (" + (s.empty() ? "(0, 0), (0, 0)" : s) + ")";
    }

    // Each stack's frame names, innermost first, each address's inline chain innermost first
    // (SymFrame::name, as the files name them).
    std::map<std::string, std::vector<std::string>> stack_frames(const std::set<std::string> &stack_keys) {
        std::map<std::string, std::vector<std::pair<int64_t, std::string>>> addrs_of;
        std::set<std::string> addr_keys;
        for (auto &r : c_.rows("SELECT DISTINCT stack_key, pos, addr_key FROM stack_frame_dict WHERE stack_key IN (" + key_list(stack_keys) + ")")) {
            addrs_of[r[0]].push_back({std::stoll(r[1]), r[2]});
            addr_keys.insert(r[2]);
        }
        std::map<std::string, std::pair<std::string, uint64_t>> where;
        for (auto &r : c_.rows("SELECT DISTINCT addr_key, module_path, file_address FROM address_dict WHERE addr_key IN (" + key_list(addr_keys) + ")"))
            where[r[0]] = {r[1], static_cast<uint64_t>(std::stoll(r[2]))};
        std::map<std::string, std::map<int64_t, viewer::SymFrame>> chain;
        for (auto &r : c_.rows("SELECT DISTINCT addr_key, depth, function, demangled, csharp FROM symbol_dict WHERE addr_key IN (" +
                               key_list(addr_keys) + ")")) {
            viewer::SymFrame f;
            f.function = r[2], f.demangled = r[3], f.csharp = r[4];
            chain[r[0]][std::stoll(r[1])] = f;
        }
        std::map<std::string, std::vector<std::string>> out;
        for (auto &[stack, addrs] : addrs_of) {
            std::sort(addrs.begin(), addrs.end());
            auto &names = out[stack];
            for (auto &[_, a] : addrs) {
                auto c = chain.find(a);
                if (c == chain.end()) {
                    viewer::SymFrame f;
                    f.module = where[a].first, f.file_address = where[a].second, f.address = where[a].second;
                    names.push_back(f.name());  // outside every module: hex of the raw address
                    continue;
                }
                for (auto &[depth, f] : c->second) {
                    viewer::SymFrame g = f;
                    g.module = where[a].first, g.file_address = g.address = where[a].second;
                    names.push_back(g.name());
                }
            }
        }
        return out;
    }
};

}  // namespace

std::unique_ptr<viewer::FleetBackend> open_clickhouse_fleet(const ClickHouseUrl &url) { return std::make_unique<ClickHouseFleet>(url); }

std::unique_ptr<viewer::FleetBackend> open_fleet(const std::vector<std::string> &sources) {
    if (sources.size() == 1 && ClickHouseUrl::is_url(sources[0])) return open_clickhouse_fleet(ClickHouseUrl::parse(sources[0]));
    for (const auto &s : sources)
        if (ClickHouseUrl::is_url(s)) throw std::invalid_argument(s + ": one clickhouse:// URL, or run.db files, not both");
    return viewer::open_run_files(sources);
}

}  // namespace mt::fleet
