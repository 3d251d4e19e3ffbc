// Allocation sites skip library code (BCL and engine C# compiled by IL2CPP) when the game's own
// code is further out, and fall back to it when a stack is library code only.
#include "names.h"
#include "sites.h"

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

using mt::sym::SymbolRow;

namespace {

SymbolRow frame(const char *function, const char *file) {
    SymbolRow r;
    r.function = function;
    r.csharp = mt::sym::il2cpp_csharp_name(function);  // as the symbolizer stores it
    r.file = file;
    r.line = 7;
    return r;
}

}  // namespace

TEST_CASE("symbolizer: library files are recognised by their assembly name") {
    for (const char *file : {"/b/il2cppOutput/mscorlib.cpp", "mscorlib12.cpp", "/x/System.Core.cpp", "System.cpp",
                             "UnityEngine.CoreModule.cpp", "Unity.Collections.cpp", "Generics3.cpp",
                             "GenericMethods0.cpp", "C:\\\\out\\\\mscorlib_Dictionary.inl"}) {
        INFO(file);
        CHECK(mt::sym::is_library(frame("f", file)));
    }
    for (const char *file : {"Assembly-CSharp.cpp", "Assembly-CSharp1.cpp", "SystemShock.cpp", "UnityChan.cpp",
                             "MonoBehaviourHelpers.cpp", "Generic.cpp", ""}) {
        INFO(file);
        CHECK_FALSE(mt::sym::is_library(frame("f", file)));
    }
}

TEST_CASE("symbolizer: a site skips library frames only when game code is further out") {
    const std::vector<SymbolRow> bcl = {frame("String_FastAllocateString_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12", "/o/mscorlib.cpp")};
    const std::vector<SymbolRow> game = {frame("Enemy_UpdateLabel_m72145ADDB949F121912EEA2AAB5138ADEAF80EE4", "/o/Assembly-CSharp.cpp")};
    CHECK_FALSE(mt::sym::game_site(bcl, false).has_value());
    REQUIRE(mt::sym::game_site(bcl, true).has_value());
    CHECK(mt::sym::game_site(bcl, true)->function == "String.FastAllocateString");
    REQUIRE(mt::sym::game_site(game, false).has_value());
    CHECK(mt::sym::game_site(game, false)->function == "Enemy.UpdateLabel");
}

namespace {

// The rules stated by addr_id (0: outside every module), as the tests read best: each address's
// chain read at most once, through `load` or handed over by add_chain(), its facts kept by addr_id
// and the stack asked by position (StackSites' own way, as the ingest asks it).
class SitesById {
public:
    using LoadChain = std::function<std::vector<SymbolRow>(int64_t addr_id)>;
    explicit SitesById(LoadChain load) : load_(std::move(load)) {}

    void add_chain(int64_t addr_id, std::span<const SymbolRow> chain) {
        if (!facts_.contains(addr_id)) facts_.emplace(addr_id, sites_.summarize(chain));
    }
    mt::sym::StackSites::Pick pick(std::span<const int64_t> stack) { return sites_.pick(stack.size(), at(stack)); }
    uint32_t machinery(std::span<const int64_t> stack) { return sites_.machinery(stack.size(), at(stack)); }
    std::optional<mt::sym::Site> site(std::span<const int64_t> stack, const std::function<std::string(size_t)> &unnamed_label) {
        mt::sym::StackSites::Pick p = pick(stack);
        if (p.index >= 0) return sites_.sites()[static_cast<size_t>(p.index)];
        if (p.index == mt::sym::StackSites::Pick::kUnnamed) return mt::sym::Site{unnamed_label(p.unnamed_pos), "", 0};
        return std::nullopt;
    }
    const std::vector<mt::sym::Site> &sites() const { return sites_.sites(); }

private:
    const mt::sym::AddressFacts &facts(int64_t addr_id) {
        auto it = facts_.find(addr_id);
        if (it == facts_.end()) it = facts_.emplace(addr_id, sites_.summarize(load_(addr_id))).first;
        return it->second;
    }
    mt::sym::StackSites::FactsAt at(std::span<const int64_t> stack) {
        return [this, stack](size_t pos, bool) { return stack[pos] ? &facts(stack[pos]) : nullptr; };
    }

