// fixture_shape.cpp — see fixture_shape.h. The shape, draw for draw, of the Python generator the
// tests' literal numbers were first taken from (py_random.h): the same tables, the same order of
// random draws, the same rows.
#include "fixture_shape.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "memtracer/store/batch_insert.h"
#include "memtracer/store/schema.h"
#include "memtracer/store/shapes.h"
#include "memtracer/store/writer_sql.h"
#include "py_random.h"

namespace mt::fixture {

namespace {

using store::BatchInsert;
using store::Db;
using store::Stmt;
namespace sql = store::sql;

const char *const kGameModule = "/data/app/com.example.game/lib/arm64/libil2cpp.so";
const char *build_id(int build) {
    return build == 1 ? "5f1c2a9e0b7d4c3a8e6f1b2d3c4a5e6f" : "9a8b7c6d5e4f30211203f4e5d6c7b8a9";
}

struct Func {
    std::string raw, cs, file;
    int64_t line;
    std::string cs_file;
    int64_t cs_line;
    bool game;
};

std::map<std::string, Func> g_funcs = {
    {"gc_malloc", {"GC_malloc_kind", "", "bdwgc/malloc.c", 310, "", 0, false}},
    {"obj_new", {"_ZN6il2cpp2vm6Object3NewEP11Il2CppClass", "", "libil2cpp/vm/Object.cpp", 97, "", 0, false}},
    {"str_new", {"_ZN6il2cpp2vm6String7NewSizeEi", "", "libil2cpp/vm/String.cpp", 51, "", 0, false}},
    {"arr_new", {"_ZN6il2cpp2vm5Array11NewSpecificEP11Il2CppClassj", "", "libil2cpp/vm/Array.cpp", 80, "", 0, false}},
    {"node_ctor", {"Node__ctor_mA1B2C3", "Node..ctor", "il2cppOutput/Assembly-CSharp.cpp", 1204, "Assets/Scripts/Node.cs", 12, true}},
    {"create_node", {"NodeFactory_CreateNode_m5E6F70", "NodeFactory.CreateNode", "il2cppOutput/Assembly-CSharp.cpp", 1260,
                     "Assets/Scripts/NodeFactory.cs", 42, true}},
    {"list_add", {"List_1_Add_mE2D1_gshared", "List`1.Add", "il2cppOutput/Generics.cpp", 880, "", 0, false}},
    {"list_grow", {"List_1_set_Capacity_m3C4D_gshared", "List`1.set_Capacity", "il2cppOutput/Generics.cpp", 912, "", 0, false}},
    {"concat", {"String_Concat_m11AA22", "String.Concat", "il2cppOutput/mscorlib.cpp", 20411, "", 0, false}},
    {"hud_text", {"Hud_UpdateText_m7788AA", "Hud.UpdateText", "il2cppOutput/Assembly-CSharp.cpp", 2050, "Assets/Scripts/Hud.cs", 31, true}},
    {"graph_build", {"Graph_Build_m99AB01", "Graph.Build", "il2cppOutput/Assembly-CSharp.cpp", 1402, "Assets/Scripts/Graph.cs", 58, true}},
    {"graph_link", {"Graph_Link_m42CD77", "Graph.Link", "il2cppOutput/Assembly-CSharp.cpp", 1460, "Assets/Scripts/Graph.cs", 77, true}},
    {"level_chunk", {"Level_LoadChunk_m0F0E0D", "Level.LoadChunk", "il2cppOutput/Assembly-CSharp.cpp", 3310, "Assets/Scripts/Level.cs", 120, true}},
    {"enemy_spawn", {"Enemy_Spawn_m1A2B3C", "Enemy.Spawn", "il2cppOutput/Assembly-CSharp.cpp", 3900, "Assets/Scripts/Enemy.cs", 25, true}},
    {"dict_insert", {"Dictionary_2_TryInsert_m5A5B_gshared", "Dictionary`2.TryInsert", "il2cppOutput/Generics.cpp", 1540, "", 0, false}},
    {"cache_put", {"Cache_Put_m3E3E3E", "Cache.Put", "il2cppOutput/Assembly-CSharp.cpp", 2600, "Assets/Scripts/Cache.cs", 18, true}},
    {"game_update", {"Game_Update_m0A0B0C", "Game.Update", "il2cppOutput/Assembly-CSharp.cpp", 500, "Assets/Scripts/Game.cs", 64, true}},
    {"game_tick", {"Game_Tick_m1D1E1F", "Game.Tick", "il2cppOutput/Assembly-CSharp.cpp", 470, "Assets/Scripts/Game.cs", 40, true}},
    {"player_loop", {"_Z10PlayerLoopv", "", "Runtime/Misc/PlayerLoop.cpp", 1120, "", 0, false}},
    {"main", {"main", "", "main.cpp", 22, "", 0, false}},
};

std::string demangled(const std::string &raw) {
    static const std::map<std::string, std::string> names = {
        {"_ZN6il2cpp2vm6Object3NewEP11Il2CppClass", "il2cpp::vm::Object::New(Il2CppClass*)"},
        {"_ZN6il2cpp2vm6String7NewSizeEi", "il2cpp::vm::String::NewSize(int)"},
        {"_ZN6il2cpp2vm5Array11NewSpecificEP11Il2CppClassj", "il2cpp::vm::Array::NewSpecific(Il2CppClass*, unsigned int)"},
        {"_Z10PlayerLoopv", "PlayerLoop()"},
    };
    auto it = names.find(raw);
    return it == names.end() ? raw : it->second;
}

struct ClassDef {
    std::string key, ns, name;
    int64_t flags, element_size;  // flags: 1 array, 2 string
};
const std::vector<ClassDef> kClasses = {
    {"String", "System", "String", 2, 2},
    {"List", "System.Collections.Generic", "List`1", 0, 0},
    {"Node", "", "Node", 0, 0},
    {"NodeArr", "", "Node[]", 1, 8},
    {"ByteArr", "System", "Byte[]", 1, 1},
    {"Dict", "System.Collections.Generic", "Dictionary`2", 0, 0},
    {"TempBuffer", "", "TempBuffer", 0, 0},
    {"Enemy", "", "Enemy", 0, 0},
};

// A code address: an inline chain, innermost first; nullopt: symbolized, but '??'.
std::map<std::string, std::optional<std::vector<std::string>>> g_addrs = [] {
    std::map<std::string, std::optional<std::vector<std::string>>> m;
    for (const char *k : {"gc_malloc", "obj_new", "str_new", "arr_new", "list_add", "list_grow", "concat", "hud_text",
                          "graph_build", "graph_link", "level_chunk", "enemy_spawn", "dict_insert", "cache_put",
                          "game_update", "game_tick", "player_loop", "main"})
        m[k] = std::vector<std::string>{k};
    m["create_node"] = std::vector<std::string>{"node_ctor", "create_node"};  // Node..ctor inlined into CreateNode
    m["unknown"] = std::nullopt;
    return m;
}();

const std::vector<std::string> kOuter = {"game_update", "game_tick", "player_loop", "main"};

struct StackDef {
    std::string cls;
    double weight;  // allocations per frame
    int64_t size;   // per object
    std::vector<std::string> keys;  // innermost first
    std::vector<int> runs;
};
const std::vector<StackDef> kBaseStacks = {
    {"Node", 6.0, 48, {"gc_malloc", "obj_new", "create_node", "graph_build"}, {1, 2}},
    {"Node", 2.0, 48, {"gc_malloc", "obj_new", "create_node", "graph_link"}, {1, 2}},
    {"NodeArr", 0.6, 280, {"gc_malloc", "arr_new", "list_grow", "list_add", "graph_link"}, {1, 2}},
    {"List", 1.5, 40, {"gc_malloc", "obj_new", "graph_build"}, {1, 2}},
    {"String", 9.0, 64, {"gc_malloc", "str_new", "concat", "hud_text"}, {1, 2}},
    {"String", 1.0, 36, {"gc_malloc", "str_new", "concat", "cache_put"}, {1, 2}},
    {"ByteArr", 0.3, 4120, {"gc_malloc", "arr_new", "level_chunk"}, {1, 2}},
    {"TempBuffer", 0.8, 96, {"gc_malloc", "obj_new", "level_chunk"}, {1}},
    {"Dict", 0.2, 80, {"gc_malloc", "obj_new", "dict_insert", "cache_put"}, {1, 2}},
    {"Enemy", 1.2, 120, {"gc_malloc", "obj_new", "enemy_spawn"}, {2}},
    {"String", 0.4, 52, {"gc_malloc", "str_new", "unknown", "hud_text"}, {1, 2}},
};

// The run's threads: two loading workers share a name (a thread filter by name takes both).
const std::vector<std::pair<int64_t, std::string>> kThreads = {
    {0, "main"}, {1, "Job.Worker 0"}, {2, "Loading.Worker"}, {3, "Loading.Worker"}};

struct Stack {
    std::string cls;
    double weight;
    int64_t size;
    std::vector<std::string> keys;  // with the outer frames
};

uint32_t hash_key(const std::string &k) {  // FNV-1a
    uint32_t h = 2166136261U;
    for (unsigned char c : k) h = (h ^ c) * 16777619U;
    return h;
}

void ensure_synth(const std::string &key, int n) {
    if (g_addrs.count(key)) return;
    char raw[64], cs[64], cs_file[80];
    std::snprintf(raw, sizeof raw, "Gameplay_System%d_Update_m%06X", n, n);
    std::snprintf(cs, sizeof cs, "GameplaySystem%d.Update", n);
    std::snprintf(cs_file, sizeof cs_file, "Assets/Scripts/Systems/System%d.cs", n);
    g_funcs[key] = Func{raw, cs, "il2cppOutput/Assembly-CSharp.cpp", 5000 + n, cs_file, 10 + n % 90, true};
    g_addrs[key] = std::vector<std::string>{key};
}

// The base stacks of this run, then synthetic variants (different callers) up to n_stacks.
std::vector<Stack> stacks_for(int run, int n_stacks, PyRandom &rng) {
    std::vector<Stack> out;
    for (const auto &b : kBaseStacks) {
        if (std::find(b.runs.begin(), b.runs.end(), run) == b.runs.end()) continue;
        Stack s{b.cls, b.weight, b.size, b.keys};
        s.keys.insert(s.keys.end(), kOuter.begin(), kOuter.end());
        out.push_back(s);
    }
    const std::vector<Stack> base = out;
    for (size_t i = 0; static_cast<int>(out.size()) < n_stacks; ++i) {
        const Stack &b = base[i % base.size()];
        Stack v{b.cls, b.weight * rng.uniform(0.01, 0.2), b.size, {}};
        v.keys.assign(b.keys.begin(), b.keys.end() - static_cast<long>(kOuter.size()));
        v.keys.push_back("synth" + std::to_string(i));
        v.keys.insert(v.keys.end(), kOuter.begin(), kOuter.end());
        out.push_back(v);
    }
    return out;
}

struct Site {
    std::string function, file;
    int64_t line;
};
// First game-code frame (innermost game symbol of its inline chain). Build 2 moved the HUD's
// allocation three lines down.
std::optional<Site> site_of(const std::vector<std::string> &keys, int build) {
    for (const auto &key : keys) {
        auto it = g_addrs.find(key);
        if (it == g_addrs.end() || !it->second) continue;
        for (const auto &fk : *it->second) {
            const Func &f = g_funcs.at(fk);
            if (!f.game) continue;
            int64_t shift = build == 2 && fk == "hud_text" ? 3 : 0;
            return Site{f.cs.empty() ? f.raw : f.cs, f.cs_file.empty() ? f.file : f.cs_file, (f.cs_line ? f.cs_line : f.line) + shift};
        }
    }
    return std::nullopt;
}

struct Split {
    int64_t thread, n, requested, gc;
};
// The allocating threads of one (frame, class, stack) row, as the symbolizer splits it (schema
// version 2). Fixed rules, no random numbers, so every figure without a thread filter is that of
// the unsplit rows: stacks 4k+1 are the job worker's; 4k+2 are shared, the worker allocating a
// third of each row; 4k+3 alternate frame by frame between the loading workers; the rest are the
// main thread's.
std::vector<Split> thread_split(int64_t seq, int64_t sid, int64_t n, int64_t rb, int64_t gb) {
    if (sid % 4 == 1) return {{1, n, rb, gb}};
    if (sid % 4 == 2) {
        int64_t k = n / 3;
        std::vector<Split> parts;
        if (n - k > 0) parts.push_back({0, n - k, rb * (n - k) / n, gb * (n - k) / n});
        if (k > 0) parts.push_back({1, k, rb * k / n, gb * k / n});
        return parts;
    }
    if (sid % 4 == 3) return {{2 + seq % 2, n, rb, gb}};
    return {{0, n, rb, gb}};
}

std::string leb128(uint64_t v) {
    std::string out;
    for (;;) {
        uint8_t b = v & 0x7F;
        v >>= 7;
        out.push_back(static_cast<char>(b | (v ? 0x80 : 0)));
        if (!v) return out;
    }
}

struct Age {
    int64_t age, count, gc_bytes;
};
struct DeathSite {
    int64_t seq;
    std::string cls;
    int64_t stack;
    std::vector<Age> ages;
};
// Run 2's deaths linked to their allocations (death_sites): frame 29 is the `deaths` row split by
// stack and age; frame 59 adds HUD strings and an enemy. No more than the fewest the allocation
// loop gives a frame, so no frame dies more than it made. tests/viewer/test_query_lifetimes.cpp
// and tests/report assert from these.
const std::vector<DeathSite> kDeathSites = {
    {29, "Node", 0, {{0, 3, 144}, {1, 3, 144}}},
    {29, "Node", 1, {{5, 1, 48}}},
    {59, "String", 4, {{0, 5, 320}, {2, 5, 320}}},
    {59, "Enemy", 8, {{40, 1, 128}}},
};

class Writer {
public:
    Writer(Db &db, const Shape &shape) : db_(db), shape_(shape), rng_(shape.seed) {}
    void run(int run, int frames);

private:
    int64_t address(int build, const std::string &key, int64_t file_address);
    int64_t site(const Site &s);
    void header(int run, std::map<std::string, int64_t> &class_id);
    int64_t module_key(int build);
    int64_t string_id(const std::string &text);
    void stacks(int run, const std::vector<Stack> &stacks);
    void lifetimes(int run, const std::map<std::string, int64_t> &class_id);

