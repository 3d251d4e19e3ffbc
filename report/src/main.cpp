// memtracer-report — MemTracer's answers in a terminal or a CI job, over a run.db (docs/report.md).
// Exit status: 0 done (gate passed), 1 gate failed, 2 bad command line or input, 3 the run has
// no lifetimes (leaks, temporaries).
#include <memtracer/cli.h>

#include <iostream>

#include "commands.h"
#include "compare.h"
#include "fleet_tables.h"
#include "gate_history.h"

using namespace mt::report;

namespace {

struct Args {
    std::string db, db_b, format = "table", max_growth;
    int64_t run = 0;
    Query q;  // the options that shape the answer: --from/--to, --by (q.group), --sort (q.by), ...
    double min_share = 1.0;
};

void range_options(CLI::App *c, Args &a) {
    // A frame number or marker:LABEL (docs/report.md); the label is resolved per run by the query layer.
    auto bound = CLI::Validator(
        [](std::string &v) {
            try {
                v = range_bound(v);
                return std::string();
            } catch (const std::invalid_argument &e) {
                return std::string(e.what());
            }
        },
        "FRAME|marker:LABEL");
    c->add_option("--from", a.q.from, "first frame (seq) of the range, or marker:LABEL")->check(bound);
    c->add_option("--to", a.q.to, "last frame (seq) of the range, or marker:LABEL")->check(bound);
    c->add_option("--limit", a.q.limit, "rows to print (default 20)")->check(CLI::Range(int64_t{1}, int64_t{1000}));
    c->add_option("--format", a.format, "table (default), csv or json")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    c->add_option("--thread", a.q.thread,
                  "only what these allocating threads allocated: ids or names (exact, case-insensitive; a name "
                  "takes every thread of that name), comma-separated");
    c->add_option("--kind", a.q.kind, "only native heaps' allocations (ITT heap functions, docs/itt.md) or only managed (C#) ones")
        ->check(CLI::IsMember({"native", "managed"}));
}

CLI::App *one_run(CLI::App &app, const char *name, const char *what, Args &a, bool grouped) {
    auto *c = app.add_subcommand(name, what);
    c->add_option("db", a.db, "run.db (or run.db@N for run N)")->required();
    c->add_option("--run", a.run, "run id when the database holds several")->check(CLI::PositiveNumber);
    range_options(c, a);
    if (grouped) {
        c->add_option("--by", a.q.group, "class (default), site or stack")->check(CLI::IsMember({"class", "site", "stack"}));
        c->add_option("--sort", a.q.by,
                      "top: bytes, gc_bytes or count; leaks: frames (default), gc_bytes or count; temporaries: "
                      "gc_bytes or count")
            ->check(CLI::IsMember({"bytes", "gc_bytes", "count", "frames"}));
    }
    return c;
}

// The cross-run commands' options and their typed queries.
struct Fleet {
    std::vector<std::string> sources;
    mt::viewer::LabelFilter labels;
    std::string builds, cls, site, per = "build", group = "class", by = "bytes", output = "json", base, now;
    int64_t limit = 20;
    mt::viewer::TrendQuery trend_query() const {
        using W = mt::viewer::Selection::What;
        mt::viewer::TrendQuery q;
        q.sel = {!cls.empty() ? W::Class : !site.empty() ? W::Site : W::Total, !cls.empty() ? cls : site};
        q.per = per == "night" ? mt::viewer::TrendQuery::Per::Night : mt::viewer::TrendQuery::Per::Build;
        q.labels = labels;
        q.builds = range(builds);
        return q;
    }
    mt::viewer::FleetTopQuery top_query() const {
        return {group_of(), labels, range(builds), mt::viewer::metric_of(by), limit};
    }
    mt::viewer::GrowthQuery growth_query() const {
        return {group_of(), labels, range(base), range(now), mt::viewer::metric_of(by), limit};
    }
    mt::viewer::DiffFlameQuery diff_query() const { return {labels, range(base), range(now), mt::viewer::Metric::Bytes}; }
    mt::viewer::Group group_of() const { return group == "site" ? mt::viewer::Group::Site : mt::viewer::Group::Class; }
    static mt::viewer::BuildRange range(const std::string &s) {
        try {
            return mt::viewer::BuildRange::parse(s);
        } catch (const mt::viewer::ApiError &e) {
            throw ReportError(e.message);
        }
    }
};

CLI::App *fleet_command(CLI::App &app, const char *name, const char *what, Fleet &fl, Args &a, bool table = true) {
    auto *c = app.add_subcommand(name, what);
    c->add_option("sources", fl.sources, "one clickhouse://host:port/db URL, or run.db files")->required();
    c->add_option("--project", fl.labels.project, "only runs of this project");
    c->add_option("--platform", fl.labels.platform, "only runs of this platform");
    c->add_option("--device", fl.labels.device, "only runs of this device");
    if (table) {
        c->add_option("--builds", fl.builds, "only these builds: one, or FROM..TO in build order");
        c->add_option("--format", a.format, "table (default), csv or json")->check(CLI::IsMember({"table", "csv", "json"}));
    }
    return c;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"memtracer-report: allocations, leaks, temporaries and regressions of MemTracer runs"};
    app.require_subcommand(1);
    // The --version every MemTracer tool answers (common/'s mt::cli); subcommands keep CLI11's own parse.
    mt::cli::set_version(app, "memtracer-report");
    Args a;
    auto *top_cmd = one_run(app, "top", "what allocated most, by class, site or stack", a, true);
    auto *frames_cmd = one_run(app, "frames", "the per-frame series, with the live and GC heap peaks", a, false);
    auto *leaks_cmd = one_run(app, "leaks", "objects still alive at the end of the range (leak candidates)", a, true);
    auto *temp_cmd = one_run(app, "temporaries", "objects that died within --within frames", a, true);
    temp_cmd->add_option("--within", a.q.within, "frames (default 1; 0 = the frame they were made in)")
        ->check(CLI::Range(int64_t{0}, int64_t{1000000}));
    auto two_runs = [&](const char *name, const char *what) {
        auto *c = app.add_subcommand(name, what);
        c->add_option("a", a.db, "base: run.db or run.db@N")->required();
        c->add_option("b", a.db_b, "new: run.db or run.db@N (the same file for two runs of one database)")->required();
        c->add_option("--by", a.q.group, "class (default) or site")->check(CLI::IsMember({"class", "site"}));
        range_options(c, a);
        return c;
    };
    auto *compare_cmd = two_runs("compare", "two runs per class or site, per frame");
    auto *gate_cmd = two_runs("gate", "fail (exit 1) when NEW grew past a limit over BASE");
    // Cross-run commands: one clickhouse:// URL or run.db files, the same answers (fleet_tables.h).
    Fleet fl;
    auto *trend_cmd = fleet_command(app, "trend", "a class, a site or the total per build or night, over many runs", fl, a);
    auto *cls_opt = trend_cmd->add_option("--class", fl.cls, "a class by full name (default: the total)");
    trend_cmd->add_option("--site", fl.site, "a site: 'Function' or 'Function (File)'")->excludes(cls_opt);
    trend_cmd->add_option("--per", fl.per, "build (default) or night")->check(CLI::IsMember({"build", "night"}));
    auto *ftop_cmd = fleet_command(app, "fleet-top", "top classes or sites over a set of runs", fl, a);
    auto *growth_cmd = fleet_command(app, "growth", "what grew per frame between two build ranges", fl, a);
    for (auto *c : {ftop_cmd, growth_cmd}) {
        c->add_option("--group", fl.group, "class (default) or site")->check(CLI::IsMember({"class", "site"}));
        c->add_option("--sort", fl.by, "bytes (default), gc_bytes or count")->check(CLI::IsMember({"bytes", "gc_bytes", "count"}));
        c->add_option("--limit", fl.limit, "rows (default 20)")->check(CLI::Range(int64_t{1}, int64_t{1000}));
    }
    auto *diff_cmd = fleet_command(app, "diff-flame", "differential flame graph between two builds or build ranges", fl, a, false);
    diff_cmd->add_option("--output", fl.output, "json (default: the tree), collapsed (difffolded) or speedscope")
        ->check(CLI::IsMember({"json", "collapsed", "speedscope"}));
    for (auto *c : {growth_cmd, diff_cmd}) {
        c->add_option("--base", fl.base, "A: a build or FROM..TO (build order)")->required();
        c->add_option("--new", fl.now, "B: a build or FROM..TO")->required();
    }
    gate_cmd->add_option("--history", fl.sources, "with BASE last:N: one clickhouse:// URL or run.db files");
    gate_cmd->add_option("--max-growth", a.max_growth, "limits, e.g. 'bytes_per_frame=5%,allocs_per_frame=10%'")
        ->required();
    gate_cmd->add_option("--min-share", a.min_share,
                         "a class or site is over only if it grew by this percentage of BASE's total (default 1)")
        ->check(CLI::Range(0.0, 100.0));
    if (auto rc = mt::cli::parse_app(app, argc, argv, 2)) return *rc;
    try {
        Format f = parse_format(a.format == "table" ? "table" : a.format);
        const Query &q = a.q;
        if (gate_cmd->parsed()) {
            GateLimits limits = parse_limits(a.max_growth);
            Source now(a.db_b);
            GateResult r;
            if (int64_t n = last_n(a.db)) {
                if (fl.sources.empty()) throw ReportError("gate " + a.db + ": --history names the runs to take them from");
                auto b = open_sources(fl.sources);
                r = gate_sides(history_side(*b, now, q, n), load_side(now, q), q, limits, a.min_share);
            } else {
                Source base(a.db);
                r = gate(base, now, q, limits, a.min_share);
            }
            render(r.table, f, std::cout, std::cerr);
            return r.failed ? 1 : 0;
        }
        if (trend_cmd->parsed() || ftop_cmd->parsed() || growth_cmd->parsed() || diff_cmd->parsed()) {
            auto b = open_sources(fl.sources);
            if (diff_cmd->parsed()) {
                std::cout << diff_flame_text(*b, fl.diff_query(), fl.output);
                return 0;
            }
            Table t = trend_cmd->parsed() ? trend_table(*b, fl.trend_query())
                      : ftop_cmd->parsed() ? fleet_top_table(*b, fl.top_query())
                                           : growth_table(*b, fl.growth_query());
            render(t, f, std::cout, std::cerr);
            return 0;
        }
        if (compare_cmd->parsed()) {
            Source x(a.db), y(a.db_b);
            render(compare(x, y, q), f, std::cout, std::cerr);
            return 0;
        }
        Source s(a.db, a.run);
        Table t = top_cmd->parsed()      ? top(s, q)
                  : frames_cmd->parsed() ? frames(s, q)
                  : leaks_cmd->parsed()  ? leaks(s, q)
                                         : temporaries(s, q);
        render(t, f, std::cout, std::cerr);
        return 0;
    } catch (const NoLifetimes &e) {
        return mt::cli::fail("memtracer-report", e, 3);
    } catch (const std::exception &e) {
        return mt::cli::fail("memtracer-report", e, 2);
    }
}
