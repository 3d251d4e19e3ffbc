// The code-registration path: only the binary (an unstripped libil2cpp.so) and
// global-metadata.dat kept. Each assembly's Il2CppCodeGenModule links method pointer i to the
// metadata method whose MethodDef token row is i + 1 (il2cpp_code_registration.h). The fixture
// library (fixtures/code_registration.c) is built with clang for x86_64 and Android arm64; the
// metadata comes from metadata_writer.h in each layout that has code registration (2019.1+).
#include <catch2/catch.hpp>

#include <llvm/Object/MachO.h>
#include <llvm/Object/ObjectFile.h>

#include <filesystem>
#include <cstring>
#include <map>

#include "il2cpp_code_registration.h"
#include "il2cpp_symbols.h"
#include "metadata_writer.h"
#include "support.h"
#include "symbol_addresses.h"

using namespace mt::sym;
using mt::test::MdImage;
using mt::test::MdMethod;
using mt::test::MdType;
using mt::test::MetadataLayout;

namespace {

const std::string kMoveNext1 = "Enumerator_MoveNext_m1111111111111111111111111111111111111111";
const std::string kMoveNext2 = "Enumerator_MoveNext_m2222222222222222222222222222222222222222";
const std::string kSpawn3 = "Spawner_Spawn_m3333333333333333333333333333333333333333";
const std::string kSpawn4 = "Spawner_Spawn_m4444444444444444444444444444444444444444";
const std::string kLambda = "U3CU3Ec_U3CStartU3Eb__5_0_m5555555555555555555555555555555555555555";
const std::string kAdd = "Inventory_Add_m6666666666666666666666666666666666666666";

// Metadata order differs from token order on purpose: a reader going by position fails.
std::string metadata(MetadataLayout layout) {
    std::vector<MdType> types = {
        {"Inventory", "Game", {}, {1}}, {"Enumerator", "", {}, {}},  // Game.Inventory.Enumerator
        {"Shop", "Game", {}, {3}},      {"Enumerator", "", {}, {}},  // Game.Shop.Enumerator
        {"Spawner", "Game", {}, {5}},   {"<>c", "", {}, {}},         // Game.Spawner.<>c
        {"Inventory", "Game.Core", {}, {}},                          // image Game.Core.dll
    };
    std::vector<MdMethod> methods = {
        {"MoveNext", 1, {}, 4}, {"MoveNext", 3, {}, 3}, {"Spawn", 4, {}, 5}, {"Spawn", 4, {}, 1},
        {"<Start>b__5_0", 5, {}, 6}, {"Dispose", 4, {}, 2},
        {"Add", 6, {}, 2}, {"Remove", 6, {}, 1},
    };
    return mt::test::write_global_metadata(layout, types, methods, {{"Assembly-CSharp.dll", 6}, {"Game.Core.dll", 1}});
}


}  // namespace

