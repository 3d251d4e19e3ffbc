// The one filter (class, function, thread, frame range) on every endpoint that lists
// allocations, and the search endpoint: exact numbers of the fixture (fixture_shape.cpp, fixed
// seed), each also derived by SQL written here independently of the query layer.
#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
// Allocations of run `run` whose class full name contains `cls` and whose stack has a frame
// named (C#, demangled or raw) with `fn`, lowercase needles; "" = no condition.
std::string where(int run, const std::string &cls, const std::string &fn) {
    std::string r = std::to_string(run);
    std::string w = "run_id=" + r;
    if (!cls.empty())
        w += " AND class_id IN (SELECT class_id FROM classes WHERE run_id=" + r + " AND lower(full_name) LIKE '%" +
             cls + "%')";
    if (!fn.empty())
        w += " AND stack_id IN (SELECT sf.stack_id FROM stack_frames sf JOIN symbols s USING(addr_id) WHERE sf.run_id=" +
             r + " AND (lower(s.csharp) LIKE '%" + fn + "%' OR lower(s.demangled) LIKE '%" + fn +
             "%' OR lower(s.function) LIKE '%" + fn + "%'))";
    return w;
}

int64_t sum(const std::string &col, const std::string &w) {
    return sql_int(fixture_db(), "SELECT coalesce(sum(" + col + "),0) FROM allocs WHERE " + w);
}

const JValue *entry(const JValue &arr, const std::string &key, const std::string &value) {
    for (auto &e : arr.a)
        if (e.has(key) && e[key].str() == value) return &e;
    return nullptr;
}
}  // namespace

TEST_CASE("viewer: filter by class: TopN, whole run and range, case-insensitive", "[viewer][query][filter]") {
    Database db(fixture_db());
    auto t = ok(db, "/api/runs/1/top?class=NODE");
    REQUIRE(t["filter"]["class"].str() == "NODE");
    REQUIRE(t["entries"].size() == 2);  // Node and Node[]
    REQUIRE(t["totals"]["count"].i() == 2087);
    REQUIRE(t["totals"]["requested_bytes"].i() == 134976);
    REQUIRE(t["totals"]["gc_bytes"].i() == 136176);
    REQUIRE(t["totals"]["count"].i() == sum("count", where(1, "node", "")));
    // The share is of what the filter keeps.
    REQUIRE(t["entries"][0]["share"].n + t["entries"][1]["share"].n == Approx(1.0));
    auto r = ok(db, "/api/runs/2/top?class=string&from=10&to=12");
    REQUIRE(r["totals"]["count"].i() == 33);
    REQUIRE(r["totals"]["requested_bytes"].i() == 2016);
    REQUIRE(r["totals"]["count"].i() == sum("count", where(2, "string", "") + " AND seq BETWEEN 10 AND 12"));
    // No filter: no "filter" member, the answer is what it was.
    REQUIRE_FALSE(ok(db, "/api/runs/1/top").has("filter"));
}

TEST_CASE("viewer: filter by function: any frame, C# or native name, inline chains", "[viewer][query][filter]") {
    Database db(fixture_db());
    auto link = ok(db, "/api/runs/1/top?function=Graph.Link");
    REQUIRE(link["totals"]["count"].i() == 630);
    REQUIRE(link["totals"]["requested_bytes"].i() == 65040);
    REQUIRE(link["totals"]["count"].i() == sum("count", where(1, "", "graph.link")));
    // Node..ctor is only ever inlined into NodeFactory.CreateNode: the chain is searched too.
    REQUIRE(ok(db, "/api/runs/1/top?function=node..ctor")["totals"]["count"].i() == 1937);
    // A demangled C++ name and an IL2CPP raw name.
    REQUIRE(ok(db, "/api/runs/1/top?function=il2cpp::vm::String")["totals"]["count"].i() == 2420);
    REQUIRE(ok(db, "/api/runs/1/top?function=String_Concat")["totals"]["count"].i() == 2366);
    // Nothing matches: an empty answer, not an error.
    auto none = ok(db, "/api/runs/1/top?function=NoSuchFunction");
    REQUIRE(none["entries"].size() == 0);
    REQUIRE(none["totals"]["count"].i() == 0);
}

