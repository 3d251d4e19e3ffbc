// Mach-O: a real arm64 iOS dylib named UnityFramework (clang-19 + ld64.lld), its dSYM
// (dsymutil-19), fat files with an x86_64 slice (llvm-lipo-19), the atos backend against the
// atos stand-in, and a run.mt carrying the dylib's UUID symbolized end to end with --dsym.
#include <catch2/catch.hpp>
#include <filesystem>

#include "address_map.h"
#include "atos_output.h"
#include "backend.h"
#include "object_info.h"
#include "support.h"
#include "symbol_locator.h"

using namespace mt::sym;
using mt::test::fixture;

namespace {

const std::string kDwarf = "UnityFramework.dSYM/Contents/Resources/DWARF/UnityFramework";
const std::string kNodeFactory = "NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12";
const std::string kListAdd = "List_1_Add_m7A5E2B1C9D8F0E3A4B5C6D7E8F9A0B1C2D3E4F5A_inline";
const std::string kGameLoop = "GameLoop_Update_m0123456789ABCDEF0123456789ABCDEF01234567";

mt::reader::Module unity_module(const std::vector<uint8_t> &uuid) {
    mt::reader::Module m;
    m.id = 0;
    m.kind = MT_MODULE_MACHO;
    m.path = "/private/var/containers/Bundle/Application/0B5E/Game.app/Frameworks/UnityFramework.framework/UnityFramework";
    m.load_address = 0x104a30000;
    m.text_vmaddr = 0;
    m.bias = m.load_address - m.text_vmaddr;  // the slide
    m.size = 0x10000;
    m.build_id = uuid;
    return m;
}

std::map<std::string, uint32_t> calls() { return mt::test::marker_lines(mt::test::fixture_src("unity_framework.c"), "@CALL "); }
std::map<std::string, uint32_t> inlines() { return mt::test::marker_lines(mt::test::fixture_src("unity_framework.c"), "@INLINE "); }

// Return addresses of every marked BL, as runtime addresses in `m`.
std::vector<std::pair<mt::test::CallSite, uint64_t>> marked_returns(const mt::reader::Module &m, const std::string &binary) {
    auto marks = calls();
    std::vector<std::pair<mt::test::CallSite, uint64_t>> out;
    for (const auto &cs : mt::test::arm64_call_sites(binary))
        if (marks.count(cs.callee)) out.push_back({cs, cs.address + 4 + m.bias});
    return out;
}

}  // namespace

TEST_CASE("symbolizer: dSYM - thin and fat: the arm64 UUID is found and the slice picked", "[macho]") {
    auto thin = inspect_object(fixture("arm64/UnityFramework"));
    REQUIRE(thin.kind == ObjectKind::MachO);
    REQUIRE(thin.slices.size() == 1);
    CHECK(thin.slices[0].arch == "arm64");
    CHECK(thin.slices[0].id.size() == 16);
    CHECK_FALSE(thin.slices[0].has_debug_info);  // on Darwin the DWARF lives in the dSYM
    auto dsym = inspect_object(fixture("arm64/" + kDwarf));
    CHECK(dsym.slices[0].id == thin.slices[0].id);
    CHECK(dsym.slices[0].has_debug_info);
    auto fat = inspect_object(fixture("fat/" + kDwarf));
    CHECK(fat.universal);
    REQUIRE(fat.slices.size() == 2);
    auto arm64_uuid = thin.slices[0].id;
    auto x86_uuid = mt::test::macho_uuid(fixture("x86_64/UnityFramework"), "x86_64");
    CHECK(arm64_uuid != x86_uuid);

    std::vector<std::string> warnings;
    SymbolLocator loc([&](const std::string &w) { warnings.push_back(w); });
    loc.add_dsym(fixture("fat/UnityFramework.dSYM"));
    auto f = loc.find(unity_module(arm64_uuid), MT_ARCH_ARM64, false);
    REQUIRE(f);
    CHECK(f->arch == "arm64");
    CHECK(f->slice.id == arm64_uuid);
    CHECK(f->id_verified);
    // The x86_64 slice is chosen only by its own UUID.
    auto fx = loc.find(unity_module(x86_uuid), MT_ARCH_X86_64, false);
    REQUIRE(fx);
    CHECK(fx->arch == "x86_64");
    CHECK(warnings.empty());
}

