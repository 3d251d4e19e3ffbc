// The query layer on the fixture database (tests/viewer/fixture_shape.cpp): what each
// endpoint shows, checked against SQL on the same file and the facts the fixture builds in.
#include <unistd.h>

#include <filesystem>

#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
const JValue *find(const JValue &arr, const std::string &key, const std::string &value) {
    for (auto &e : arr.a)
        if (e.has(key) && e[key].kind == JValue::String && e[key].str() == value) return &e;
    return nullptr;
}
}  // namespace

TEST_CASE("viewer: runs list and summary", "[viewer][query]") {
    Database db(fixture_db());
    auto runs = ok(db, "/api/runs");
    REQUIRE(runs["runs"].size() == 2);
    REQUIRE(runs["runs"][0]["run_id"].i() == 1);
    REQUIRE(runs["runs"][0]["device"].str() == "Pixel 7");
    REQUIRE(runs["next_offset"].is_null());
    auto page = ok(db, "/api/runs?limit=1&offset=1");
    REQUIRE(page["runs"].size() == 1);
    REQUIRE(page["runs"][0]["run_id"].i() == 2);
    auto s = ok(db, "/api/runs/2");
    REQUIRE(s["frames"].i() == 300);
    REQUIRE(s["threads"].size() == 4);
    REQUIRE(s["threads"][1]["name"].str() == "Job.Worker 0");
    REQUIRE(s["info"]["runtime_version"].str() == "0.1.0");
    REQUIRE(s["build_id"].str() == "9a8b7c6d5e4f30211203f4e5d6c7b8a9");
    REQUIRE(s["totals"]["count"].i() == sql_int(fixture_db(), "SELECT alloc_count FROM runs WHERE run_id=2"));
    REQUIRE(s["has_lifetimes"].b);
    REQUIRE(s["counts"]["survivors"].i() == 25);
    // Where the GC figures came from, from the frames' MT_FRAME_GC_* flags.
    CHECK(s["figures"]["gc_sizes"].str() == "estimated");
    CHECK(s["figures"]["collections"].str() == "il2cpp_profiler");
    auto patched = ok(db, "/api/runs/1");
    CHECK(patched["figures"]["gc_sizes"].str() == "exact");
    CHECK(patched["figures"]["collections"].str() == (patched["totals"]["collections"].i() > 0 ? "boehm" : "none"));
}

TEST_CASE("viewer: bad requests name the parameter, unknown runs and frames are 404", "[viewer][query]") {
    Database db(fixture_db());
    CHECK(error_param(db, "/api/runs/9", 404) == "run");
    CHECK(error_param(db, "/api/runs/1/frames/240", 404) == "seq");
    CHECK(error_param(db, "/api/runs/abc", 400) == "run");
    CHECK(error_param(db, "/api/runs/1/frames/-1", 400) == "seq");
    CHECK(error_param(db, "/api/runs/1/top?by=size", 400) == "by");
    CHECK(error_param(db, "/api/runs/1/top?group=thread", 400) == "group");
    CHECK(error_param(db, "/api/runs/1/top?limit=0", 400) == "limit");
    CHECK(error_param(db, "/api/runs/1/top?limit=99999999999999999999", 400) == "limit");
    CHECK(error_param(db, "/api/runs/1/top?from=10&to=5", 400) == "to");
    CHECK(error_param(db, "/api/runs/1/top?from=240", 400) == "from");
    CHECK(error_param(db, "/api/runs/1/top?form=3", 400) == "form");
    CHECK(error_param(db, "/api/runs/1/top?by=count&by=bytes", 400) == "by");
    CHECK(error_param(db, "/api/runs/1/flame?min_share=nan", 400) == "min_share");
    CHECK(error_param(db, "/api/compare?a=1", 400) == "b");
    CHECK(error_param(db, "/api/compare?a=1&b=7", 404) == "run");
    CHECK(error_param(db, "/api/runs/1/frames?to=%zz", 400) == "to");
    CHECK(error_param(db, "/api/nothing", 404).empty());
    auto post = mt::viewer::handle(db, mt::viewer::parse_target("/api/runs/1", "DELETE"));
    CHECK(post.status == 405);
}

