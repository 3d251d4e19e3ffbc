// The cross-run answers (memtracer/viewer/fleet.h) from a real two-shard ClickHouse cluster
// (Distributed tables) and from the run.db files themselves: the same trend, fleet top, growth
// and differential flame graph, byte for byte; a planted growing site found growing build after
// build; memtracer-report's gate against the median of the last N runs passing and failing.
#include <catch2/catch.hpp>

#include <memtracer/store/db.h>
#include <memtracer/viewer/fleet.h>
#include <memtracer/viewer/query.h>

#include <filesystem>

#include "ch_backend.h"
#include "ch_fleet.h"
#include "clickhouse_server.h"
#include "process.h"

using namespace mt;
using viewer::Selection;

namespace {

// Night `i` of the fixture's two runs as build-i, a day later, with Cache.Put allocating
// `factor` times what it did.
std::string nightly_copy(const std::string &dir, int i, int factor) {
    std::string p = dir + "/night" + std::to_string(i) + ".db";
    std::filesystem::copy_file(MT_VIEWER_FIXTURE_DB, p);
    store::Db db = store::Db::open(p, false);
    db.exec("UPDATE runs SET start_unix_ns = start_unix_ns + " + std::to_string(i) + " * 86400000000000, build_id = 'build-" +
            std::to_string(i) + "'");
    const std::string k = std::to_string(factor);
    db.exec("UPDATE run_class_stack SET count = count * " + k + ", requested_bytes = requested_bytes * " + k + ", gc_bytes = gc_bytes * " +
            k +
            " WHERE stack_id IN (SELECT s.stack_id FROM stacks s JOIN sites t ON t.site_id = s.site_id "
            "WHERE t.function = 'Cache.Put' AND s.run_id = run_class_stack.run_id)");
    return p;
}

struct Fleet {
    test::TempDir dir;
    uint16_t http1 = test::free_port(), tcp1 = test::free_port(), http2 = test::free_port(), tcp2 = test::free_port();
    test::ClickHouseServer s1{dir.path + "/s1", http1, tcp1, {tcp1, tcp2}};
    test::ClickHouseServer s2{dir.path + "/s2", http2, tcp2, {tcp1, tcp2}};
    std::vector<std::string> dbs;
    std::string url;
    // Four nights, build-0..build-3, Cache.Put growing 1x, 2x, 3x, 4x; exported into the cluster.
    Fleet() {
        s1.start();
        s2.start();
        url = s1.url("nightly");
        for (int i = 0; i < 4; ++i) dbs.push_back(nightly_copy(dir.path, i, i + 1));
        std::vector<std::string> argv = {MT_EXPORT_BIN};
        argv.insert(argv.end(), dbs.begin(), dbs.end());
        argv.insert(argv.end(), {"--to", url, "--cluster", "mt_test", "--shard", s1.url("nightly"), "--shard", s2.url("nightly")});
        auto r = test::run_process(argv);
        INFO(r.output);
        REQUIRE(r.exit_code == 0);
    }
};

}  // namespace

