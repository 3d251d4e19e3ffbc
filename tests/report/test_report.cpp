// memtracer-report on the fixture database: run 2's death_sites are hand-written rows
// (fixture_shape.cpp kDeathSites), so leaks and temporaries have literal expected numbers;
// allocation totals come from SQL on the same file. Exit codes through the real executable.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unistd.h>
#include <sstream>

#include "commands.h"
#include "compare.h"
#include "memtracer/store/db.h"
#include "process.h"

using namespace mt::report;
using mt::test::run_process;

namespace {

const std::string kDb = MT_VIEWER_FIXTURE_DB;

double sql_real(const std::string &sql) {
    auto db = mt::store::Db::open_readonly(kDb, 1000);
    auto s = db.prepare(sql);
    REQUIRE(s.step());
    return s.f64(0);
}

std::string rendered(const Table &t, Format f) {
    std::ostringstream out, err;
    render(t, f, out, err);
    return out.str();
}

// stdout only (notes go to stderr in csv/json), and the exit code.
mt::test::ProcessResult report(const std::string &args) {
    return run_process({"sh", "-c", std::string(MT_REPORT_BIN) + " " + args + " 2>/dev/null"});
}
mt::test::ProcessResult report_all(const std::string &args) {
    return run_process({"sh", "-c", std::string(MT_REPORT_BIN) + " " + args + " 2>&1"});
}

}  // namespace

TEST_CASE("report: temporaries and leaks on the fixture, exact", "[report]") {
    Source s(kDb + "@2");
    Query q;
    q.within = 5;
    Table t = temporaries(s, q);
    REQUIRE(t.rows.size() == 2);
    std::string csv = rendered(t, Format::Csv);
    CHECK(csv.rfind("rank,class,count,gc_bytes,allocated,temporary_share,share\r\n1,System.String,10,640,", 0) == 0);
    CHECK(csv.find("\r\n2,Node,7,336,") != std::string::npos);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
    for (size_t i = 0; i < 2; ++i) {
        std::string cls = std::get<std::string>(t.rows[i][1]);
        auto allocated = static_cast<int64_t>(sql_real(
            "SELECT sum(a.count) FROM allocs a JOIN classes c USING(run_id, class_id) WHERE a.run_id=2 AND "
            "c.full_name='" + cls + "'"));
        CHECK(std::get<int64_t>(t.rows[i][4]) == allocated);
        CHECK(std::get<double>(t.rows[i][5]) == static_cast<double>(std::get<int64_t>(t.rows[i][2])) / allocated);
    }
    CHECK(std::get<double>(t.rows[0][6]) == 640.0 / 976);  // share of the 976 temporary bytes
    q.group = "site";
    q.by = "gc_bytes";
    q.to = "298";  // a range: allocations minus linked deaths (the whole run is the survivors row)
    Table leaks_by_site = leaks(s, q);
    // Node..ctor (stacks 0 and 1) keeps all it allocated but the 7 deaths of frame 29.
    REQUIRE(leaks_by_site.rows.size() >= 2);
    int64_t node_alloc = static_cast<int64_t>(
        sql_real("SELECT sum(count) FROM allocs WHERE run_id=2 AND stack_id IN (0, 1) AND seq <= 298"));
    bool found = false;
    for (const auto &r : leaks_by_site.rows) {
        if (std::get<std::string>(r[1]) != "Node..ctor (Assets/Scripts/Node.cs:12)") continue;
        found = true;
        CHECK(std::get<int64_t>(r[3]) == node_alloc - 7);
        CHECK(std::get<int64_t>(r[5]) == node_alloc);
        CHECK(std::get<int64_t>(r[7]) == 298 - std::get<int64_t>(r[6]));
    }
    CHECK(found);
    std::string json = rendered(leaks_by_site, Format::Json);
    CHECK(json.rfind("[\n{\"rank\":1,\"site\":\"", 0) == 0);
    CHECK(json.find("\"frames\":") != std::string::npos);
    Source r1(kDb + "@1");
    CHECK_THROWS_AS(leaks(r1, Query{}), NoLifetimes);
}

TEST_CASE("report: frames mark the live and heap peaks", "[report]") {
    Source s(kDb, 2);
    Query q;
    q.from = "0";
    q.to = "59";
    Table t = frames(s, q);
    REQUIRE(t.rows.size() == 60);
    int64_t live_peak = -1;
    for (const auto &r : t.rows)
        if (std::get<std::string>(r[8]).find("live peak") != std::string::npos) live_peak = std::get<int64_t>(r[0]);
    CHECK(live_peak == static_cast<int64_t>(sql_real(
                           "SELECT seq FROM frames WHERE run_id=2 AND seq<=59 ORDER BY live_bytes DESC, seq LIMIT 1")));
}

