// sites.h — which frame of a stack is "the allocation site": the first frame, innermost first
// (inlined frames of an address before the function containing them), whose function is game
// code rather than MemTracer, Boehm GC or il2cpp runtime internals. kInternalRules is the whole
// rule; docs/symbolizer.md lists it.
//
// The allocation machinery (the Machinery rules, a part of the internal frames) is what differs
// between the ways MemTracer gets an allocation: patch mode's innermost frames are
// Object::Allocate*/Array::NewSpecific (the ALLOC_* macros), no-patch mode's are
// Profiler::Allocation and MemTracer's profiler callback. A stack's leading run of machinery
// frames is trimmed (MachineryTrim), so both modes start the stack the views show at one frame.
#ifndef MEMTRACER_SYM_SITES_H
#define MEMTRACER_SYM_SITES_H

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "address_cache.h"
#include "memtracer/store/db.h"

namespace mt::sym {

// One depth of an address's inline chain, as stored in the symbols table.
struct SymbolRow {
    std::string function, demangled, csharp, file;
    uint32_t line = 0, column = 0;
    std::string cs_file;
    uint32_t cs_line = 0;
};

struct InternalRule {
    enum Kind { Prefix, Exact } kind;
    std::string_view text;  // matched against the demangled name (else the raw one); Exact
                            // compares the unqualified function name without parameters
    enum Role { Internal, Machinery } role;  // Machinery: allocation machinery, which is internal too
    std::string_view what;
};

// The allocation machinery (Machinery), as libil2cpp spells it from Unity 2018.4 to 6000.x
// (vm/Object.cpp, vm/Array.cpp, vm/String.cpp, vm/Profiler.cpp, gc/GarbageCollector.cpp,
// codegen/il2cpp-codegen*.h) and as the sample game's il2cpp/ imitates it, is every function
// between the generated code's allocating call and MemTracer's hook, in either mode. One table, so
// a machinery rule is an internal rule by construction.
inline constexpr InternalRule kInternalRules[] = {
    {InternalRule::Prefix, "mt_", InternalRule::Machinery, "MemTracer's C API and allocation hook (mt_on_alloc)"},
    {InternalRule::Prefix, "mt::", InternalRule::Machinery, "MemTracer's runtime and its profiler callback (no-patch mode)"},
    {InternalRule::Prefix, "memtracer_il2cpp::", InternalRule::Machinery, "MemTracer's patch layer inside libil2cpp (patch mode)"},
    {InternalRule::Prefix, "GC_", InternalRule::Machinery, "Boehm GC: GC_malloc, GC_malloc_atomic, GC_gcj_malloc, GC_gcj_vector_malloc..."},
    {InternalRule::Prefix, "il2cpp::vm::Object::", InternalRule::Machinery, "Object::New, NewAllocSpecific, NewPtrFree, Allocate, AllocatePtrFree, AllocateSpec, Box, Clone"},
    {InternalRule::Prefix, "il2cpp::vm::Array::", InternalRule::Machinery, "Array::New, NewSpecific, NewFull, NewCached, Clone"},
    {InternalRule::Prefix, "il2cpp::vm::String::", InternalRule::Machinery, "String::New, NewLen, NewSize, NewUtf16, NewWrapper..."},
    {InternalRule::Prefix, "il2cpp::vm::Profiler::", InternalRule::Machinery, "Profiler::Allocation: il2cpp's profiler dispatch (no-patch mode)"},
    {InternalRule::Prefix, "il2cpp::vm::", InternalRule::Internal, "the rest of the il2cpp VM (Class, Type, Reflection...)"},
    {InternalRule::Prefix, "il2cpp::gc::", InternalRule::Machinery, "GarbageCollector::Allocate, AllocateFixed, RegisterFinalizerForNewObject..."},
    {InternalRule::Prefix, "il2cpp::utils::", InternalRule::Internal, "il2cpp runtime utilities"},
    {InternalRule::Prefix, "il2cpp::os::", InternalRule::Internal, "il2cpp OS layer"},
    {InternalRule::Prefix, "il2cpp_codegen_", InternalRule::Machinery, "generated-code helpers (il2cpp_codegen_object_new, _string_new_...)"},
    {InternalRule::Prefix, "il2cpp_object_new", InternalRule::Machinery, "il2cpp C API"},
    {InternalRule::Prefix, "il2cpp_array_new", InternalRule::Machinery, "il2cpp C API (il2cpp_array_new, _new_specific, _new_full)"},
    {InternalRule::Prefix, "il2cpp_string_new", InternalRule::Machinery, "il2cpp C API (il2cpp_string_new, _new_len, _new_utf16, _new_wrapper)"},
    {InternalRule::Prefix, "il2cpp_value_box", InternalRule::Machinery, "il2cpp C API"},
    {InternalRule::Prefix, "il2cpp_", InternalRule::Internal, "the rest of the il2cpp C API (il2cpp_class_get_name...)"},
    {InternalRule::Prefix, "Il2Cpp", InternalRule::Internal, "il2cpp runtime helpers (Il2CppCodeGenWriteBarrier...)"},
    {InternalRule::Exact, "SZArrayNew", InternalRule::Machinery, "generated-code array allocation helper"},
    {InternalRule::Exact, "GenArrayNew", InternalRule::Machinery, "generated-code array allocation helper"},
    {InternalRule::Exact, "Box", InternalRule::Machinery, "generated-code boxing helper"},
    {InternalRule::Exact, "UnBox", InternalRule::Internal, "generated-code unboxing helper"},
};

// True when the frame belongs to the runtime, the GC or MemTracer rather than to the game.
bool is_internal(const SymbolRow &row);
// True when the frame is allocation machinery (a Machinery rule).
bool is_machinery(const SymbolRow &row);

// A stack's leading allocation machinery, counted in the frames a view expands (an address's
// inline chain, innermost first, one frame per depth; an address without symbols is one frame).
// Feed the stack's addresses innermost first while add() returns true.
class MachineryTrim {
public:
    // One address's chain (empty: no symbols). False once a frame is not machinery: the stack
    // the views show starts there.
    bool add(std::span<const SymbolRow> chain);
    uint32_t frames() const { return frames_; }  // the trimmed frames, the stored stacks.machinery
    bool done() const { return done_; }

private:
    uint32_t frames_ = 0;
    bool done_ = false;
};

// Library code: C# that ships with the engine or the BCL, compiled by IL2CPP into files named
// after their assembly (mscorlib.cpp, mscorlib12.cpp, System.Core.cpp, UnityEngine.CoreModule.cpp,
// Generics3.cpp...). String.Concat or List`1.Add is where the bytes are allocated but not what a
// game team can change: a site skips these frames when a game frame is further out, and falls
// back to them when the whole stack is library code. Matched on the C++ file's name: the
// assembly prefix, then '.', '_' or a digit.
inline constexpr std::string_view kLibraryFilePrefixes[] = {
    "mscorlib", "netstandard", "System", "Mono", "UnityEngine", "Unity", "Generics", "GenericMethods",
};
bool is_library(const SymbolRow &row);

struct Site {
    std::string function, file;
    uint32_t line = 0;
};

// The site of one address's chain (innermost first): its first non-internal named depth, and with
// allow_library false also not library code.
std::optional<Site> game_site(std::span<const SymbolRow> chain, bool allow_library = true);

// The site of a stack without game or library code (il2cpp's own allocations: reflection, string
// interning, startup): its innermost named frame that is not allocation machinery, else its
// innermost named frame. Without the first step the innermost frame is Profiler::Allocation in
// no-patch mode and Object::Allocate* in patch mode: one site counted as two across modes.
// `stack` is the stack's addresses innermost first, each its inline chain.
std::optional<Site> runtime_site(std::span<const std::span<const SymbolRow>> stack);

// How a frame reads in a site: C# name, else demangled, else raw; C# file:line when mapped.
Site site_of(const SymbolRow &row);

// One address's chain, summarized for StackSites' rules: what is kept per address (a few numbers,
// not the chain) and, with site ids for the indexes, what address_sites stores for the next
// ingest (schema version 4; StackSites::stored / from_stored). Site fields index StackSites'
// sites(); kNone: no such frame; kUnknown: stored without that site, so its chain must be read
// if a rule asks for it.
struct AddressFacts {
    static constexpr int32_t kNone = -1, kUnknown = -3;
    int32_t own = kNone;          // game_site(chain, false)
    int32_t any = kNone;          // game_site(chain, true)
    int32_t runtime = kNone;      // the first named frame that is not machinery
    int32_t runtime_any = kNone;  // the first named frame
    uint32_t machinery = 0;       // leading machinery frames
    bool empty = true;            // no rows
    bool named = false;           // some row has a function name
    bool all_machinery = false;
};

// The fingerprint of the rules above (kInternalRules, kLibraryFilePrefixes, and how a chain is
// summarized): meta.site_rules of a database whose address_sites hold summaries.
std::string site_rules_fingerprint();
// Forgets the database's stored summaries when they follow other rules than these (an older or
// newer build's), and records these rules. Before the address cache loads them.
void check_site_rules(store::Db &db);

// The site and the leading machinery of each stack of a run. A stack is asked by position: the
// caller keeps each address's AddressFacts (summarize() of its chain, or from_stored() of what an
// earlier ingest stored) and hands them over through FactsAt. The ingest keeps them beside its
// address cache rows, reads a chain only for an address with no stored summary, and a stack's
// site is usually among its first frames, so most addresses of a run are never read back.
//
// What is kept per address is a few small numbers (AddressFacts), not the chain: the chain's rows
// are strings, and a warm run's memo of 24k chains cost more to free than to read
// (docs/benchmarks.md, issue 22, sixth session). Each distinct site is kept once (sites()).
class StackSites {
public:
    // A stack's site: an index into sites(), or for rule (3) the position of the unnamed address.
    struct Pick {
        static constexpr int32_t kNone = -1, kUnnamed = -2;
        int32_t index = kNone;  // >= 0: sites()[index]
        size_t unnamed_pos = 0; // kUnnamed: the position in the stack to label
    };
    // (1) the first frame of the game's own code; (2) else the first non-internal frame, library
    // code included (a stack that is all BCL, e.g. a thread-pool callback); (3) else the first
    // address in a module with no named frame, which the caller labels by its position in the
    // stack (module+offset: it may be game code without symbols); (4) else the innermost named frame
    // past the allocation machinery (runtime_site); (5) else no site.
    //
    // `at(pos, from_chain)` gives the facts of the stack's address at `pos` (nullptr: outside every
    // module); from_chain true asks for its chain's summary because a rule needs a site the stored
    // facts lack (kUnknown).
    using FactsAt = std::function<const AddressFacts *(size_t pos, bool from_chain)>;
    Pick pick(size_t depth, const FactsAt &at);
    const std::vector<Site> &sites() const { return sites_; }
    // The stack's leading allocation machinery, in frames as the views expand them (MachineryTrim);
    // 0 when the whole stack is machinery (no other frame to start at). stacks.machinery.
    uint32_t machinery(size_t depth, const FactsAt &at);