TEST_CASE("fleet answers: ClickHouse (two shards) and the run.db files agree, a planted growing site grows", "[fleet]") {
    Fleet f;
    auto ch = fleet::open_clickhouse_fleet(fleet::ClickHouseUrl::parse(f.url));
    auto files = viewer::open_run_files(f.dbs);

    // The trend of the planted site: the same points, growing every build, four times the first.
    viewer::TrendQuery site;
    site.sel = {Selection::What::Site, "Cache.Put (Assets/Scripts/Cache.cs)"};
    auto from_ch = viewer::compute_trend(*ch, site).points;
    REQUIRE(from_ch.size() == 4);
    CHECK(from_ch == viewer::compute_trend(*files, site).points);
    for (size_t i = 0; i < from_ch.size(); ++i) {
        CHECK(from_ch[i].key == "build-" + std::to_string(i));
        CHECK(from_ch[i].runs == 2);
        if (i > 0) CHECK(from_ch[i].bytes_per_frame() > from_ch[i - 1].bytes_per_frame());
    }
    CHECK(from_ch[3].t.requested_bytes == 4 * from_ch[0].t.requested_bytes);
    CHECK(viewer::render_trend(viewer::compute_trend(*ch, site)) == viewer::render_trend(viewer::compute_trend(*files, site)));

    // An unchanged site stays flat; the total per night, a class on one device, a build range agree.
    viewer::TrendQuery flat = site;
    flat.sel.name = "Enemy.Spawn";
    auto flat_points = viewer::compute_trend(*ch, flat).points;
    CHECK(flat_points == viewer::compute_trend(*files, flat).points);
    REQUIRE(flat_points.size() == 4);
    CHECK(flat_points[0].t.requested_bytes == flat_points[3].t.requested_bytes);
    viewer::TrendQuery total;
    total.per = viewer::TrendQuery::Per::Night;
    CHECK(viewer::compute_trend(*ch, total).points == viewer::compute_trend(*files, total).points);
    viewer::TrendQuery cls;
    cls.sel = {Selection::What::Class, "System.String"};
    cls.labels.device = "Pixel 7";
    cls.builds = viewer::BuildRange::parse("build-1..build-2");
    auto strings = viewer::compute_trend(*ch, cls).points;
    CHECK(strings == viewer::compute_trend(*files, cls).points);
    REQUIRE(strings.size() == 2);
    CHECK(strings[0].key == "build-1");
    CHECK(strings[0].runs == 1);  // the filter keeps the Android device's run of each night
    CHECK(strings[0].t.requested_bytes > 0);

    // Fleet top, by class and by site, over every run and over one build of one platform.
    for (auto g : {viewer::Group::Class, viewer::Group::Site}) {
        viewer::FleetTopQuery q{g, {}, {}, viewer::Metric::Bytes, 50};
        auto top = viewer::compute_fleet_top(*ch, q);
        CHECK(top.runs == 8);
        CHECK(top.entries.size() > 3);
        CHECK(viewer::render_fleet_top(top) == viewer::render_fleet_top(viewer::compute_fleet_top(*files, q)));
        q.labels.platform = "iOS 17.2";
        q.builds = viewer::BuildRange::parse("build-2");
        auto one = viewer::compute_fleet_top(*ch, q);
        CHECK(one.runs == 1);
        CHECK(viewer::render_fleet_top(one) == viewer::render_fleet_top(viewer::compute_fleet_top(*files, q)));
    }

    // Growth from builds 0..1 to 2..3: the planted site first, the same on both.
    viewer::GrowthQuery g{viewer::Group::Site, {}, viewer::BuildRange::parse("build-0..build-1"),
                          viewer::BuildRange::parse("build-2..build-3"), viewer::Metric::Bytes, 50};
    auto growth = viewer::compute_growth(*ch, g);
    REQUIRE(!growth.entries.empty());
    CHECK(growth.entries[0].key == "Cache.Put (Assets/Scripts/Cache.cs)");
    CHECK(growth.entries[0].delta > 0);
    CHECK(growth.entries[0].b.requested_bytes == 7 * growth.entries[0].a.requested_bytes / 3);  // (3+4) / (1+2)
    CHECK(viewer::render_growth(growth) == viewer::render_growth(viewer::compute_growth(*files, g)));

    // The differential flame graph of one device, build-0 against build-3: every form identical,
    // the planted site's subtree four times as wide, the others unchanged.
    viewer::DiffFlameQuery d{{"", "", "Pixel 7"}, viewer::BuildRange::parse("build-0"), viewer::BuildRange::parse("build-3"),
                             viewer::Metric::Bytes};
    auto diff = viewer::compute_diff_flame(*ch, d), diff_files = viewer::compute_diff_flame(*files, d);
    CHECK(diff.a_runs == 1);
    CHECK(viewer::render_diff_flame(diff) == viewer::render_diff_flame(diff_files));
    CHECK(viewer::render_diff_collapsed(diff) == viewer::render_diff_collapsed(diff_files));
    CHECK(viewer::render_diff_speedscope(diff) == viewer::render_diff_speedscope(diff_files));
    std::string collapsed = viewer::render_diff_collapsed(diff);
    INFO(collapsed);
    bool saw_cache = false, saw_flat = false;
    for (size_t at = 0, nl; (nl = collapsed.find('\n', at)) != std::string::npos; at = nl + 1) {
        std::string line = collapsed.substr(at, nl - at);
        auto sp = line.rfind(' '), sp2 = line.rfind(' ', sp - 1);
        long before = std::stol(line.substr(sp2 + 1, sp - sp2 - 1)), after = std::stol(line.substr(sp + 1));
        if (line.find("Cache.Put") != std::string::npos) {
            saw_cache = true;
            CHECK(after == 4 * before);
        } else if (before > 0) {
            saw_flat = true;
            CHECK(after == before);
        }
    }
    CHECK(saw_cache);
    CHECK(saw_flat);
}

