// The allocation machinery (sites.h kInternalRules' Machinery rules): the frames between the generated code's
// allocating call and MemTracer's hook, which differ between patch mode (the ALLOC_* macros in
// Object::Allocate*, Array::NewSpecific) and no-patch mode (il2cpp's Profiler::Allocation). A
// stack's leading machinery is trimmed, so both modes start at the same frame and a stack
// without game code gets the same site in both. Names as libil2cpp's symbols demangle.
#include "sites.h"

#include <catch2/catch.hpp>

#include <vector>

using mt::sym::MachineryTrim;
using mt::sym::SymbolRow;

namespace {

SymbolRow fn(const char *demangled, const char *file = "", uint32_t line = 0) {
    SymbolRow r;
    r.function = demangled;  // a raw name is enough: demangled is preferred when present
    r.demangled = demangled;
    r.file = file;
    r.line = line;
    return r;
}

using Chain = std::vector<SymbolRow>;

// Feeds chains innermost first the way the symbolizer does; the trimmed frame count.
uint32_t trim(const std::vector<Chain> &stack) {
    MachineryTrim t;
    for (const Chain &c : stack)
        if (!t.add(c)) break;
    return t.done() ? t.frames() : 0;
}

// The frames a view shows after the trim, innermost first (an empty chain reads "?").
std::vector<std::string> shown(const std::vector<Chain> &stack) {
    std::vector<std::string> out;
    for (const Chain &c : stack) {
        if (c.empty()) out.push_back("?");
        for (const SymbolRow &r : c) out.push_back(r.demangled);
    }
    out.erase(out.begin(), out.begin() + trim(stack));
    return out;
}

const Chain kGame = {fn("Enemy_UpdateLabel_m72145ADDB949F121912EEA2AAB5138ADEAF80EE4", "Assembly-CSharp.cpp", 40)};
const Chain kLoop = {fn("PlayerLoop::Update(unsigned long)")};

}  // namespace

TEST_CASE("symbolizer: patch and no-patch stacks of one allocation start at the same frame") {
    // libil2cpp's vm/String.cpp: NewSize -> AllocatePtrFree -> ALLOC_PTRFREE (patch mode's hook);
    // with the profiler, NewSize -> Profiler::Allocation -> MemTracer's callback.
    const Chain codegen = {fn("il2cpp_codegen_string_new_length(int)"), kGame[0]};  // inlined into the game
    std::vector<Chain> patch = {{fn("il2cpp::vm::Object::AllocatePtrFree(unsigned long, Il2CppClass*)")},
                                {fn("il2cpp::vm::String::NewSize(int)")}, codegen, kLoop};
    std::vector<Chain> profiler = {{fn("mt::rt::il2cpp::(anonymous namespace)::on_allocation(void*, void*, void*)")},
                                   {fn("il2cpp::vm::Profiler::Allocation(Il2CppObject*, Il2CppClass*)")},
                                   {fn("il2cpp::vm::String::NewSize(int)")}, codegen, kLoop};
    CHECK(trim(patch) == 3);     // AllocatePtrFree, NewSize, and the inlined codegen helper
    CHECK(trim(profiler) == 4);  // on_allocation, Profiler::Allocation, NewSize, the helper
    CHECK(shown(patch) == shown(profiler));
    REQUIRE_FALSE(shown(patch).empty());
    CHECK(shown(patch).front() == kGame[0].demangled);

    // Arrays: Array::NewSpecific's GC_gcj_vector_malloc branch hooks in Array.cpp itself, through
    // the patch layer's hook slot; MemTracer's entry points (mt_on_alloc) when it is on the stack.
    std::vector<Chain> array_patch = {{fn("memtracer_il2cpp::hook_slot()"), fn("il2cpp::vm::Array::NewSpecific(Il2CppClass*, unsigned long)")},
                                      {fn("SZArrayNew(Il2CppClass*, unsigned int)")}, kGame, kLoop};
    std::vector<Chain> array_direct = {{fn("mt_on_alloc")}, {fn("GC_gcj_vector_malloc")},
                                       {fn("il2cpp::vm::Array::NewSpecific(Il2CppClass*, unsigned long)")},
                                       {fn("SZArrayNew(Il2CppClass*, unsigned int)")}, kGame, kLoop};
    CHECK(shown(array_patch) == shown(array_direct));
    CHECK(shown(array_patch).front() == kGame[0].demangled);
}