TEST_CASE("viewer: frame series: per-frame columns, GC markers, live bytes when known", "[viewer][query]") {
    Database db(fixture_db());
    auto s1 = ok(db, "/api/runs/1/frames");
    REQUIRE(s1["seq"].size() == 240);
    REQUIRE(s1["live_bytes"].is_null());  // run 1 recorded no lifetimes
    REQUIRE(s1["gc"].size() == 8);
    REQUIRE(s1["gc"][0]["seq"].i() == 29);
    REQUIRE(s1["collections"][29].i() == 1);
    auto s2 = ok(db, "/api/runs/2/frames?from=10&to=19");
    REQUIRE(s2["seq"].size() == 10);
    REQUIRE(s2["seq"][0].i() == 10);
    REQUIRE(s2["live_bytes"].size() == 10);
    REQUIRE(s2["requested_bytes"][3].i() ==
            sql_int(fixture_db(), "SELECT requested_bytes FROM frames WHERE run_id=2 AND seq=13"));
    REQUIRE_FALSE(s2.has("start_ns"));  // the timeline's columns only, unless fields=all
    auto all = ok(db, "/api/runs/2/frames?from=10&to=19&fields=all");
    REQUIRE(all["duration_ns"][0].i() == 16666667);
    REQUIRE(all["start_ns"][1].i() - all["start_ns"][0].i() == all["duration_ns"][0].i());
    auto paged = ok(db, "/api/runs/2/frames?from=0&limit=100");
    REQUIRE(paged["seq"].size() == 100);
    REQUIRE(paged["next_from"].i() == 100);
}

TEST_CASE("viewer: one frame: classes with their stacks, inline frames and C# locations", "[viewer][query]") {
    Database db(fixture_db());
    auto f = ok(db, "/api/runs/1/frames/29");
    REQUIRE(f["frame"]["collections"].i() == 1);
    REQUIRE(f["gc"].size() == 1);
    const auto &classes = f["classes"];
    REQUIRE(classes.size() >= 4);
    for (size_t i = 1; i < classes.size(); ++i)
        REQUIRE(classes[i]["requested_bytes"].i() <= classes[i - 1]["requested_bytes"].i());
    const JValue *node = find(classes, "full_name", "Node");
    REQUIRE(node);
    // The Graph.Build stack: Node..ctor inlined into NodeFactory.CreateNode at one address.
    bool saw_inline = false;
    for (auto &st : (*node)["stacks"].a) {
        auto &fr = st["frames"];
        for (size_t i = 0; i + 1 < fr.size(); ++i) {
            if (fr[i]["name"].str() == "Node..ctor") {
                REQUIRE(fr[i]["inlined"].b);
                REQUIRE(fr[i]["location"].str() == "Assets/Scripts/Node.cs:12");
                REQUIRE(fr[i + 1]["name"].str() == "NodeFactory.CreateNode");
                REQUIRE(fr[i + 1]["pos"].i() == fr[i]["pos"].i());
                REQUIRE_FALSE(fr[i + 1]["inlined"].b);
                saw_inline = true;
            }
        }
        REQUIRE(st["site"]["function"].str() == "Node..ctor");
    }
    REQUIRE(saw_inline);
    // Demangled names for C++ frames; module+offset for an address no backend could name; the
    // bare address for one outside every module.
    auto top = ok(db, "/api/runs/1/top?group=stack&limit=100");
    bool demangled = false, unnamed = false, outside = false;
    for (auto &e : top["entries"].a)
        for (auto &fr : e["frames"].a) {
            demangled = demangled || fr["name"].str() == "il2cpp::vm::Object::New(Il2CppClass*)";
            unnamed = unnamed || fr["name"].str().rfind("libil2cpp.so+0x", 0) == 0;
            outside = outside || fr["name"].str() == "0x1234";
        }
    REQUIRE(demangled);
    REQUIRE(unnamed);
    REQUIRE(outside);
    auto deaths = ok(db, "/api/runs/2/frames/29");
    REQUIRE(deaths["deaths"].size() == 1);
    REQUIRE(deaths["deaths"][0]["full_name"].str() == "Node");
}