TEST_CASE("symbolizer: code registration links a binary's functions to the metadata by token", "[il2cpp][metadata]") {
    for (const char *arch : {"x86_64", "arm64"}) {
        for (MetadataLayout layout : {MetadataLayout::V24_2019, MetadataLayout::V27, MetadataLayout::V29, MetadataLayout::V31}) {
            INFO(arch << " layout " << static_cast<int>(layout));
            Il2CppMetadata md = Il2CppMetadata::parse(metadata(layout), "global-metadata.dat");
            CHECK(md.images() == 2);
            // By name alone the two Enumerator.MoveNext are ambiguous: no metadata name.
            CHECK(md.method_name_for("Enumerator_MoveNext").empty());

            CodeRegistration r = read_code_registration(mt::test::fixture(std::string("codereg/") + arch + "/libil2cpp.so"), md);
            CHECK(r.modules == 3);
            CHECK(r.modules_matched == 2);  // Other.dll is not in the metadata
            CHECK(r.pointers == 7);         // the NULL entries are no method's code
            auto name = [&](const std::string &native) {
                auto it = r.method_of_symbol.find(native);
                return it == r.method_of_symbol.end() ? std::string("(none)") : md.method_name(it->second);
            };
            CHECK(name(kMoveNext1) == "Game.Inventory.Enumerator.MoveNext");
            CHECK(name(kMoveNext2) == "Game.Shop.Enumerator.MoveNext");
            CHECK(name(kSpawn3) == "Game.Spawner.Spawn");
            CHECK(name(kSpawn4) == "Game.Spawner.Spawn");
            CHECK(r.method_of_symbol.at(kSpawn3) == 2);  // overloads: each its own method
            CHECK(r.method_of_symbol.at(kSpawn4) == 3);
            CHECK(name(kLambda) == "Game.Spawner.<>c.<Start>b__5_0");
            CHECK(name(kAdd) == "Game.Core.Inventory.Add");
            CHECK(r.method_of_symbol.size() == 6);
        }
    }
    // 2018.x metadata has no per-assembly code registration: nothing linked, no error.
    Il2CppMetadata old = Il2CppMetadata::parse(metadata(MetadataLayout::V24_2018), "global-metadata.dat");
    CHECK(read_code_registration(mt::test::fixture("codereg/x86_64/libil2cpp.so"), old).method_of_symbol.empty());
    // Not ELF, or ELF without modules: empty.
    Il2CppMetadata md = Il2CppMetadata::parse(metadata(MetadataLayout::V31), "global-metadata.dat");
    CHECK(read_code_registration(mt::test::fixture("libfixture_clang.so"), md).modules == 0);
    CHECK(read_code_registration(mt::test::fixture_src("code_registration.c"), md).modules == 0);
    // A split debug file: the symbols without the data. Skipped with the reason, no throw.
    CodeRegistration split = read_code_registration(mt::test::fixture("codereg/arm64/libil2cpp.so.debug"), md);
    CHECK(split.modules == 3);
    CHECK(split.method_of_symbol.empty());
    CHECK(split.problem.find("outside the file's data") != std::string::npos);
}

TEST_CASE("symbolizer: binary and metadata only - exact names through the command line", "[il2cpp][metadata][cli]") {
    const std::string so = mt::test::fixture("codereg/x86_64/libil2cpp.so");
    auto addr = mt::test::symbol_addresses(so);
    const uint64_t load = 0x7f1200000000;
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_X86_64, MT_FILE_FLAG_AGGREGATE);
        w.module(0, MT_MODULE_ELF, "/data/app/com.game/lib/arm64/libil2cpp.so", load, 0x10000, load, 0, mt::test::elf_build_id(so));
        w.thread(0, 1, "main");
        w.klass(0, "Node", "Game");
        // Return addresses inside each method (the call sites' next instruction).
        w.stack(0, {addr.at(kMoveNext1) + 4 + load, addr.at(kMoveNext2) + 4 + load, addr.at(kLambda) + 4 + load,
                    addr.at(kAdd) + 4 + load});
        w.aggregate_frame(0, {{0, 0, 1, 64, 64, 1}});
        w.end();
        w.flush();
    }
    // An unpacked APK's metadata, nothing else of Unity's.
    std::filesystem::create_directories(d.file("apk/assets/bin/Data/Managed/Metadata"));
    mt::test::write_file(d.file("apk/assets/bin/Data/Managed/Metadata/global-metadata.dat"), metadata(MetadataLayout::V31));
    std::string err;
    // symbols.zip unpacked beside: the .so and a split .debug of it (symbols, no data), found
    // through --symbols; the .debug's modules are skipped, the run goes on.
    std::filesystem::create_directories(d.file("symbols"));
    std::filesystem::copy_file(mt::test::fixture("codereg/arm64/libil2cpp.so.debug"), d.file("symbols/libil2cpp.so.debug"));
    int rc = mt::test::run_tool({d.file("run.mt"), "--elf", so, "--symbols", d.file("symbols"), "--il2cpp-symbols", d.file("apk"),
                                 "-o", d.file("run.db")}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    auto rows = mt::test::query(d.file("run.db"), "SELECT s.function, s.csharp FROM stack_frames f JOIN symbols s USING(addr_id) "
                                                  "WHERE s.depth = 0 ORDER BY f.pos");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == std::vector<std::string>{kMoveNext1, "Game.Inventory.Enumerator.MoveNext"});
    CHECK(rows[1] == std::vector<std::string>{kMoveNext2, "Game.Shop.Enumerator.MoveNext"});
    CHECK(rows[2] == std::vector<std::string>{kLambda, "Game.Spawner.<>c.<Start>b__5_0"});
    CHECK(rows[3] == std::vector<std::string>{kAdd, "Game.Core.Inventory.Add"});
}