TEST_CASE("symbolizer: the machinery trim stops at the first frame that is not machinery") {
    // An address without symbols is not known to be machinery: nothing past it is trimmed.
    CHECK(trim({{fn("GC_malloc")}, {}, {fn("il2cpp::vm::Object::New(Il2CppClass*)")}, kGame}) == 1);
    // Only the leading run: machinery further out (Object::New running a static constructor
    // that allocates) stays in the stack.
    std::vector<Chain> cctor = {{fn("il2cpp::vm::Object::Allocate(unsigned long, Il2CppClass*)")}, kGame,
                                {fn("il2cpp::vm::Runtime::ClassInit(Il2CppClass*)")},
                                {fn("il2cpp::vm::Object::New(Il2CppClass*)")}, kLoop};
    CHECK(trim(cctor) == 1);
    // A stack that is machinery only keeps its frames: there is nothing else to start at.
    CHECK(trim({{fn("GC_malloc")}, {fn("il2cpp::vm::Object::New(Il2CppClass*)")}}) == 0);
    // Il2cpp runtime code that is not allocation machinery ends the run.
    CHECK(trim({{fn("il2cpp::vm::Object::New(Il2CppClass*)")}, {fn("il2cpp::vm::Reflection::GetTypeObject(Il2CppType const*)")}}) == 1);
    // Exact rules are exact: BoxCollider is game code, Box the generated boxing helper.
    CHECK(trim({{fn("Box(Il2CppClass*, void*)")}, {fn("BoxCollider_get_size_m1")}}) == 1);
    CHECK(trim({{fn("BoxCollider_get_size_m1")}}) == 0);
    // Mach-O's leading underscore on C names.
    CHECK(mt::sym::is_machinery(fn("_GC_malloc_kind")));
    CHECK(mt::sym::is_machinery(fn("_il2cpp_object_new")));
    CHECK_FALSE(mt::sym::is_machinery(fn("il2cpp_class_get_name")));
    CHECK_FALSE(mt::sym::is_machinery(SymbolRow{}));
}

TEST_CASE("symbolizer: every machinery frame is internal, so a site never starts inside it") {
    for (const auto &rule : mt::sym::kInternalRules) {
        if (rule.role != mt::sym::InternalRule::Machinery) continue;
        std::string name(rule.text);
        if (rule.kind == mt::sym::InternalRule::Exact) name += "(int)";
        else name += "Alloc(int)";
        INFO(name);
        CHECK(mt::sym::is_machinery(fn(name.c_str())));
        CHECK(mt::sym::is_internal(fn(name.c_str())));
    }
}

TEST_CASE("symbolizer: a stack without game code gets one site in both modes") {
    // il2cpp's own allocation (reflection): no game or library frame, so the site is the
    // innermost named runtime frame past the machinery, not Profiler::Allocation or Allocate.
    const Chain reflection = {fn("il2cpp::vm::Reflection::GetTypeObject(Il2CppType const*)", "vm/Reflection.cpp", 88)};
    const Chain patch0 = {fn("il2cpp::vm::Object::Allocate(unsigned long, Il2CppClass*)")};
    const Chain prof0 = {fn("il2cpp::vm::Profiler::Allocation(Il2CppObject*, Il2CppClass*)")};
    const Chain new_ = {fn("il2cpp::vm::Object::New(Il2CppClass*)")};
    std::vector<std::span<const SymbolRow>> patch = {patch0, new_, reflection};
    std::vector<std::span<const SymbolRow>> profiler = {prof0, new_, reflection};
    auto a = mt::sym::runtime_site(patch), b = mt::sym::runtime_site(profiler);
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    CHECK(a->function == "il2cpp::vm::Reflection::GetTypeObject(Il2CppType const*)");
    CHECK(a->function == b->function);
    CHECK(a->file == b->file);
    CHECK(a->line == b->line);
    // Machinery only: the innermost named frame, as before.
    std::vector<std::span<const SymbolRow>> only = {patch0, new_};
    REQUIRE(mt::sym::runtime_site(only).has_value());
    CHECK(mt::sym::runtime_site(only)->function == patch0[0].demangled);
    CHECK_FALSE(mt::sym::runtime_site({}).has_value());
}