TEST_CASE("report: compare and gate per frame between the fixture's two runs", "[report]") {
    Source a(kDb + "@1"), b(kDb + "@2");
    Query q;
    q.limit = 100;
    Table c = compare(a, b, q);
    double a_bpf = sql_real("SELECT requested_bytes * 1.0 / frame_count FROM runs WHERE run_id=1");
    double b_bpf = sql_real("SELECT requested_bytes * 1.0 / frame_count FROM runs WHERE run_id=2");
    REQUIRE(std::get<std::string>(c.rows[0][0]) == "(total)");
    CHECK(std::get<double>(c.rows[0][6]) == Approx(a_bpf).epsilon(1e-12));
    CHECK(std::get<double>(c.rows[0][7]) == Approx(b_bpf).epsilon(1e-12));
    auto status = [&](const std::string &cls) {
        for (const auto &r : c.rows)
            if (std::get<std::string>(r[0]) == cls) return std::get<std::string>(r[1]);
        return std::string("absent");
    };
    CHECK(status("Enemy") == "new");
    CHECK(status("TempBuffer") == "gone");
    CHECK(status("Node") == "");

    double growth = (b_bpf / a_bpf - 1) * 100;
    GateResult strict = gate(a, b, q, parse_limits("bytes_per_frame=0%"), 1.0);
    CHECK(std::get<double>(strict.table.rows[0][4]) == Approx(growth).epsilon(1e-12));
    CHECK(strict.failed == (growth > 0));
    // Enemy is new in run 2: over any limit, since it is more than 1% of run 1's bytes per frame.
    bool enemy_over = false;
    for (const auto &r : strict.table.rows)
        enemy_over = enemy_over || (std::get<std::string>(r[0]) == "Enemy" && std::get<std::string>(r[6]) == "OVER");
    CHECK(enemy_over);
    CHECK(strict.failed);
    GateResult same = gate(a, a, q, parse_limits("bytes_per_frame=0%,allocs_per_frame=0"), 1.0);
    CHECK_FALSE(same.failed);
    REQUIRE(same.table.rows.size() == 2);  // the two totals; nothing grew
    CHECK(std::get<std::string>(same.table.rows[1][6]) == "ok");
}

TEST_CASE("report: --max-growth and CSV quoting", "[report]") {
    auto l = parse_limits("bytes_per_frame=5%,allocs_per_frame=10");
    REQUIRE(l.max_growth_pct.size() == 2);
    CHECK(l.max_growth_pct[0].first == Metric::BytesPerFrame);
    CHECK(l.max_growth_pct[0].second == 5.0);
    CHECK(l.max_growth_pct[1].second == 10.0);
    CHECK_THROWS_WITH(parse_limits("bytes=5%"), Catch::Contains("unknown metric 'bytes'"));
    CHECK_THROWS_WITH(parse_limits("bytes_per_frame=-1%"), Catch::Contains("not a percentage"));
    CHECK_THROWS_WITH(parse_limits("bytes_per_frame=5%,bytes_per_frame=6%"), Catch::Contains("given twice"));
    CHECK_THROWS_WITH(parse_limits("bytes_per_frame"), Catch::Contains("not metric=N%"));
    Table t;
    t.columns = {"name", "n"};
    t.add({std::string("Dictionary<Int32, \"x\">"), int64_t{3}});
    CHECK(rendered(t, Format::Csv) == "name,n\r\n\"Dictionary<Int32, \"\"x\"\">\",3\r\n");
    CHECK(rendered(t, Format::Json) == "[\n{\"name\":\"Dictionary<Int32, \\\"x\\\">\",\"n\":3}\n]\n");
}