TEST_CASE("viewer: class, function and range together on every endpoint", "[viewer][query][filter]") {
    Database db(fixture_db());
    const std::string f = "class=node&function=Graph.Link";
    const std::string w = where(1, "node", "graph.link") + " AND seq BETWEEN 0 AND 99";
    auto t = ok(db, "/api/runs/1/top?from=0&to=99&" + f);
    REQUIRE(t["totals"]["count"].i() == 257);
    REQUIRE(t["totals"]["requested_bytes"].i() == 27880);
    REQUIRE(t["totals"]["count"].i() == sum("count", w));
    REQUIRE(t["entries"][0]["full_name"].str() == "Node[]");
    REQUIRE(t["entries"][0]["requested_bytes"].i() == 18760);
    REQUIRE(t["entries"][1]["full_name"].str() == "Node");
    REQUIRE(t["entries"][1]["count"].i() == 190);
    auto site = ok(db, "/api/runs/1/top?group=site&from=0&to=99&" + f);
    REQUIRE(site["totals"]["count"].i() == 257);
    auto fl = ok(db, "/api/runs/1/flame?min_share=0&from=0&to=99&" + f);
    REQUIRE(fl["root"]["value"].i() == 27880);
    REQUIRE(fl["filter"]["function"].str() == "Graph.Link");
    auto col = mt::viewer::handle_target(db, "/api/runs/1/collapsed?from=0&to=99&" + f);
    REQUIRE(col.status == 200);
    REQUIRE(col.body.find("Graph.Link") != std::string::npos);
    REQUIRE(col.body.find("Hud.UpdateText") == std::string::npos);
    // Series: the allocation columns under the filter, frame by frame.
    auto s = ok(db, "/api/runs/2/frames?from=10&to=12&class=string");
    REQUIRE(s["alloc_count"][0].i() == 12);
    REQUIRE(s["alloc_count"][1].i() == 12);
    REQUIRE(s["alloc_count"][2].i() == 9);
    REQUIRE(s["requested_bytes"][0].i() == 728);
    REQUIRE(s["requested_bytes"][2].i() == sum("requested_bytes", where(2, "string", "") + " AND seq=12"));
    REQUIRE(s["heap_size"][0].i() == sql_int(fixture_db(), "SELECT heap_size FROM frames WHERE run_id=2 AND seq=10"));
    // One frame: only the classes the filter keeps.
    auto fr = ok(db, "/api/runs/1/frames/29?class=string");
    REQUIRE(fr["classes"].size() == 1);
    REQUIRE(fr["classes"][0]["count"].i() == 7);
    REQUIRE(fr["classes"][0]["requested_bytes"].i() == 408);
    // Compare: both sides filtered by name (the runs' class ids differ).
    auto c = ok(db, "/api/compare?a=1&b=2&class=string");
    REQUIRE(c["a"]["totals"]["count"].i() == 2420);
    REQUIRE(c["b"]["totals"]["count"].i() == 3163);
    REQUIRE(c["entries"].size() == 1);
    REQUIRE(c["b"]["totals"]["count"].i() == sum("count", where(2, "string", "")));
    // Chrome trace: the allocation counters count what the filter keeps.
    auto tr = ok(db, "/api/runs/2/trace?from=10&to=10&class=string");
    bool seen = false;
    for (auto &e : tr["traceEvents"].a)
        if (e["ph"].str() == "C" && e["name"].str() == "Allocations") {
            REQUIRE(e["args"]["count"].i() == 12);
            seen = true;
        }
    REQUIRE(seen);
}

TEST_CASE("viewer: filter errors are 400s naming the parameter", "[viewer][query][filter]") {
    Database db(fixture_db());
    CHECK(error_param(db, "/api/runs/1/top?class=", 400) == "class");
    CHECK(error_param(db, "/api/runs/1/flame?function=", 400) == "function");
    CHECK(error_param(db, "/api/runs/1/top?class=" + std::string(300, 'a'), 400) == "class");
    CHECK(error_param(db, "/api/runs/1/top?class=a&class=b", 400) == "class");
    CHECK(error_param(db, "/api/runs/1/frames?thread=nosuch", 400) == "thread");
    CHECK(error_param(db, "/api/runs/1/frames/3?thread=7", 400) == "thread");
    // A thread the run does not have (test_query_threads.cpp has the rest of the thread filter).
    CHECK(error_param(db, "/api/runs/1/top?thread=main,nosuch", 400) == "thread");
    CHECK(error_param(db, "/api/compare?a=1&b=2&class=", 400) == "class");
    CHECK(error_param(db, "/api/runs/1/trace?function=", 400) == "function");
    // SQL text in a filter is a value, never SQL.
    auto inj = ok(db, "/api/runs/1/top?class=%27)%20OR%201=1--");
    REQUIRE(inj["entries"].size() == 0);
}