TEST_CASE("viewer: TopN by class, site and stack, bytes or count, whole run or range", "[viewer][query]") {
    Database db(fixture_db());
    const auto path = fixture_db();
    auto t = ok(db, "/api/runs/1/top");
    REQUIRE(t["range"]["whole"].b);
    REQUIRE(t["entries"][0]["full_name"].str() == "System.String");
    REQUIRE(t["entries"][0]["requested_bytes"].i() ==
            sql_int(path, "SELECT sum(a.requested_bytes) FROM allocs a JOIN classes c ON c.run_id=a.run_id AND "
                          "c.class_id=a.class_id WHERE a.run_id=1 AND c.full_name='System.String'"));
    auto byc = ok(db, "/api/runs/1/top?by=count&group=site");
    REQUIRE(byc["entries"][0]["function"].str() == "Hud.UpdateText");
    REQUIRE(byc["entries"][0]["count"].i() >= byc["entries"][1]["count"].i());
    auto range = ok(db, "/api/runs/2/top?from=100&to=149&group=class&limit=2");
    REQUIRE_FALSE(range["range"]["whole"].b);
    REQUIRE(range["entries"].size() == 2);
    REQUIRE(range["next_offset"].i() == 2);
    REQUIRE(range["totals"]["count"].i() ==
            sql_int(path, "SELECT sum(count) FROM allocs WHERE run_id=2 AND seq BETWEEN 100 AND 149"));
    auto st = ok(db, "/api/runs/2/top?group=stack&limit=1");
    REQUIRE(st["entries"][0]["frames"].size() >= 5);
    REQUIRE(st["entries"][0]["classes"].size() >= 1);
}

TEST_CASE("viewer: compare runs by class: matched by full name, new and vanished, sorted by growth", "[viewer][query]") {
    Database db(fixture_db());
    auto c = ok(db, "/api/compare?a=1&b=2&limit=100");
    REQUIRE(c["match"].str() == "full_name");
    REQUIRE(c["counts"]["new"].i() == 1);
    REQUIRE(c["counts"]["vanished"].i() == 1);
    const auto &e = c["entries"];
    auto *enemy = find(e, "full_name", "Enemy");
    auto *temp = find(e, "full_name", "TempBuffer");
    auto *str = find(e, "full_name", "System.String");
    REQUIRE(enemy);
    REQUIRE(temp);
    REQUIRE(str);
    REQUIRE((*enemy)["status"].str() == "new");
    REQUIRE((*temp)["status"].str() == "vanished");
    REQUIRE((*temp)["delta"]["requested_bytes"].i() == -(*temp)["a"]["requested_bytes"].i());
    // Class ids differ between the runs; the name matched them.
    REQUIRE((*str)["status"].str() == "changed");
    REQUIRE((*str)["b"]["count"].i() ==
            sql_int(fixture_db(), "SELECT sum(a.count) FROM allocs a JOIN classes c ON c.run_id=a.run_id AND "
                                  "c.class_id=a.class_id WHERE a.run_id=2 AND c.full_name='System.String'"));
    for (size_t i = 1; i < e.size(); ++i) REQUIRE(e[i]["growth"].n <= e[i - 1]["growth"].n);
    REQUIRE(e[e.size() - 1]["full_name"].str() == "TempBuffer");  // the biggest shrink is last
    auto only_new = ok(db, "/api/compare?a=1&b=2&only=new");
    REQUIRE(only_new["entries"].size() == 1);
}

TEST_CASE("viewer: compare sites: by function across builds, by place within one build, frame ranges", "[viewer][query]") {
    Database db(fixture_db());
    // Build 2 moved Hud.UpdateText's allocation three lines down: still one matched entry.
    auto c = ok(db, "/api/compare?a=1&b=2&group=site&limit=100");
    REQUIRE(c["match"].str() == "function");
    auto *hud = find(c["entries"], "function", "Hud.UpdateText");
    REQUIRE(hud);
    REQUIRE((*hud)["status"].str() == "changed");
    REQUIRE((*hud)["line"].i() == 34);  // where build b allocates
    auto *enemy = find(c["entries"], "function", "Enemy.Spawn");
    REQUIRE(enemy);
    REQUIRE((*enemy)["status"].str() == "new");
    auto strict = ok(db, "/api/compare?a=1&b=2&group=site&match=location&limit=100");
    REQUIRE(strict["counts"]["new"].i() == 2);  // Enemy.Spawn and Hud.UpdateText:34
    // Two ranges of one run (same build): matched by function/file/line.
    auto r = ok(db, "/api/compare?a=2&b=2&a_from=0&a_to=49&b_from=250&b_to=299&group=class&limit=100");
    REQUIRE(r["a"]["frames"].i() == 50);
    auto *list = find(r["entries"], "full_name", "System.Collections.Generic.List`1");
    REQUIRE(list);
    REQUIRE((*list)["delta"]["count"].i() > 0);  // List`1 grows through run 2
    REQUIRE(r["a"]["totals"]["count"].i() ==
            sql_int(fixture_db(), "SELECT sum(count) FROM allocs WHERE run_id=2 AND seq BETWEEN 0 AND 49"));
    auto rs = ok(db, "/api/compare?a=2&b=2&a_from=0&a_to=49&b_from=250&b_to=299&group=site");
    REQUIRE(rs["match"].str() == "function_file_line");
    auto pf = ok(db, "/api/compare?a=1&b=2&normalize=per_frame");
    REQUIRE(pf["normalize"].str() == "per_frame");
}