TEST_CASE("report: exit codes of the executable", "[report]") {
    CHECK(report("gate " + kDb + "@1 " + kDb + "@1 --max-growth bytes_per_frame=0%").exit_code == 0);
    auto failed = report("gate " + kDb + "@1 " + kDb + "@2 --max-growth bytes_per_frame=0% --format csv");
    CHECK(failed.exit_code == 1);
    CHECK(failed.output.rfind("class,metric,base,new,change_pct,limit_pct,status\r\n(total),bytes_per_frame,", 0) == 0);
    CHECK(failed.output.find("\r\nEnemy,bytes_per_frame,0,") != std::string::npos);
    auto none = report_all("leaks " + kDb + "@1");
    CHECK(none.exit_code == 3);
    CHECK(none.output.find("run 1 recorded no lifetimes") != std::string::npos);
    auto ambiguous = report_all("top " + kDb);
    CHECK(ambiguous.exit_code == 2);
    CHECK(ambiguous.output.find("holds more than one run") != std::string::npos);
    CHECK(report_all("top " + kDb + "@9").output.find("no run 9") != std::string::npos);
    CHECK(report_all("gate a b --max-growth foo=1%").exit_code == 2);
    CHECK(report_all("top " + kDb + "@1 --format xml").exit_code == 2);
    CHECK(report_all("top /nonexistent.db").exit_code == 2);
    auto top = report("top " + kDb + " --run 1 --limit 2 --format json");
    CHECK(top.exit_code == 0);
    CHECK(top.output.rfind("[\n{\"rank\":1,\"class\":", 0) == 0);
}

TEST_CASE("report: leaks by stack read the frame count, not the stack's frames", "[report]") {
    // The leaks endpoint once wrote "frames" twice for stacks (the frame list, then the count);
    // the report read the list and failed. Node..ctor's two stacks keep all but 7 of theirs.
    Source s(kDb + "@2");
    Query q;
    q.group = "stack";
    q.to = "298";
    Table t = leaks(s, q);
    int64_t node = 0;
    int rows = 0;
    for (const auto &r : t.rows) {
        const auto &name = std::get<std::string>(r[1]);
        CHECK(std::get<int64_t>(r[2]) >= 0);  // frames: a number
        if (name.rfind("stack 0:", 0) == 0 || name.rfind("stack 1:", 0) == 0) node += std::get<int64_t>(r[3]), ++rows;
    }
    CHECK(rows == 2);
    CHECK(node == static_cast<int64_t>(sql_real(
                      "SELECT sum(count) FROM allocs WHERE run_id=2 AND stack_id IN (0, 1) AND seq <= 298")) - 7);
}

TEST_CASE("report: frames name the frames the game marked", "[report]") {
    Source s(kDb, 1);  // run 1: "level loaded" at 0, "boss spawned" at 120 and 239
    Query q;
    q.from = "0";
    q.to = "130";
    Table t = frames(s, q);
    REQUIRE(t.rows.size() == 131);
    std::vector<std::pair<int64_t, std::string>> marked;
    for (const auto &r : t.rows) {
        const std::string &m = std::get<std::string>(r[8]);
        if (m.find("marker") != std::string::npos) marked.emplace_back(std::get<int64_t>(r[0]), m);
    }
    REQUIRE(marked.size() == 2);
    CHECK(marked[0].first == 0);
    CHECK(marked[0].second.find("marker 'level loaded'") != std::string::npos);
    CHECK(marked[1].first == 120);
    CHECK(marked[1].second.find("marker 'boss spawned'") != std::string::npos);
    CHECK(t.notes.back().find("3 markers in the run") != std::string::npos);
}