    Db &db_;
    const Shape &shape_;
    PyRandom rng_;
    std::map<std::pair<int, std::string>, int64_t> addr_ids_;
    int64_t next_addr_ = 1;
};

// A name's id in the strings table (schema version 3), added once.
int64_t Writer::string_id(const std::string &text) {
    Stmt ins = db_.prepare(sql::kInsertString);
    ins.bind(1, text).run();
    Stmt find = db_.prepare(sql::kFindString);
    find.bind(1, text);
    if (!find.step()) throw std::runtime_error("string not written: " + text);
    return find.i64(0);
}

// The build's game module in the address cache (schema version 3: address rows refer to it by key).
int64_t Writer::module_key(int build) {
    Stmt find = db_.prepare(sql::kAddressModuleKey);
    find.bind(1, build_id(build)).bind(2, kGameModule);
    if (find.step()) return find.i64(0);
    Stmt ins = db_.prepare(sql::kInsertAddressModule);
    ins.bind(1, build_id(build)).bind(2, kGameModule).run();
    return db_.last_insert_rowid();
}

int64_t Writer::address(int build, const std::string &key, int64_t fa) {
    auto k = std::make_pair(build, key);
    if (auto it = addr_ids_.find(k); it != addr_ids_.end()) return it->second;
    const int64_t aid = next_addr_++;
    BatchInsert addr(db_, sql::kInsertAddresses, 6);
    addr.add(aid).add(module_key(build)).add(fa).add(1).add(0).add(0).end_row();
    BatchInsert sym(db_, sql::kInsertSymbols, 10);
    const auto &chain = g_addrs.at(key);
    if (!chain) {
        const int64_t none = string_id("");
        sym.add(aid).add(0).add(none).add(none).add(none).add(none).add(0).add(0).add(none).add(0).end_row();
    } else {
        for (size_t depth = 0; depth < chain->size(); ++depth) {
            const Func &f = g_funcs.at((*chain)[depth]);
            int64_t cs_line = f.cs_line + (build == 2 && (*chain)[depth] == "hud_text" ? 3 : 0);
            sym.add(aid).add(static_cast<int64_t>(depth)).add(string_id(f.raw)).add(string_id(demangled(f.raw)))
                .add(string_id(f.cs)).add(string_id(f.file)).add(f.line).add(0).add(string_id(f.cs_file)).add(cs_line).end_row();
        }
    }
    addr_ids_[k] = aid;
    return aid;
}

int64_t Writer::site(const Site &s) {
    Stmt ins = db_.prepare(sql::kInsertSite);
    ins.bind(1, s.function).bind(2, s.file).bind(3, s.line).run();
    Stmt find = db_.prepare(sql::kFindSite);
    find.bind(1, s.function).bind(2, s.file).bind(3, s.line);
    if (!find.step()) throw std::runtime_error("site not written: " + s.function);
    return find.i64(0);
}

void Writer::header(int run, std::map<std::string, int64_t> &class_id) {
    const int64_t start_unix = 1'700'000'000'000'000'000 + run * 3'600'000'000'000;
    const char *device = run == 1 ? "Pixel 7" : "iPhone 14";
    Stmt r = db_.prepare(sql::kInsertRun);
    r.bind(1, "/captures/run" + std::to_string(run) + ".mt").bind(2, int64_t{123456} * run).bind(3, start_unix + 1'000'000'000);
    r.bind(4, start_unix).bind(5, 4000 + run).bind(6, "SampleGame").bind(7, device);
    r.bind(8, run == 1 ? "Android 14" : "iOS 17.2").bind(9, "arm64").bind(10, "build " + std::to_string(run) + " nightly");
    r.bind(11, "aggregate").bind(12, 0).bind(13, 1e9).bind(14, run == 2 ? 1 : 0).run();
    if (db_.last_insert_rowid() != run) throw std::runtime_error("the fixture must be written into a new database");
    db_.prepare(sql::kSetThreadSplit).bind(1, run).bind(2, 1).run();
    Stmt info = db_.prepare(sql::kInsertRunInfo);
    for (const auto &[k, v] : std::vector<std::pair<const char *, const char *>>{
             {"process", "SampleGame"}, {"device", device}, {"runtime_version", "0.1.0"}, {"unwinder", "frame-pointer"},
             {"mode", "aggregate"}, {"tick_hz", "1000000000"}})
        info.bind(1, run).bind(2, k).bind(3, v).run();
    db_.prepare(sql::kInsertModule)
        .binds(run, 0, "elf", kGameModule, int64_t{0x7f00000000}, int64_t{0x4000000}, int64_t{0x7f00000000}, 0,
               build_id(run), "/symbols/libil2cpp.so.debug")
        .run();
    Stmt th = db_.prepare(sql::kUpsertThread);
    for (const auto &[t, name] : kThreads) th.bind(1, run).bind(2, t).bind(3, 5000 + 100 * t + run).bind(4, name).run();
    // Run 2 has other classes, numbered the other way round: compare must go by names.
    std::vector<const ClassDef *> keys;
    for (const auto &c : kClasses)
        if (!(c.key == "Enemy" && run == 1) && !(c.key == "TempBuffer" && run == 2)) keys.push_back(&c);
    if (run == 2) std::reverse(keys.begin(), keys.end());
    Stmt cls = db_.prepare(sql::kInsertClass);
    for (size_t i = 0; i < keys.size(); ++i) {
        const ClassDef &c = *keys[i];
        const int64_t id = static_cast<int64_t>(i);
        class_id[c.key] = id;
        cls.bind(1, run).bind(2, id).bind(3, 0x10000000 + 0x100 * id + run).bind(4, c.name).bind(5, c.ns);
        cls.bind(6, c.ns.empty() ? c.name : c.ns + "." + c.name).bind(7, c.flags).bind(8, c.element_size).run();
    }
}

void Writer::stacks(int run, const std::vector<Stack> &stacks) {
    const int build = run;
    const int64_t fa_base = 0x100000 + build * 0x40;  // build 2's code moved: other file addresses
    // Schema version 5: each stack's frames as its shape (store/shapes.h), the module's frames by
    // file address plus the run's bias, as the symbolizer writes them.
    mt::store::ShapeWriter shapes(db_, run);
    BatchInsert rows(db_, sql::kInsertStacks, 6);
    for (size_t sid = 0; sid < stacks.size(); ++sid) {
        const auto &keys = stacks[sid].keys;
        auto s = site_of(keys, build);
        std::optional<int64_t> site_id;
        if (s) site_id = site(*s);
        std::vector<mt::store::ShapeFrame> frames;
        for (size_t pos = 0; pos < keys.size(); ++pos) {
            int64_t fa = fa_base + static_cast<int64_t>(hash_key(keys[pos]) % 0x100000) * 16 + static_cast<int64_t>(pos);
            int64_t aid = address(build, keys[pos], fa);
            frames.push_back({static_cast<uint64_t>(0x7f00000000 + fa), aid, module_key(build), static_cast<uint64_t>(fa)});
        }
        // Stack 0 also has one frame outside every module (a JIT trampoline): addr_id NULL.
        if (sid == 0) frames.push_back({0x1234, 0, 0, 0});
        rows.add(run).add(static_cast<int64_t>(sid)).add(static_cast<int64_t>(frames.size()));
        rows.add(0);
        site_id ? rows.add(*site_id) : rows.add_null();
        rows.add(shapes.shape_of(frames));
        rows.end_row();
    }
}

void Writer::lifetimes(int run, const std::map<std::string, int64_t> &class_id) {
    const int64_t node = class_id.at("Node");
    db_.prepare(sql::kInsertSurvivor).binds(run, node, 0, 25, 25 * 48, 3, 20, 0, 20).run();
    Stmt death = db_.prepare(sql::kInsertDeath);
    death.binds(run, 29, node, 7, 7 * 48).run();
    Stmt site = db_.prepare(sql::kInsertDeathSite);
    for (const auto &d : kDeathSites) {
        std::string blob;
        for (const auto &a : d.ages) blob += leb128(a.age) + leb128(a.count) + leb128(a.gc_bytes);
        // Each stack's deaths are its allocating thread's (none of these stacks is split).
        int64_t thread = thread_split(d.seq, d.stack, 1, 0, 0)[0].thread;
        site.bind(1, run).bind(2, d.seq).bind(3, class_id.at(d.cls)).bind(4, d.stack).bind_blob(5, blob).bind(6, thread).run();
    }
    death.binds(run, 59, class_id.at("String"), 10, 640).run();
    death.binds(run, 59, class_id.at("Enemy"), 1, 128).run();
}

struct Totals {
    int64_t count = 0, requested = 0, gc = 0, first_seq = 0, last_seq = 0;
};

void Writer::run(int run, int frames) {
    std::map<std::string, int64_t> class_id;
    std::vector<Stack> st = stacks_for(run, shape_.stacks, rng_);
    for (const auto &s : st)
        for (const auto &k : s.keys)
            if (k.rfind("synth", 0) == 0) ensure_synth(k, std::stoi(k.substr(5)));
    header(run, class_id);
    stacks(run, st);

    std::map<std::tuple<int64_t, int64_t, int64_t>, Totals> totals;  // (class, stack, thread)
    int64_t heap = 4 << 20, live = 0, gc_no = 0, t = 0;
    const int64_t frame_ns = 16'666'667;
    const double leak = 1.0 + 0.002 * (run - 1);
    int64_t run_count = 0, run_requested = 0, run_gc = 0, run_gcs = 0;
    const size_t pick_n = std::min(static_cast<size_t>(shape_.rows_per_frame), st.size());
    BatchInsert allocs(db_, sql::kInsertAllocs, 8);
    Stmt frame = db_.prepare(sql::kInsertFrame), gc = db_.prepare(sql::kInsertGcEvent), marker = db_.prepare(sql::kInsertMarker);
    std::vector<int64_t> starts;
    for (int64_t seq = 0; seq < frames; ++seq) {
        std::vector<size_t> chosen;
        if (pick_n == st.size())
            for (size_t i = 0; i < st.size(); ++i) chosen.push_back(i);
        else
            chosen = rng_.sample(st.size(), pick_n);
        int64_t fc = 0, frb = 0, fgb = 0;
        for (size_t sid : chosen) {
            const Stack &s = st[sid];
            double growth = s.cls == "List" ? std::min(std::pow(leak, static_cast<double>(seq)), 3.0) : 1.0;
            auto n = static_cast<int64_t>(s.weight * rng_.uniform(0.5, 1.5) * growth * shape_.scale + 0.5);
            if (n == 0) continue;
            int64_t rb = n * s.size, gb = n * ((s.size + 15) / 16 * 16);
            for (const Split &p : thread_split(seq, static_cast<int64_t>(sid), n, rb, gb)) {
                const int64_t cid = class_id.at(s.cls);
                allocs.add(run).add(seq).add(cid).add(static_cast<int64_t>(sid)).add(p.n).add(p.requested).add(p.gc)
                    .add(p.thread).end_row();
                auto [it, fresh] = totals.try_emplace({cid, static_cast<int64_t>(sid), p.thread});
                if (fresh) it->second.first_seq = seq;
                it->second.count += p.n, it->second.requested += p.requested, it->second.gc += p.gc;
                it->second.last_seq = seq;
            }
            fc += n, frb += rb, fgb += gb;
        }
        const int64_t start = t, end = t + frame_ns;
        heap += fgb;
        live += fgb;
        int64_t gcs = 0, gc_ns = 0;
        if (seq % 30 == 29) {
            auto reclaimed = static_cast<int64_t>(static_cast<double>(live) * 0.8);
            live -= reclaimed;
            gc.binds(run, seq, end - 2'000'000, end - 500'000, heap, heap - live, reclaimed, gc_no).run();
            ++gc_no;
            gcs = 1, gc_ns = 1'500'000;
        }
        // Run 1 as a patched capture (exact GC sizes), run 2 as a no-patch one (estimated sizes,
        // collections from il2cpp's profiler): format.h's MT_FRAME_GC_* bits.
        const int64_t sources = run == 1 ? 0x4 : 0x8 | 0x10;
        frame.binds(run, seq, 1000 + seq, start, end, fc, frb, fgb, 0, heap, heap - live, gcs, gc_ns);
        if (run == 2) frame.bind(14, live);
        else frame.bind_null(14);
        frame.bind(15, (seq == frames - 1 ? 1 : 0) | sources).run();
        starts.push_back(start);
        run_count += fc, run_requested += frb, run_gc += fgb, run_gcs += gcs;
        t = end;
    }
    allocs.flush();
    if (run == 1) {
        // mt_mark labels: "boss spawned" twice (a range end names its first occurrence).
        const int half = frames / 2;
        marker.binds(run, 0, starts[0] + 100, "level loaded").run();
        marker.binds(run, half, starts[half] + 200, "boss spawned").run();
        marker.binds(run, frames - 1, starts[frames - 1] + 300, "boss spawned").run();
    }
    Stmt rcs = db_.prepare(sql::kInsertRunClassStack);
    for (const auto &[k, v] : totals)
        rcs.binds(run, std::get<0>(k), std::get<1>(k), v.count, v.requested, v.gc, v.first_seq, v.last_seq, std::get<2>(k)).run();
    if (run == 2) lifetimes(run, class_id);
    db_.prepare(sql::kFinishRun)
        .binds(run, build_id(run), frames, t, run_count, run_requested, run_gc, 0, run_gcs, "end", "")
        .run();
}

}  // namespace

void write(Db &db, const Shape &shape) {
    store::Transaction tx(db);
    Writer w(db, shape);
    w.run(1, shape.frames[0]);
    w.run(2, shape.frames[1]);
    store::create_secondary_indexes(db);
    tx.commit();
    db.exec("ANALYZE");  // as a served database would be: the planner's statistics
}

}  // namespace mt::fixture