namespace {

// The load commands of a thin Mach-O file.
bool has_load_command(const std::string &path, uint32_t cmd) {
    auto bin = llvm::object::ObjectFile::createObjectFile(path);
    REQUIRE(bool(bin));
    auto *m = llvm::dyn_cast<llvm::object::MachOObjectFile>(bin->getBinary());
    REQUIRE(m);
    for (const auto &lc : m->load_commands())
        if (lc.C.cmd == cmd) return true;
    return false;
}

void check_macho_names(const CodeRegistration &r, const Il2CppMetadata &md) {
    CHECK(r.modules == 3);
    CHECK(r.modules_matched == 2);
    CHECK(r.pointers == 7);
    auto name = [&](const std::string &native) {
        auto it = r.method_of_symbol.find(native);  // without Mach-O's leading '_', as backends answer
        return it == r.method_of_symbol.end() ? std::string("(none)") : md.method_name(it->second);
    };
    CHECK(name(kMoveNext1) == "Game.Inventory.Enumerator.MoveNext");
    CHECK(name(kMoveNext2) == "Game.Shop.Enumerator.MoveNext");
    CHECK(r.method_of_symbol.at(kSpawn3) == 2);
    CHECK(r.method_of_symbol.at(kSpawn4) == 3);
    CHECK(name(kLambda) == "Game.Spawner.<>c.<Start>b__5_0");
    CHECK(name(kAdd) == "Game.Core.Inventory.Add");
    CHECK(r.method_of_symbol.size() == 6);
}

}  // namespace