TEST_CASE("report: frames the runtime merged count as every game frame they cover", "[report]") {
    // Run 3 is run 1 as a writer that fell behind would have committed it: game frames 1..238
    // merged in pairs (MT_FRAME_MERGED, the later frame_index), 0 and 239 alone. Same
    // allocations, same game frames, 121 committed frames instead of 240: per game frame nothing
    // changed, and a gate that divided by committed frames saw +98%.
    std::string path =
        (std::filesystem::temp_directory_path() / ("mt-report-merged-" + std::to_string(getpid()) + ".db")).string();
    std::filesystem::copy_file(kDb, path, std::filesystem::copy_options::overwrite_existing);
    {
        auto db = mt::store::Db::open(path, false);
        for (const char *t : {"runs", "run_info", "modules", "threads", "classes", "stacks", "run_biases",
                              "run_class_stack"}) {
            // stacks name their shapes (schema version 5): the copy shares them, with the run's biases.
            db.exec(std::string("CREATE TEMP TABLE c AS SELECT * FROM ") + t + " WHERE run_id = 1");
            db.exec(std::string("UPDATE c SET run_id = 3; INSERT INTO ") + t + " SELECT * FROM c; DROP TABLE c");
        }
        const char *merged_seq = "(CASE WHEN seq = 0 THEN 0 ELSE (seq + 1) / 2 END)";
        db.exec(std::string("INSERT INTO allocs SELECT 3, ") + merged_seq +
                ", class_id, stack_id, sum(count), sum(requested_bytes), sum(gc_bytes), thread_id FROM allocs "
                "WHERE run_id = 1 GROUP BY 2, class_id, stack_id, thread_id");
        db.exec(std::string("INSERT INTO frames (run_id, seq, frame_index, start_ns, end_ns, alloc_count, "
                            "requested_bytes, gc_bytes, flags) SELECT 3, ") + merged_seq +
                ", max(frame_index), min(start_ns), max(end_ns), sum(alloc_count), sum(requested_bytes), "
                "sum(gc_bytes), (CASE WHEN count(*) > 1 THEN 2 ELSE 0 END) | max(flags) FROM frames WHERE run_id = 1 "
                "GROUP BY 2");
    }
    Source a(path + "@1"), b(path + "@3");
    Query q;
    q.limit = 100;
    CHECK(load_side(b, q).frames == 240);
    CHECK(load_side(a, q).frames == 240);
    GateResult same = gate(a, b, q, parse_limits("bytes_per_frame=0%,allocs_per_frame=0%"), 1.0);
    CHECK_FALSE(same.failed);
    CHECK(std::get<double>(same.table.rows[0][4]) == Approx(0.0).margin(1e-9));
    // A range: committed frames 1..60 of run 3 are game frames 1..120.
    q.from = "1";
    q.to = "60";
    CHECK(load_side(b, q).frames == 120);
    std::filesystem::remove(path);
}

TEST_CASE("report: --thread on top, frames, leaks, temporaries, compare and gate", "[report][threads]") {
    // fixture_shape.cpp's thread_split: the job worker (thread 1) of run 1 allocated 774 objects.
    auto sum = [](const std::string &where) {
        return static_cast<int64_t>(sql_real("SELECT coalesce(sum(count), 0) * 1.0 FROM allocs WHERE " + where));
    };
    Source s(kDb + "@1");
    Query q;
    q.thread = "Job.Worker 0";  // a name with a space: sent percent-encoded
    q.limit = 100;
    Table t = top(s, q);
    int64_t n = 0;
    for (const auto &r : t.rows) n += std::get<int64_t>(r[2]);
    CHECK(n == 774);
    CHECK(n == sum("run_id=1 AND thread_id=1"));
    q.from = "10";
    q.to = "200";
    Table f = frames(s, q);
    int64_t fn = 0;
    for (const auto &r : f.rows) fn += std::get<int64_t>(r[2]);
    CHECK(fn == sum("run_id=1 AND thread_id=1 AND seq BETWEEN 10 AND 200"));
    // Lifetimes of run 2 by thread: the worker's Node died at age 5 (DEATH_SITES, stack 1).
    Source s2(kDb + "@2");
    Query w;
    w.thread = "1";
    w.within = 5;
    Table tw = temporaries(s2, w);
    REQUIRE(tw.rows.size() == 1);
    CHECK(std::get<std::string>(tw.rows[0][1]) == "Node");
    CHECK(std::get<int64_t>(tw.rows[0][2]) == 1);
    Query m;
    m.thread = "main";
    CHECK(leaks(s2, m).rows.size() == 1);  // the one survivors row is the main thread's
    m.thread = "1";
    CHECK(leaks(s2, m).rows.empty());
    // Compare and gate: both sides filtered by the same thread name.
    Source a(kDb + "@1"), b(kDb + "@2");
    Query c;
    c.thread = "Loading.Worker";
    c.limit = 100;
    Table cmp = compare(a, b, c);
    double a_bpf = sql_real("SELECT sum(requested_bytes) * 1.0 / 240 FROM allocs WHERE run_id=1 AND thread_id IN (2, 3)");
    REQUIRE(std::get<std::string>(cmp.rows[0][0]) == "(total)");
    CHECK(std::get<double>(cmp.rows[0][6]) == Approx(a_bpf).epsilon(1e-12));
    GateResult g = gate(a, a, c, parse_limits("bytes_per_frame=0%"), 1.0);
    CHECK_FALSE(g.failed);
    CHECK(std::get<double>(g.table.rows[0][2]) == Approx(a_bpf).epsilon(1e-12));
    // Through the executable; an unknown thread is exit 2 with the run's threads named.
    auto ok = report("top " + kDb + "@1 --thread 'job.worker 0' --limit 100 --format csv");
    CHECK(ok.exit_code == 0);
    auto bad = report_all("top " + kDb + "@1 --thread nosuch");
    CHECK(bad.exit_code == 2);
    CHECK(bad.output.find("has no thread nosuch") != std::string::npos);
}