TEST_CASE("symbolizer: arm64 dSYM: each BL's return address symbolizes to its call line", "[macho][dwarf]") {
    auto uuid = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    auto m = unity_module(uuid);
    auto marks = calls();
    auto inl = inlines();
    for (const char *dsym : {"arm64/UnityFramework.dSYM", "fat/UnityFramework.dSYM"}) {
        SECTION(dsym) {
            SymbolLocator loc([](const std::string &) {});
            loc.add_dsym(fixture(dsym));
            auto f = loc.find(m, MT_ARCH_ARM64, false);
            REQUIRE(f);
            auto sites = marked_returns(m, fixture("arm64/UnityFramework"));
            REQUIRE(sites.size() == marks.size());  // every marked call is a BL
            std::vector<uint64_t> lookups;
            for (auto &[cs, ra] : sites) lookups.push_back(lookup_address(file_address(m, ra)));
            auto recs = make_backend({BackendKind::Builtin, 2, "", ""})->symbolize(*f, lookups, {nullptr, nullptr});
            for (size_t i = 0; i < sites.size(); ++i) {
                const auto &cs = sites[i].first;
                INFO("BL at 0x" << std::hex << cs.address << " to " << cs.callee);
                REQUIRE_FALSE(recs[i].frames.empty());
                CHECK(recs[i].frames[0].line == marks.at(cs.callee));
                CHECK(mt::test::basename(recs[i].frames[0].file) == "unity_framework.c");
                if (cs.callee == kNodeFactory) {  // called from an inlined helper
                    REQUIRE(recs[i].frames.size() == 2);
                    CHECK(recs[i].frames[0].function == kListAdd);
                    CHECK(recs[i].frames[1].function == kGameLoop);
                    CHECK(recs[i].frames[1].line == inl.at(kListAdd));
                } else {
                    CHECK(recs[i].frames.size() == 1);
                }
            }
        }
    }
}

TEST_CASE("symbolizer: A fat binary without its dSYM symbolizes its arm64 slice from the symbol table", "[macho][stripped]") {
    auto uuid = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    auto m = unity_module(uuid);
    // Alone in a directory: beside its dSYM it would be symbolized from that (see the next test).
    mt::test::TempDir dir;
    std::filesystem::copy_file(fixture("fat/UnityFramework"), dir.file("UnityFramework"));
    SymbolLocator loc([](const std::string &) {});
    loc.add_elf(dir.file("UnityFramework"));
    auto f = loc.find(m, MT_ARCH_ARM64, false);
    REQUIRE(f);
    CHECK(f->arch == "arm64");
    CHECK(f->slice.quality() == Quality::SymbolTable);
    auto sites = marked_returns(m, fixture("fat/UnityFramework"));
    std::vector<uint64_t> lookups;
    for (auto &[cs, ra] : sites) lookups.push_back(lookup_address(file_address(m, ra)));
    auto recs = make_backend({BackendKind::Builtin, 1, "", ""})->symbolize(*f, lookups, {nullptr, nullptr});
    const std::map<std::string, std::string> caller = {{"mt_on_alloc", "il2cpp_codegen_object_new"},
                                                       {"il2cpp_codegen_object_new", kNodeFactory},
                                                       {kNodeFactory, kGameLoop},
                                                       {"Node__ctor_mB2F1C4A3D5E6F708192A3B4C5D6E7F8091A2B3C4", kGameLoop},
                                                       {kGameLoop, "UnityMain"}};
    REQUIRE(sites.size() == caller.size());
    for (size_t i = 0; i < sites.size(); ++i) {
        INFO("call to " << sites[i].first.callee);
        REQUIRE(recs[i].frames.size() == 1);  // no inline chain from a symbol table
        CHECK(recs[i].frames[0].file.empty());
        // The containing function's symbol; LLVM drops Mach-O's leading '_', so the name is the
        // same one the DWARF gives.
        CHECK(recs[i].frames[0].function == caller.at(sites[i].first.callee));
    }
}

TEST_CASE("symbolizer: A Mach-O binary given beside its dSYM is symbolized from the dSYM", "[macho]") {
    auto uuid = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    SymbolLocator loc([](const std::string &) {});
    loc.add_elf(fixture("arm64/UnityFramework"));
    auto f = loc.find(unity_module(uuid), MT_ARCH_ARM64, false);
    REQUIRE(f);
    CHECK(f->slice.has_debug_info);
    CHECK(f->path == fixture("arm64/" + kDwarf));
}