TEST_CASE("viewer: search finds classes and functions, ranked and bounded", "[viewer][query][search]") {
    Database db(fixture_db());
    auto s = ok(db, "/api/runs/1/search?q=node");
    REQUIRE(s["total_classes"].i() == 2);
    REQUIRE(s["classes"][0]["full_name"].str() == "Node");  // exact before prefix
    REQUIRE(s["classes"][0]["match"].str() == "exact");
    REQUIRE(s["classes"][0]["count"].i() == 1937);
    REQUIRE(s["classes"][1]["full_name"].str() == "Node[]");
    REQUIRE(s["classes"][1]["requested_bytes"].i() == 42000);
    REQUIRE(s["total_functions"].i() == 2);
    auto *ctor = entry(s["functions"], "name", "Node..ctor");
    REQUIRE(ctor);
    REQUIRE((*ctor)["kind"].str() == "csharp");
    REQUIRE((*ctor)["file"].str() == "Assets/Scripts/Node.cs");
    REQUIRE((*ctor)["line"].i() == 12);
    REQUIRE((*ctor)["count"].i() == sum("count", where(1, "", "node..ctor")));
    // Functions by native name; exact beats substring whatever the bytes.
    auto g = ok(db, "/api/runs/1/search?q=GC_MALLOC_KIND");
    REQUIRE(g["functions"][0]["name"].str() == "GC_malloc_kind");
    REQUIRE(g["functions"][0]["kind"].str() == "native");
    REQUIRE(g["functions"][0]["match"].str() == "exact");
    REQUIRE(g["functions"][0]["count"].i() == 5074);  // every allocation goes through it
    auto u = ok(db, "/api/runs/1/search?q=update");
    REQUIRE(u["functions"][0]["name"].str() == "Game.Update");  // the method is named so
    REQUIRE(u["functions"][0]["match"].str() == "exact");  // its method name is the word
    // Bounded: limit caps each list, the totals still count every match.
    auto lim = ok(db, "/api/runs/1/search?q=e&limit=2");
    REQUIRE(lim["classes"].size() == 2);
    REQUIRE(lim["functions"].size() == 2);
    REQUIRE(lim["total_functions"].i() > 2);
    CHECK(error_param(db, "/api/runs/1/search", 400) == "q");
    CHECK(error_param(db, "/api/runs/1/search?q=", 400) == "q");
    CHECK(error_param(db, "/api/runs/1/search?q=a&limit=0", 400) == "limit");
    CHECK(error_param(db, "/api/runs/9/search?q=a", 404) == "run");
}