TEST_CASE("fleet answers: the viewer serves the cross-run endpoints from its own history, ClickHouse or SQLite", "[fleet]") {
    Fleet f;
    // Two nights exported again with a project label no capture has: only ClickHouse's own
    // answer (the export's labels) knows it; read run by run through the per-run backend, the
    // runs would carry the capture's process as their project and the filter would keep none.
    const std::string labelled = f.s1.url("labelled");
    auto r = test::run_process({MT_EXPORT_BIN, f.dbs[0], f.dbs[1], "--to", labelled, "--project", "Nightly"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    // The viewer's database on a clickhouse:// URL, as its server opens one (db_pool.cpp).
    viewer::Database ch(fleet::open_clickhouse_backend(labelled));
    auto own = fleet::open_clickhouse_fleet(fleet::ClickHouseUrl::parse(labelled));
    viewer::TrendQuery q;
    q.sel = {Selection::What::Site, "Cache.Put"};
    q.labels.project = "Nightly";
    auto trend = viewer::compute_trend(*own, q);
    REQUIRE(trend.points.size() == 2);
    CHECK(trend.points[1].t.requested_bytes == 2 * trend.points[0].t.requested_bytes);
    auto got = viewer::handle_target(ch, "/api/trend?site=Cache.Put&project=Nightly");
    CHECK(got.status == 200);
    CHECK(got.body == viewer::render_trend(trend));
    viewer::FleetTopQuery top{viewer::Group::Site, {"Nightly", "", ""}, {}, viewer::Metric::Bytes, 50};
    auto top_ch = viewer::compute_fleet_top(*own, top);
    CHECK(top_ch.runs == 4);
    CHECK(viewer::handle_target(ch, "/api/fleet/top?group=site&project=Nightly").body == viewer::render_fleet_top(top_ch));

    // The cluster's history through the viewer: the files' answers, byte for byte.
    viewer::Database cluster(fleet::open_clickhouse_backend(f.url));
    auto files = viewer::open_run_files(f.dbs);
    viewer::GrowthQuery g{viewer::Group::Class, {}, viewer::BuildRange::parse("build-0..build-1"),
                          viewer::BuildRange::parse("build-2..build-3"), viewer::Metric::Bytes, 50};
    CHECK(viewer::handle_target(cluster, "/api/fleet/growth?group=class&a=build-0..build-1&b=build-2..build-3").body ==
          viewer::render_growth(viewer::compute_growth(*files, g)));

    // The viewer on a run.db serves its own runs from SQLite.
    viewer::Database lite(f.dbs[0]);
    viewer::TrendQuery mine;
    mine.sel = {Selection::What::Site, "Cache.Put"};
    auto from_file = viewer::compute_trend(*viewer::open_run_files({f.dbs[0]}), mine);
    REQUIRE(from_file.points.size() == 1);
    CHECK(viewer::handle_target(lite, "/api/trend?site=Cache.Put").body == viewer::render_trend(from_file));
}

TEST_CASE("fleet answers: memtracer-report prints the same tables from ClickHouse and from files", "[fleet]") {
    Fleet f;
    auto both = [&](std::vector<std::string> args) {
        std::vector<std::string> a = {MT_REPORT_BIN, args[0], f.url}, b = {MT_REPORT_BIN, args[0]};
        b.insert(b.end(), f.dbs.begin(), f.dbs.end());
        a.insert(a.end(), args.begin() + 1, args.end());
        b.insert(b.end(), args.begin() + 1, args.end());
        auto x = test::run_process(a), y = test::run_process(b);
        INFO(x.output);
        INFO(y.output);
        CHECK(x.exit_code == 0);
        CHECK(y.exit_code == 0);
        CHECK(x.output == y.output);
        return x.output;
    };
    auto trend = both({"trend", "--site", "Cache.Put", "--format", "csv"});
    CHECK(trend.find("build,first_night,runs,frames,count,requested_bytes,gc_bytes,bytes_per_frame,change_pct") != std::string::npos);
    CHECK(trend.find("build-3,") != std::string::npos);
    auto top = both({"fleet-top", "--group", "site", "--builds", "build-1..build-3", "--format", "csv"});
    CHECK(top.find("over 6 runs") != std::string::npos);
    auto growth = both({"growth", "--group", "site", "--base", "build-0", "--new", "build-3", "--format", "csv"});
    CHECK(growth.find("\nCache.Put (Assets/Scripts/Cache.cs),") != std::string::npos);
    auto speedscope = both({"diff-flame", "--base", "build-0", "--new", "build-3", "--output", "speedscope"});
    CHECK(speedscope.find("\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"") != std::string::npos);
    both({"diff-flame", "--base", "build-0", "--new", "build-3", "--output", "collapsed", "--device", "iPhone 14"});

    // A build range naming no build is a clear error (exit 2).
    auto bad = test::run_process({MT_REPORT_BIN, "fleet-top", f.url, "--builds", "build-0..build-9"});
    CHECK(bad.exit_code == 2);
    CHECK(bad.output.find("build-9") != std::string::npos);
}

TEST_CASE("fleet answers: gate --baseline last:N against the median of the history, passing and failing", "[fleet]") {
    Fleet f;
    // Night 4 allocates in Cache.Put twice the first night: below the median of the last three
    // (builds 1..3: 2x, 3x, 4x), so it passes; night 5 allocates nine times: over.
    std::string pass = nightly_copy(f.dir.path, 4, 2), fail = nightly_copy(f.dir.path, 5, 9);
    for (const std::vector<std::string> &history : {std::vector<std::string>{f.url}, f.dbs}) {
        auto gate = [&](const std::string &now) {
            std::vector<std::string> argv = {MT_REPORT_BIN, "gate", "last:3", now + "@1", "--by", "site", "--max-growth",
                                             "bytes_per_frame=5%", "--format", "csv"};
            argv.push_back("--history");
            argv.insert(argv.end(), history.begin(), history.end());
            return test::run_process(argv);
        };
        auto ok = gate(pass), over = gate(fail);
        INFO(ok.output);
        INFO(over.output);
        CHECK(ok.exit_code == 0);
        CHECK(ok.output.find("median of the last 3 runs (build-1..build-3)") != std::string::npos);
        CHECK(ok.output.find("passed") != std::string::npos);
        CHECK(over.exit_code == 1);
        CHECK(over.output.find("Cache.Put (Assets/Scripts/Cache.cs),bytes_per_frame") != std::string::npos);
        CHECK(over.output.find("OVER") != std::string::npos);
    }
    // With no history to compare against, the gate says so (exit 2) rather than pass.
    auto none = test::run_process({MT_REPORT_BIN, "gate", "last:3", f.dbs[0] + "@1", "--max-growth", "bytes_per_frame=5%", "--history", f.dbs[0]});
    CHECK(none.exit_code == 2);
    CHECK(none.output.find("no earlier run") != std::string::npos);
}

TEST_CASE("fleet answers: runs exported before the per-run summaries get them filled once, the readers refuse until then", "[fleet]") {
    Fleet f;
    fleet::ClickHouse c(fleet::ClickHouseUrl::parse(f.url));
    auto snapshot = [&](const std::string &table, const std::string &keys) {
        return c.rows("SELECT project, platform, build, device, toString(night), run_key, export_id, " + keys +
                      ", count, requested_bytes, gc_bytes FROM " + table + " ORDER BY run_key, export_id, " + keys);
    };
    const auto sites = snapshot("run_site_sums", "site_key"), classes = snapshot("run_class_sums", "class_key, class_id");
    REQUIRE(sites.size() > 8);
    REQUIRE(classes.size() > 8);
    // What the previous memtracer-export left: the same runs, no summary tables on any server.
    auto drop_summaries = [&] {
        for (const std::string &t : {"run_site_sums", "run_class_sums"}) {
            c.execute("DROP TABLE IF EXISTS " + t);
            for (auto *s : {&f.s1, &f.s2}) fleet::ClickHouse(fleet::ClickHouseUrl::parse(s->url("nightly"))).execute("DROP TABLE " + t + "_local");
        }
    };
    drop_summaries();
    auto files = viewer::open_run_files(f.dbs);
    viewer::TrendQuery site;
    site.sel = {Selection::What::Site, "Cache.Put (Assets/Scripts/Cache.cs)"};
    // The readers say what is wrong and what to run, rather than answer without the old runs.
    CHECK_THROWS_WITH(viewer::compute_trend(*fleet::open_clickhouse_fleet(fleet::ClickHouseUrl::parse(f.url)), site),
                      Catch::Contains(f.url) && Catch::Contains("memtracer-export --upgrade --to " + f.url));
    auto report = test::run_process({MT_REPORT_BIN, "trend", f.url, "--site", "Cache.Put"});
    CHECK(report.exit_code == 2);
    viewer::Database viewer_db(fleet::open_clickhouse_backend(f.url));
    auto served = viewer::handle_target(viewer_db, "/api/fleet/top?group=site");
    CHECK(served.status == 500);
    CHECK(served.body.find("--upgrade --to " + f.url) != std::string::npos);
    CHECK(viewer::handle_target(viewer_db, "/api/runs").status == 200);  // the per-run endpoints read no summaries
    CHECK(report.output.find("--upgrade") != std::string::npos);
    const std::vector<std::string> cluster = {"--cluster", "mt_test", "--shard", f.s1.url("nightly"), "--shard", f.s2.url("nightly")};
    auto run_export = [&](std::vector<std::string> argv) {
        argv.insert(argv.begin(), MT_EXPORT_BIN);
        argv.insert(argv.end(), cluster.begin(), cluster.end());
        auto r = test::run_process(argv);
        INFO(r.output);
        CHECK(r.exit_code == 0);
        return r.output;
    };
    // A cluster's database upgraded through its entry server alone would get tables no shard has.
    auto alone = test::run_process({MT_EXPORT_BIN, "--upgrade", "--to", f.url});
    CHECK(alone.exit_code == 2);
    CHECK(alone.output.find("--shard") != std::string::npos);

    // The exporter fills them when it opens the database (here re-exporting a file: a no-op for
    // its runs), with exactly the rows it writes for a new run; so does --upgrade.
    CHECK(run_export({f.dbs[0], "--to", f.url}).find("already exported") != std::string::npos);
    CHECK(snapshot("run_site_sums", "site_key") == sites);
    CHECK(snapshot("run_class_sums", "class_key, class_id") == classes);
    drop_summaries();
    CHECK(run_export({"--upgrade", "--to", f.url}).find("filled the per-run summaries of the 8 runs") != std::string::npos);
    CHECK(snapshot("run_site_sums", "site_key") == sites);
    CHECK(snapshot("run_class_sums", "class_key, class_id") == classes);

    // The answers are the files' again.
    auto ch = fleet::open_clickhouse_fleet(fleet::ClickHouseUrl::parse(f.url));
    CHECK(viewer::render_trend(viewer::compute_trend(*ch, site)) == viewer::render_trend(viewer::compute_trend(*files, site)));
    for (auto g : {viewer::Group::Class, viewer::Group::Site}) {
        viewer::FleetTopQuery q{g, {}, {}, viewer::Metric::Bytes, 50};
        CHECK(viewer::render_fleet_top(viewer::compute_fleet_top(*ch, q)) == viewer::render_fleet_top(viewer::compute_fleet_top(*files, q)));
        viewer::GrowthQuery gq{g, {}, viewer::BuildRange::parse("build-0..build-1"), viewer::BuildRange::parse("build-2..build-3"),
                               viewer::Metric::Bytes, 50};
        CHECK(viewer::render_growth(viewer::compute_growth(*ch, gq)) == viewer::render_growth(viewer::compute_growth(*files, gq)));
    }

    // Again: nothing to fill, nothing added.
    CHECK(run_export({"--upgrade", "--to", f.url}).find("filled") == std::string::npos);
    CHECK(snapshot("run_site_sums", "site_key") == sites);
    CHECK(snapshot("run_class_sums", "class_key, class_id") == classes);
}