TEST_CASE("symbolizer: atos backend (atos stand-in) agrees with the builtin backend", "[macho][atos]") {
    auto uuid = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    auto m = unity_module(uuid);
    SymbolLocator loc([](const std::string &) {});
    loc.add_dsym(fixture("fat/UnityFramework.dSYM"));
    auto f = loc.find(m, MT_ARCH_ARM64, false);
    REQUIRE(f);
    std::vector<uint64_t> lookups;
    for (auto &[cs, ra] : marked_returns(m, fixture("arm64/UnityFramework"))) lookups.push_back(lookup_address(file_address(m, ra)));
    // Also every other word of the code, inline chains and all.
    for (const auto &cs : mt::test::arm64_call_sites(fixture("arm64/UnityFramework"))) lookups.push_back(cs.address);
    std::sort(lookups.begin(), lookups.end());
    lookups.erase(std::unique(lookups.begin(), lookups.end()), lookups.end());
    auto builtin = make_backend({BackendKind::Builtin, 2, "", ""})->symbolize(*f, lookups, {nullptr, nullptr});
    std::atomic<uint64_t> done{0};
    auto atos = make_backend({BackendKind::Atos, 3, "", MT_ATOS_STANDIN})->symbolize(*f, lookups, {&done, nullptr});
    CHECK(done == lookups.size());
    REQUIRE(atos.size() == builtin.size());
    for (size_t i = 0; i < lookups.size(); ++i) {
        INFO("0x" << std::hex << lookups[i]);
        REQUIRE(atos[i].frames.size() == builtin[i].frames.size());
        for (size_t k = 0; k < atos[i].frames.size(); ++k) {
            CHECK(atos[i].frames[k].function == builtin[i].frames[k].function);  // C names: demangling is a no-op
            CHECK(atos[i].frames[k].file == builtin[i].frames[k].file);          // -fullPath
            CHECK(atos[i].frames[k].line == builtin[i].frames[k].line);
            CHECK(atos[i].frames[k].column == 0);                                // atos prints no columns
        }
    }
    // ELF is not atos's business.
    SymbolFile elf;
    elf.path = fixture("libfixture_gcc.so");
    elf.kind = ObjectKind::Elf;
    CHECK_THROWS_WITH(make_backend({BackendKind::Atos, 1, "", MT_ATOS_STANDIN})->symbolize(elf, lookups, {nullptr, nullptr}),
                      Catch::Contains("Mach-O files only"));
}

TEST_CASE("symbolizer: a tool backend that cannot find its tool says which and how to get it", "[atos]") {
    SymbolFile macho;
    macho.path = "UnityFramework";
    macho.kind = ObjectKind::MachO;
    std::vector<uint64_t> lookups = {0x1000};
    auto atos = make_backend({BackendKind::Atos, 1, "", "/nonexistent/atos"});
    CHECK(std::string(atos->name()) == "atos");
    CHECK_THROWS_WITH(atos->symbolize(macho, lookups, {nullptr, nullptr}),
                      Catch::Contains("atos not found (/nonexistent/atos); it ships with Xcode"));
    auto llvm = make_backend({BackendKind::LlvmSymbolizer, 1, "/nonexistent/llvm-symbolizer", ""});
    CHECK(std::string(llvm->name()) == "llvm-symbolizer");
    CHECK_THROWS_WITH(llvm->symbolize(macho, lookups, {nullptr, nullptr}),
                      Catch::Contains("llvm-symbolizer not found (/nonexistent/llvm-symbolizer); install llvm-19 or pass "
                                      "--llvm-symbolizer PATH"));
}

TEST_CASE("symbolizer: atos output: the formats atos prints are parsed", "[atos]") {
    auto out = parse_atos_output(
        "inner (in UnityFramework) (/src/a.c:5)\nouter (in UnityFramework) (/src/a.c:10)\n\n"
        "Foo::bar(int) (in UnityFramework) + 16\n\n"
        "0x4000 (in UnityFramework)\n\n",
        3, true);
    REQUIRE(out.size() == 3);
    REQUIRE(out[0].frames.size() == 2);
    CHECK(out[0].frames[0] == SourceFrame{"inner", "/src/a.c", 5, 0});
    CHECK(out[0].frames[1] == SourceFrame{"outer", "/src/a.c", 10, 0});
    REQUIRE(out[1].frames.size() == 1);
    CHECK(out[1].frames[0] == SourceFrame{"Foo::bar(int)", "", 0, 0});
    CHECK(out[2].frames.empty());
    CHECK_THROWS_WITH(parse_atos_output("a (in B) (c.c:1)\n\n", 2, true), Catch::Contains("answered 1 addresses, expected 2"));
}