TEST_CASE("viewer: inverted flame and C# methods: who allocates, then their callers", "[viewer][query][flame]") {
    Database db(fixture_db());
    auto inv = ok(db, "/api/runs/1/flame?invert=1&classes=0&frames=csharp&min_share=0");
    REQUIRE(inv["inverted"].b);
    REQUIRE(inv["frames"].str() == "csharp");
    const auto &top = inv["root"]["children"];
    // String.Concat allocates for Hud.UpdateText and Cache.Put; il2cpp::vm::String::NewSize and
    // GC_malloc_kind below it have no C# name and are folded into it.
    REQUIRE(top[0]["name"].str() == "String.Concat");
    REQUIRE(top[0]["value"].i() == 144704);
    REQUIRE(top[0]["value"].i() ==
            sum("requested_bytes", where(1, "", "string.concat")));
    REQUIRE(top[0]["children"][0]["name"].str() == "Hud.UpdateText");
    REQUIRE(top[0]["children"][0]["value"].i() == 136064);
    REQUIRE(top[0]["children"][1]["name"].str() == "Cache.Put");
    REQUIRE(top[0]["children"][1]["value"].i() == 8640);
    // Node..ctor (inlined into CreateNode) is a method of its own, with its C# line.
    auto *ctor = entry(top, "name", "Node..ctor");
    REQUIRE(ctor);
    REQUIRE((*ctor)["value"].i() == 92976);
    REQUIRE((*ctor)["location"].str() == "Assets/Scripts/Node.cs:12");
    REQUIRE((*ctor)["children"][0]["name"].str() == "NodeFactory.CreateNode");
    // A stack whose inner frame has no name at all: its weight lands on the C# caller.
    auto *hud = entry(top, "name", "Hud.UpdateText");
    REQUIRE(hud);
    REQUIRE((*hud)["value"].i() == 2808);
    int64_t sum_top = 0;
    for (auto &k : top.a) sum_top += k["value"].i();
    REQUIRE(sum_top == inv["root"]["value"].i());
    // Inverted with classes: the class is the root's child, then the allocating frame.
    auto inv_c = ok(db, "/api/runs/1/flame?invert=1&min_share=0");
    REQUIRE(inv_c["root"]["children"][0]["name"].str() == "System.String");
    REQUIRE(inv_c["root"]["children"][0]["class"].b);
    REQUIRE(inv_c["root"]["children"][0]["value"].i() == 147512);
    REQUIRE(inv_c["root"]["children"][0]["children"][0]["name"].str() == "GC_malloc_kind");
    // Not inverted, C# methods: no native root (main, PlayerLoop(), the 0x1234 trampoline).
    auto cs = ok(db, "/api/runs/1/flame?frames=csharp&min_share=0");
    REQUIRE(cs["root"]["children"].size() == 1);
    REQUIRE(cs["root"]["children"][0]["name"].str() == "Game.Tick");
    REQUIRE(cs["root"]["children"][0]["location"].str() == "Assets/Scripts/Game.cs:40");
    auto col = mt::viewer::handle_target(db, "/api/runs/1/collapsed?frames=csharp&classes=0");
    REQUIRE(col.body.find("Game.Tick;Game.Update;Hud.UpdateText;String.Concat 136064\n") != std::string::npos);
    CHECK(error_param(db, "/api/runs/1/flame?frames=cs", 400) == "frames");
    CHECK(error_param(db, "/api/runs/1/flame?invert=2", 400) == "invert");
}

TEST_CASE("viewer: speedscope file: schema fields, frames with file and line, weights", "[viewer][query][flame]") {
    Database db(fixture_db());
    auto r = mt::viewer::handle_target(db, "/api/runs/1/speedscope");
    REQUIRE(r.status == 200);
    REQUIRE(r.filename == "run-1.speedscope.json");
    auto s = parse_json(r.body);
    REQUIRE(s["$schema"].str() == "https://www.speedscope.app/file-format-schema.json");
    REQUIRE(s["activeProfileIndex"].i() == 0);
    const auto &frames = s["shared"]["frames"];
    REQUIRE(frames.size() > 10);
    const auto &p = s["profiles"][0];
    REQUIRE(p["type"].str() == "sampled");
    REQUIRE(p["unit"].str() == "bytes");
    REQUIRE(p["startValue"].i() == 0);
    REQUIRE(p["samples"].size() == p["weights"].size());
    int64_t total = 0;
    for (auto &w : p["weights"].a) total += w.i();
    REQUIRE(total == 316480);  // run 1's requested bytes
    REQUIRE(p["endValue"].i() == total);
    for (auto &smp : p["samples"].a)
        for (auto &k : smp.a) REQUIRE((k.i() >= 0 && k.i() < static_cast<int64_t>(frames.size())));
    auto *hud = entry(frames, "name", "Hud.UpdateText");
    REQUIRE(hud);
    REQUIRE((*hud)["file"].str() == "Assets/Scripts/Hud.cs");
    REQUIRE((*hud)["line"].i() == 31);
    // Counts, under a filter: unit none, only what the filter keeps.
    auto c = parse_json(mt::viewer::handle_target(db, "/api/runs/1/speedscope?by=count&class=node").body);
    REQUIRE(c["profiles"][0]["unit"].str() == "none");
    REQUIRE(c["profiles"][0]["endValue"].i() == 2087);
}