TEST_CASE("symbolizer: code registration of an iOS binary, its symbols from the dSYM", "[il2cpp][metadata][macho]") {
    namespace fs = std::filesystem;
    // LC_DYLD_CHAINED_FIXUPS: the pointer slots hold chain entries, not addresses.
    CHECK(has_load_command(mt::test::fixture("codereg/ios15/UnityFramework"), llvm::MachO::LC_DYLD_CHAINED_FIXUPS));
    CHECK_FALSE(has_load_command(mt::test::fixture("codereg/ios13/UnityFramework"), llvm::MachO::LC_DYLD_CHAINED_FIXUPS));
    CHECK(has_load_command(mt::test::fixture("codereg/ios13/UnityFramework"), llvm::MachO::LC_DYLD_INFO_ONLY));
    for (const char *ios : {"ios13", "ios15"}) {
        for (MetadataLayout layout : {MetadataLayout::V29, MetadataLayout::V31}) {
            INFO(ios << " layout " << static_cast<int>(layout));
            Il2CppMetadata md = Il2CppMetadata::parse(metadata(layout), "global-metadata.dat");
            const std::string dir = mt::test::fixture(std::string("codereg/") + ios);
            // The unstripped binary carries its own symbols.
            check_macho_names(read_code_registration(dir + "/UnityFramework", md), md);
            // Stripped as Xcode ships it: no symbols, nothing linked, no error ...
            CodeRegistration bare = read_code_registration(dir + "/stripped/UnityFramework", md);
            CHECK(bare.modules == 0);
            CHECK(bare.method_of_symbol.empty());
            // ... and with its dSYM (the DWARF file's symbol table, no data) the same names.
            const std::string dwarf = dir + "/UnityFramework.dSYM/Contents/Resources/DWARF/UnityFramework";
            check_macho_names(read_code_registration(dir + "/stripped/UnityFramework", md, {dwarf}), md);
            // The dSYM alone has the symbols but not the data: skipped with the reason.
            CodeRegistration only_dsym = read_code_registration(dwarf, md);
            CHECK(only_dsym.method_of_symbol.empty());
            CHECK(only_dsym.problem.find("outside the file's data") != std::string::npos);
        }
    }
    Il2CppMetadata md = Il2CppMetadata::parse(metadata(MetadataLayout::V31), "global-metadata.dat");
    // Another build's dSYM (another LC_UUID) is not used.
    CHECK(read_code_registration(mt::test::fixture("codereg/ios15/stripped/UnityFramework"), md,
                                 {mt::test::fixture("codereg/ios13/UnityFramework.dSYM/Contents/Resources/DWARF/UnityFramework")})
              .method_of_symbol.empty());
    // The dSYM beside the binary, as Xcode's archive lays them out, is found without being named.
    mt::test::TempDir d;
    fs::create_directories(d.file("UnityFramework.framework"));
    fs::copy_file(mt::test::fixture("codereg/ios15/stripped/UnityFramework"), d.file("UnityFramework.framework/UnityFramework"));
    fs::copy(mt::test::fixture("codereg/ios15/UnityFramework.dSYM"), d.file("UnityFramework.framework.dSYM"), fs::copy_options::recursive);
    check_macho_names(read_code_registration(d.file("UnityFramework.framework/UnityFramework"), md), md);
}

TEST_CASE("symbolizer: iOS binary, dSYM and metadata only - exact names through the command line", "[il2cpp][metadata][macho][cli]") {
    const std::string dir = mt::test::fixture("codereg/ios15");
    auto addr = mt::test::symbol_addresses(dir + "/UnityFramework");  // Mach-O names: with their '_'
    const uint64_t load = 0x104a30000;
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_ARM64, MT_FILE_FLAG_AGGREGATE);
        w.module(0, MT_MODULE_MACHO, "/var/containers/Bundle/Application/A/Game.app/Frameworks/UnityFramework.framework/UnityFramework",
                 load, 0x10000, load, 0, mt::test::macho_uuid(dir + "/UnityFramework", "arm64"));
        w.thread(0, 1, "main");
        w.klass(0, "Node", "Game");
        w.stack(0, {addr.at("_" + kMoveNext1) + 4 + load, addr.at("_" + kMoveNext2) + 4 + load, addr.at("_" + kLambda) + 4 + load,
                    addr.at("_" + kAdd) + 4 + load});
        w.aggregate_frame(0, {{0, 0, 1, 64, 64, 1}});
        w.end();
        w.flush();
    }
    // The export's metadata only (Data/Managed/Metadata of the .app), no il2cpp output folder.
    std::filesystem::create_directories(d.file("app/Data/Managed/Metadata"));
    mt::test::write_file(d.file("app/Data/Managed/Metadata/global-metadata.dat"), metadata(MetadataLayout::V31));
    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--elf", dir + "/stripped/UnityFramework", "--dsym", dir + "/UnityFramework.dSYM",
                                 "--il2cpp-symbols", d.file("app"), "-o", d.file("run.db")}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    auto rows = mt::test::query(d.file("run.db"), "SELECT s.function, s.csharp FROM stack_frames f JOIN symbols s USING(addr_id) "
                                                  "WHERE s.depth = 0 ORDER BY f.pos");
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == std::vector<std::string>{kMoveNext1, "Game.Inventory.Enumerator.MoveNext"});
    CHECK(rows[1] == std::vector<std::string>{kMoveNext2, "Game.Shop.Enumerator.MoveNext"});
    CHECK(rows[2] == std::vector<std::string>{kLambda, "Game.Spawner.<>c.<Start>b__5_0"});
    CHECK(rows[3] == std::vector<std::string>{kAdd, "Game.Core.Inventory.Add"});
}