TEST_CASE("viewer: flame graph, collapsed stacks and Chrome trace", "[viewer][query]") {
    Database db(fixture_db());
    auto f = ok(db, "/api/runs/1/flame?min_share=0");
    const auto &root = f["root"];
    int64_t kids = 0;
    for (auto &k : root["children"].a) kids += k["value"].i();
    REQUIRE(kids == root["value"].i());  // root = all; its children are the outermost frames
    REQUIRE(root["children"][0]["name"].str() == "main");
    auto pruned = ok(db, "/api/runs/1/flame?min_share=0.5");
    REQUIRE(pruned["nodes"].i() == f["nodes"].i());
    REQUIRE(pruned["root"]["children"].size() == 1);
    auto noclass = ok(db, "/api/runs/1/flame?classes=0&by=count");
    REQUIRE(noclass["by"].str() == "count");
    auto col = mt::viewer::handle(db, mt::viewer::parse_target("/api/runs/1/collapsed"));
    REQUIRE(col.content_type.rfind("text/plain", 0) == 0);
    REQUIRE(col.filename == "run-1.collapsed.txt");
    REQUIRE(col.body.find("main;PlayerLoop();Game.Tick;Game.Update;Hud.UpdateText;String.Concat;") != std::string::npos);
    auto tr = ok(db, "/api/runs/1/trace");
    int gcs = 0, counters = 0;
    for (auto &e : tr["traceEvents"].a) {
        gcs += e["ph"].str() == "X" && e.has("cat") && e["cat"].str() == "gc";
        counters += e["ph"].str() == "C";
        if (e["ph"].str() == "C") REQUIRE(e["args"].kind == JValue::Object);
    }
    REQUIRE(gcs == 8);
    REQUIRE(counters == 240 * 3);
}

TEST_CASE("viewer: database open errors say what is wrong", "[viewer][query]") {
    REQUIRE_THROWS_WITH(Database("/nonexistent/dir/run.db"), Catch::Contains("cannot open database"));
    REQUIRE_THROWS_WITH(Database(MT_VIEWER_NOT_A_DB), Catch::Contains("not a MemTracer database"));
}

TEST_CASE("viewer: the flame graph starts each stack after its allocation machinery", "[viewer][query]") {
    // Every fixture stack of run 1 starts GC_malloc_kind, then il2cpp's Object::New,
    // String::NewSize or Array::NewSpecific: two frames of machinery (stacks.machinery), as the
    // symbolizer counts them. Written on a copy; the fixture itself has nothing trimmed.
    auto path = (std::filesystem::temp_directory_path() / ("mt-machinery-" + std::to_string(getpid()) + ".db")).string();
    std::filesystem::copy_file(fixture_db(), path, std::filesystem::copy_options::overwrite_existing);
    struct Cleanup {
        std::string p;
        ~Cleanup() { std::filesystem::remove(p); }
    } cleanup{path};
    auto collapsed = [](Database &db) { return mt::viewer::handle(db, mt::viewer::parse_target("/api/runs/1/collapsed")).body; };
    {
        Database before(path);
        std::string all = collapsed(before);
        REQUIRE(all.find("GC_malloc_kind") != std::string::npos);
        REQUIRE(all.find("il2cpp::vm::String::NewSize") != std::string::npos);
    }
    {
        auto w = mt::store::Db::open(path, false);
        w.exec("UPDATE stacks SET machinery = 2 WHERE run_id = 1");
    }
    Database db(path);
    std::string trimmed = collapsed(db);
    CHECK(trimmed.find("GC_malloc_kind") == std::string::npos);
    CHECK(trimmed.find("il2cpp::vm::") == std::string::npos);
    // The frame after the machinery is now the innermost, its class right after it.
    CHECK(trimmed.find("main;PlayerLoop();Game.Tick;Game.Update;Hud.UpdateText;String.Concat;System.String ") != std::string::npos);
    auto f = ok(db, "/api/runs/1/flame?min_share=0");
    auto whole = ok(db, "/api/runs/1/top?limit=1");
    CHECK(f["root"]["value"].i() == whole["totals"]["requested_bytes"].i());  // nothing lost, only frames
    // Run 2 (nothing trimmed) still shows its machinery, and a stack's own frames keep it too.
    CHECK(mt::viewer::handle(db, mt::viewer::parse_target("/api/runs/2/collapsed")).body.find("GC_malloc_kind") != std::string::npos);
}
