// The trend over many runs from ClickHouse (exported, one real server) and from the run.db files
// themselves: the same points, and a planted growing site found growing build after build.
#include <catch2/catch.hpp>

#include <memtracer/store/db.h>

#include <filesystem>

#include "clickhouse_server.h"
#include "process.h"
#include "trend.h"

using namespace mt;

namespace {

// Four nights of the fixture's two runs, build-0..build-3: every night a day later, and
// Cache.Put allocating (night + 1) times what it did.
std::vector<std::string> nightly_copies(const std::string &dir) {
    std::vector<std::string> out;
    for (int i = 0; i < 4; ++i) {
        std::string p = dir + "/night" + std::to_string(i) + ".db";
        std::filesystem::copy_file(MT_VIEWER_FIXTURE_DB, p);
        store::Db db = store::Db::open(p, false);
        db.exec("UPDATE runs SET start_unix_ns = start_unix_ns + " + std::to_string(i) + " * 86400000000000, build_id = 'build-" +
                std::to_string(i) + "'");
        const std::string k = std::to_string(i + 1);
        db.exec("UPDATE run_class_stack SET count = count * " + k + ", requested_bytes = requested_bytes * " + k +
                ", gc_bytes = gc_bytes * " + k +
                " WHERE stack_id IN (SELECT s.stack_id FROM stacks s JOIN sites t ON t.site_id = s.site_id "
                "WHERE t.function = 'Cache.Put' AND s.run_id = run_class_stack.run_id)");
        out.push_back(p);
    }
    return out;
}

}  // namespace

TEST_CASE("fleet trend: ClickHouse and the run.db files give the same points, a planted growing site grows", "[fleet]") {
    test::TempDir dir;
    test::ClickHouseServer server(dir.path + "/ch", test::free_port(), test::free_port());
    server.start();
    auto dbs = nightly_copies(dir.path);
    std::vector<std::string> argv = {MT_EXPORT_BIN};
    argv.insert(argv.end(), dbs.begin(), dbs.end());
    argv.insert(argv.end(), {"--to", server.url("nightly")});
    auto r = test::run_process(argv);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    fleet::ClickHouse c(fleet::ClickHouseUrl::parse(server.url("nightly")));

    fleet::TrendQuery site;
    site.what = fleet::TrendQuery::What::Site;
    site.name = "Cache.Put (Assets/Scripts/Cache.cs)";
    auto from_ch = fleet::trend(c, site);
    auto from_files = fleet::trend(dbs, site);
    REQUIRE(from_ch.size() == 4);
    CHECK(from_ch == from_files);
    for (size_t i = 0; i < from_ch.size(); ++i) {
        CHECK(from_ch[i].key == "build-" + std::to_string(i));
        CHECK(from_ch[i].runs == 2);
        if (i > 0) CHECK(from_ch[i].bytes_per_frame() > from_ch[i - 1].bytes_per_frame());
    }
    CHECK(from_ch[3].requested_bytes == 4 * from_ch[0].requested_bytes);

    // A site that did not change stays flat; totals and classes agree between the two sources.
    fleet::TrendQuery flat = site;
    flat.name = "Enemy.Spawn";
    auto flat_points = fleet::trend(c, flat);
    CHECK(flat_points == fleet::trend(dbs, flat));
    REQUIRE(flat_points.size() == 4);
    CHECK(flat_points[0].requested_bytes == flat_points[3].requested_bytes);
    fleet::TrendQuery total;
    total.per = fleet::TrendQuery::Per::Night;
    CHECK(fleet::trend(c, total) == fleet::trend(dbs, total));
    fleet::TrendQuery cls;
    cls.what = fleet::TrendQuery::What::Class;
    cls.name = "System.String";
    cls.device = "Pixel 7";
    auto strings = fleet::trend(c, cls);
    CHECK(strings == fleet::trend(dbs, cls));
    REQUIRE(strings.size() == 4);
    CHECK(strings[0].runs == 1);  // the filter keeps the Android device's run of each night
    CHECK(strings[0].requested_bytes > 0);

    // memtracer-report trend prints the same table from either source.
    std::vector<std::string> files = {MT_REPORT_BIN, "trend"};
    files.insert(files.end(), dbs.begin(), dbs.end());
    for (auto &v : std::vector<std::string>{"--site", site.name, "--format", "csv"}) files.push_back(v);
    auto from_files_cli = test::run_process(files);
    auto from_ch_cli = test::run_process({MT_REPORT_BIN, "trend", server.url("nightly"), "--site", site.name, "--format", "csv"});
    INFO(from_files_cli.output);
    REQUIRE(from_files_cli.exit_code == 0);
    CHECK(from_ch_cli.exit_code == 0);
    CHECK(from_ch_cli.output == from_files_cli.output);
    CHECK(from_ch_cli.output.find("build-3,") != std::string::npos);
    CHECK(from_ch_cli.output.find("build,first_night,runs,frames,count,requested_bytes,gc_bytes,bytes_per_frame,change_pct") !=
          std::string::npos);
}