    LoadChain load_;
    mt::sym::StackSites sites_;
    std::map<int64_t, mt::sym::AddressFacts> facts_;  // node-based: the pointers at() hands out stay valid
};

}  // namespace

// StackSites (sites.h) is the whole rule for a stack, each address's chain read once.
TEST_CASE("symbolizer: a stack's site - game code, else library, else an unnamed module, else the runtime") {
    std::map<int64_t, std::vector<SymbolRow>> chains = {
        {1, {frame("GC_malloc", "gc.c")}},
        {2, {frame("String_FastAllocateString_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12", "/o/mscorlib.cpp")}},
        {3, {frame("Player_Update_m0123456789ABCDEF0123456789ABCDEF01234567", "/o/Assembly-CSharp.cpp")}},
        {4, {}},  // an address with no symbol rows
        {5, {frame("_ZN6il2cpp2vm6Object8AllocateEjP11Il2CppClass", "Object.cpp"),
             frame("il2cpp::vm::Reflection::GetTypeObject(Il2CppType const*)", "Reflection.cpp")}},
    };
    for (auto &[id, rows] : chains)
        for (auto &r : rows) r.demangled = r.function.starts_with("_Z") ? "il2cpp::vm::Object::Allocate(unsigned int, Il2CppClass*)" : "";
    int loads = 0;
    SitesById sites([&](int64_t id) {
        ++loads;
        return chains.at(id);
    });
    auto label = [](size_t pos) { return "lib.so+" + std::to_string(pos); };
    auto site = [&](std::vector<int64_t> stack) { return sites.site(stack, label); };

    // (1) the game's own frame, past the allocator and the BCL; 0 (outside every module) is skipped.
    auto s = site({1, 0, 2, 3});
    REQUIRE(s);
    CHECK(s->function.find("Player") != std::string::npos);
    // (2) library code when the stack has no game frame.
    s = site({1, 2});
    REQUIRE(s);
    CHECK(s->function.find("String") != std::string::npos);
    // (3) an address with no named frame, as the caller labels it (its position in the stack).
    s = site({1, 4});
    REQUIRE(s);
    CHECK(s->function == "lib.so+1");
    // (4) il2cpp's own allocation: the innermost named frame past the machinery.
    s = site({5});
    REQUIRE(s);
    CHECK(s->function.find("Reflection") != std::string::npos);
    // (5) nothing named at all, nothing in a module: no site.
    CHECK_FALSE(site({0, 0}));
    CHECK(loads == 5);  // each address's chain read once, however many stacks ask

    // The leading machinery: GC_malloc is one frame; a stack all machinery trims nothing.
    CHECK(sites.machinery(std::vector<int64_t>{1, 3}) == 1);
    CHECK(sites.machinery(std::vector<int64_t>{1}) == 0);
    CHECK(loads == 5);
}

// A chain handed over by the caller (read ahead in addr_id order) is not loaded again, and the
// site it gives is the one a loaded chain gives; only a summary is kept, so the sites() list holds
// each distinct site once however many addresses name it.
TEST_CASE("symbolizer: StackSites takes chains read ahead and keeps each site once") {
    std::vector<SymbolRow> game = {frame("Player_Update_m0123456789ABCDEF0123456789ABCDEF01234567", "/o/Assembly-CSharp.cpp")};
    std::vector<SymbolRow> gc = {frame("GC_malloc", "gc.c"), frame("GC_generic_malloc", "gc.c")};
    int loads = 0;
    SitesById sites([&](int64_t id) {
        ++loads;
        return id == 2 ? gc : game;
    });
    sites.add_chain(1, game);
    sites.add_chain(2, gc);
    size_t distinct = sites.sites().size();  // Player, and GC_malloc (rule 4's runtime frame)
    sites.add_chain(3, game);  // the same names at another address: the same site
    CHECK(sites.sites().size() == distinct);
    auto a = sites.pick(std::vector<int64_t>{2, 1});
    auto b = sites.pick(std::vector<int64_t>{3});
    CHECK(loads == 0);
    REQUIRE(a.index >= 0);
    CHECK(a.index == b.index);
    CHECK(sites.sites()[static_cast<size_t>(a.index)].function.find("Player") != std::string::npos);
    CHECK(sites.machinery(std::vector<int64_t>{2, 1}) == 2);  // both of GC's frames
    CHECK(sites.machinery(std::vector<int64_t>{2, 0, 1}) == 2);  // outside every module ends it
    CHECK(sites.machinery(std::vector<int64_t>{2, 2}) == 0);  // all machinery: nothing trimmed
    auto c = sites.pick(std::vector<int64_t>{4});  // not handed over: loaded
    CHECK(loads == 1);
    CHECK(c.index == a.index);
}