TEST_CASE("viewer: long ranges from cached block sums plus their ends, exactly", "[viewer][query][filter]") {
    Database db(fixture_db());
    // Answered from the per-block sums (blocks.h) plus scans of the partial ends.
    for (const std::string f : {"", "&class=node", "&function=Graph.Link", "&class=string&function=hud"}) {
        for (auto [from, to] : {std::pair{10, 239}, std::pair{0, 200}, std::pair{5, 230}, std::pair{0, 238},
                                std::pair{5, 220}, std::pair{20, 120}}) {
            std::string cls = f.find("class=node") != std::string::npos ? "node" : f.find("class=string") != std::string::npos ? "string" : "";
            std::string fn = f.find("Graph.Link") != std::string::npos ? "graph.link" : f.find("hud") != std::string::npos ? "hud" : "";
            std::string rng = " AND seq BETWEEN " + std::to_string(from) + " AND " + std::to_string(to);
            auto t = ok(db, "/api/runs/1/top?group=stack&limit=1000&from=" + std::to_string(from) + "&to=" + std::to_string(to) + f);
            INFO(f << " " << from << ".." << to);
            REQUIRE(t["totals"]["count"].i() == sum("count", where(1, cls, fn) + rng));
            REQUIRE(t["totals"]["gc_bytes"].i() == sum("gc_bytes", where(1, cls, fn) + rng));
            // Per stack too, and no entry that allocated nothing in the range.
            for (auto &e : t["entries"].a) {
                REQUIRE(e["count"].i() > 0);
                REQUIRE(e["requested_bytes"].i() ==
                        sum("requested_bytes", where(1, cls, fn) + rng + " AND stack_id=" + std::to_string(e["stack_id"].i())));
            }
        }
    }
    auto r = ok(db, "/api/runs/1/top?from=10&to=239");
    REQUIRE(r["totals"]["count"].i() == 4878);
    // Block edges (32-frame blocks for these runs): ranges starting, ending and lying on them.
    for (auto [from, to] : {std::pair{64, 191}, std::pair{63, 192}, std::pair{33, 100}, std::pair{0, 95},
                            std::pair{31, 299}, std::pair{32, 63}, std::pair{96, 287},
                            // ends over half a block: the whole block minus what lies outside
                            std::pair{40, 270}, std::pair{40, 281}, std::pair{5, 220}, std::pair{50, 299}}) {
        for (const std::string f : {"", "&class=string", "&function=Graph"}) {
            std::string cls = f == "&class=string" ? "string" : "", fn = f == "&function=Graph" ? "graph" : "";
            std::string rng = " AND seq BETWEEN " + std::to_string(from) + " AND " + std::to_string(to);
            INFO(f << " " << from << ".." << to);
            auto t = ok(db, "/api/runs/2/top?group=stack&limit=1000&from=" + std::to_string(from) + "&to=" +
                                std::to_string(to) + f);
            REQUIRE(t["totals"]["requested_bytes"].i() == sum("requested_bytes", where(2, cls, fn) + rng));
            for (auto &e : t["entries"].a)
                REQUIRE(e["count"].i() ==
                        sum("count", where(2, cls, fn) + rng + " AND stack_id=" + std::to_string(e["stack_id"].i())));
        }
    }
}

TEST_CASE("viewer: filter by kind: native heaps or managed classes (MT_CLASS_NATIVE), and a bad kind is a 400", "[viewer][query][filter]") {
    Database db(fixture_db());
    // The fixture's classes are all managed: kind=managed keeps everything, kind=native nothing.
    auto all = ok(db, "/api/runs/1/top");
    auto managed = ok(db, "/api/runs/1/top?kind=managed");
    REQUIRE(managed["filter"]["kind"].str() == "managed");
    REQUIRE(managed["totals"]["count"].i() == all["totals"]["count"].i());
    REQUIRE(managed["totals"]["count"].i() == sum("count", "run_id=1"));
    auto native = ok(db, "/api/runs/1/top?kind=native");
    REQUIRE(native["totals"]["count"].i() == 0);
    REQUIRE(native["entries"].size() == 0);
    // With another filter part: both apply.
    auto node = ok(db, "/api/runs/1/top?class=node&kind=managed");
    REQUIRE(node["totals"]["count"].i() == 2087);
    REQUIRE(ok(db, "/api/runs/1/top?class=node&kind=native")["totals"]["count"].i() == 0);
    REQUIRE(error_param(db, "/api/runs/1/top?kind=unmanaged", 400) == "kind");
}