namespace {

uint32_t le32(const std::string &b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

// Rewrites a DYLD_CHAINED_PTR_64 image (what ld64.lld writes) as DYLD_CHAINED_PTR_64_OFFSET (what
// Apple's ld64 writes for arm64 iOS 15+): each rebase's 36-bit target becomes the target's
// offset from the image base (mach-o/fixup-chains.h: dyld_chained_ptr_64_rebase, the same bits
// in both formats), and each segment's pointer_format 2 becomes 6.
std::string as_ptr_64_offset(const std::string &path, uint64_t image_base) {
    std::string b = mt::test::read_file(path);
    auto bin = llvm::object::ObjectFile::createObjectFile(path);
    REQUIRE(bool(bin));
    auto *m = llvm::dyn_cast<llvm::object::MachOObjectFile>(bin->getBinary());
    REQUIRE(m);
    for (const auto &lc : m->load_commands()) {
        if (lc.C.cmd != llvm::MachO::LC_DYLD_CHAINED_FIXUPS) continue;
        auto data = m->getLinkeditDataLoadCommand(lc);
        size_t starts = data.dataoff + le32(b, data.dataoff + 4);  // dyld_chained_fixups_header.starts_offset
        uint32_t segs = le32(b, starts);                             // dyld_chained_starts_in_image.seg_count
        for (uint32_t i = 0; i < segs; ++i) {
            uint32_t info = le32(b, starts + 4 + 4 * i);
            if (info == 0) continue;
            uint16_t format = 6;  // dyld_chained_starts_in_segment: size, page_size, pointer_format
            REQUIRE(static_cast<uint8_t>(b[starts + info + 6]) == 2);
            std::memcpy(b.data() + starts + info + 6, &format, 2);
        }
    }
    llvm::Error err = llvm::Error::success();
    size_t rebased = 0;
    for (const auto &f : m->fixupTable(err)) {
        if (!f.isRebase()) continue;
        // The slot's file offset: the segment's file offset plus the slot's offset in it.
        uint64_t off = 0;
        for (const auto &s : m->sections())
            if (f.address() >= s.getAddress() && f.address() < s.getAddress() + s.getSize())
                off = m->getSection64(s.getRawDataRefImpl()).offset + (f.address() - s.getAddress());
        REQUIRE(off != 0);
        uint64_t raw;
        std::memcpy(&raw, b.data() + off, 8);
        const uint64_t mask = (1ull << 36) - 1;
        REQUIRE((raw & mask) == (f.pointerValue() & mask));
        raw = (raw & ~mask) | ((f.pointerValue() - image_base) & mask);
        std::memcpy(b.data() + off, &raw, 8);
        ++rebased;
    }
    const bool failed = static_cast<bool>(err);
    llvm::consumeError(std::move(err));
    REQUIRE_FALSE(failed);
    CHECK(rebased == 16);  // 3 moduleNames, 3 tables, 7 method pointers, 3 invoker tables
    return b;
}

}  // namespace

TEST_CASE("symbolizer: code registration through DYLD_CHAINED_PTR_64_OFFSET chains", "[il2cpp][metadata][macho]") {
    const std::string exe = mt::test::fixture("codereg/ios15/exe/UnityFramework");
    Il2CppMetadata md = Il2CppMetadata::parse(metadata(MetadataLayout::V31), "global-metadata.dat");
    check_macho_names(read_code_registration(exe, md), md);  // DYLD_CHAINED_PTR_64: targets as addresses
    mt::test::TempDir d;
    mt::test::write_file(d.file("UnityFramework"), as_ptr_64_offset(exe, 0x100000000));
    check_macho_names(read_code_registration(d.file("UnityFramework"), md), md);
}