// By position (the ingest's way): the facts a caller stored (StackSites::stored, with the picked
// site's id) give the same pick and machinery in a later StackSites without any chain; a site
// that was not stored (kUnknown) makes the pick ask for that address's chain.
TEST_CASE("symbolizer: stored site summaries pick as their chains do, and a site not stored reads the chain") {
    std::vector<SymbolRow> game = {frame("Player_Update_m0123456789ABCDEF0123456789ABCDEF01234567", "/o/Assembly-CSharp.cpp")};
    std::vector<SymbolRow> gc = {frame("GC_malloc", "gc.c"), frame("GC_generic_malloc", "gc.c")};
    mt::sym::StackSites first;
    std::vector<mt::sym::AddressFacts> facts = {first.summarize(gc), first.summarize(game)};
    auto at = [&](size_t pos, bool) { return &facts[pos]; };
    auto p = first.pick(2, at);
    REQUIRE(p.index >= 0);
    CHECK(first.sites()[static_cast<size_t>(p.index)].function == "Player.Update");
    first.set_site_id(p.index, 42);  // stored in the sites table as 42
    const mt::sym::StoredSites gc_stored = first.stored(facts[0]), game_stored = first.stored(facts[1]);
    CHECK(game_stored.own == 42);
    CHECK(gc_stored.own == 0);           // no such frame
    CHECK(gc_stored.runtime_any == -1);  // GC_malloc: a site, not stored
    CHECK(first.machinery(2, at) == 2);

    int chains = 0;
    mt::sym::StackSites later;
    std::vector<mt::sym::AddressFacts> kept = {later.from_stored(gc_stored), later.from_stored(game_stored)};
    auto kept_at = [&](size_t pos, bool from_chain) {
        if (from_chain) {
            ++chains;
            kept[pos] = later.summarize(pos == 0 ? gc : game);
        }
        return &kept[pos];
    };
    auto q = later.pick(2, kept_at);
    REQUIRE(q.index >= 0);
    CHECK(later.site_id(q.index) == 42);
    CHECK(later.machinery(2, kept_at) == 2);
    CHECK(chains == 0);
    // A stack of GC alone falls to rule (5), the innermost named frame: not stored, so read.
    auto only_gc = later.pick(1, kept_at);
    CHECK(chains == 1);
    REQUIRE(only_gc.index >= 0);
    CHECK(later.sites()[static_cast<size_t>(only_gc.index)].function == "GC_malloc");
}

// A stored site id names one sites() index however often it is met, whether it is small (looked
// up by id in a vector) or past StackSites' dense range (a map; StoredSites holds an int32, so
// only ids below 2^31 reach it), and distinct ids name distinct indices with their ids.
TEST_CASE("symbolizer: stored site ids, small and large, each name one site") {
    mt::sym::StackSites sites;
    const std::vector<int32_t> ids = {1, 7, 3, 7, 1, (1 << 22) - 1, 1 << 22, (1 << 22) + 5, 1 << 22, INT32_MAX, 3, INT32_MAX, 100000};
    std::map<int32_t, int32_t> index_of;
    for (int32_t id : ids) {
        mt::sym::StoredSites s;
        s.facts = 2;  // named
        s.own = id;
        mt::sym::AddressFacts f = sites.from_stored(s);
        REQUIRE(f.own >= 0);
        auto [it, fresh] = index_of.try_emplace(id, f.own);
        CHECK(it->second == f.own);  // the same index as the first time
        CHECK(sites.site_id(f.own) == id);
    }
    std::set<int32_t> distinct;
    for (const auto &[id, index] : index_of) distinct.insert(index);
    CHECK(distinct.size() == index_of.size());
    CHECK(sites.sites().size() == index_of.size());
}