    AddressFacts summarize(std::span<const SymbolRow> chain);
    // Facts as address_sites stores them (schema version 4): indexes become site ids (site_id()),
    // kUnknown where a site has none yet; and back (a stored site id becomes an index whose Site
    // is not known, only its id).
    StoredSites stored(const AddressFacts &f) const;
    AddressFacts from_stored(const StoredSites &s);
    // The sites table's id of sites()[index]; 0: not known yet (set_site_id once stored).
    int64_t site_id(int32_t index) const { return site_ids_[static_cast<size_t>(index)]; }
    void set_site_id(int32_t index, int64_t id) { site_ids_[static_cast<size_t>(index)] = id; }

private:
    int32_t intern(Site s);
    int32_t stored_site(int64_t site_id);

    std::vector<Site> sites_;          // empty for a site known by its id only (from_stored)
    std::vector<int64_t> site_ids_;    // by sites_ index
    std::unordered_map<std::string, int32_t> site_index_;  // function \n file \n line -> sites_
    // Site id -> sites_ index + 1 (0: not yet), for from_stored: by id while ids are small (they
    // are the sites table's rowids, dense from 1), the map past kDenseSites. A hash map node a
    // site was 17k allocations and frees of a warm run (docs/benchmarks.md, issue 22, twelfth session).
    static constexpr int64_t kDenseSites = int64_t{1} << 22;
    std::vector<int32_t> stored_dense_;
    std::unordered_map<int64_t, int32_t> stored_index_;    // site id -> sites_ (from_stored), ids >= kDenseSites
};

}  // namespace mt::sym

#endif