TEST_CASE("report: --from/--to marker:LABEL bound the range at the marked frames (issue 21)", "[report][markers]") {
    // Run 1: "level loaded" at 0, "boss spawned" at 120 and 239 (the first occurrence counts).
    auto t = report("frames " + kDb + "@1 --from 'marker:level loaded' --to 'marker:boss spawned' --format csv");
    INFO(t.output);
    REQUIRE(t.exit_code == 0);
    CHECK(t.output.rfind("seq,", 0) == 0);
    CHECK(std::count(t.output.begin(), t.output.end(), '\n') == 1 + 121);  // header + frames 0..120
    CHECK(t.output.find("\r\n120,") != std::string::npos);
    CHECK(t.output.find("\r\n121,") == std::string::npos);
    // The same range through the library: top over marker bounds equals top over the numbers.
    Source s(kDb + "@1");
    Query by_marker, by_number;
    by_marker.from = "marker:level loaded";
    by_marker.to = "marker:boss spawned";
    by_number.from = "0";
    by_number.to = "120";
    CHECK(rendered(top(s, by_marker), Format::Csv) == rendered(top(s, by_number), Format::Csv));
    // Mixed with a number, and per run in compare (each run resolves its own label).
    CHECK(report("top " + kDb + "@1 --from 'marker:boss spawned' --to 200").exit_code == 0);
    auto unknown = report_all("top " + kDb + "@1 --from marker:nosuch");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.output.find("nosuch") != std::string::npos);
    // Option parsing: what is neither a frame nor a marker is named, without a float range.
    auto bad = report_all("top " + kDb + "@1 --from soon");
    CHECK(bad.exit_code == 2);
    CHECK(bad.output.find("'soon' is not a frame number or marker:LABEL") != std::string::npos);
    CHECK(report_all("top " + kDb + "@1 --to marker:").output.find("marker: needs a label") != std::string::npos);
    CHECK(report_all("top " + kDb + "@1 --from -3").exit_code == 2);
}

TEST_CASE("report: a newer, damaged or locked database is refused as the viewer refuses it (issue 21)",
          "[report][schema]") {
    auto dir = std::filesystem::temp_directory_path() / ("mt-report-schema-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto copy = [&](const std::string &name) {
        std::string p = (dir / name).string();
        std::filesystem::copy_file(kDb, p, std::filesystem::copy_options::overwrite_existing);
        return p;
    };
    std::string newer = copy("newer.db"), meta = copy("meta.db"), noallocs = copy("noallocs.db");
    mt::store::Db::open(newer, false).exec("PRAGMA user_version = 99");
    mt::store::Db::open(meta, false).exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', '9')");
    mt::store::Db::open(noallocs, false).exec("DROP TABLE allocs");
    for (const std::string &cmd : {"top " + newer + "@1", "gate " + newer + "@1 " + newer + "@2 --max-growth bytes_per_frame=1000%"}) {
        auto r = report_all(cmd);
        INFO(cmd << "\n" << r.output);
        CHECK(r.exit_code == 2);
        CHECK(r.output.find("has schema version 99, written by a newer MemTracer") != std::string::npos);
    }
    auto m = report_all("gate " + kDb + "@1 " + meta + "@1 --max-growth bytes_per_frame=1000%");
    CHECK(m.exit_code == 2);
    CHECK(m.output.find("schema version 9 (meta.schema_version), written by a newer MemTracer") != std::string::npos);
    auto n = report_all("top " + noallocs + "@1");
    CHECK(n.exit_code == 2);
    CHECK(n.output.find("has no table 'allocs'") != std::string::npos);
    CHECK(n.output.find("schema version 1") == std::string::npos);
    // Locked: another connection holds an exclusive lock (a writer mid-transaction).
    std::string locked = copy("locked.db");
    {
        mt::store::Db w = mt::store::Db::open(locked, false);
        w.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE runs SET process = process");
        auto l = report_all("top " + locked + "@1");
        INFO(l.output);
        CHECK(l.exit_code == 2);
        CHECK(l.output.find("is locked by another process") != std::string::npos);
        CHECK(l.output.find("not a MemTracer database") == std::string::npos);
        w.exec("ROLLBACK");
    }
    std::filesystem::remove_all(dir);
}
