// dSYM layouts met in practice: Finder and AppleDouble files inside Contents/Resources/DWARF,
// Xcode's UnityFramework.framework.dSYM beside UnityFramework.framework, and a binary given with
// --elf whose dSYM does the work (no false "matched no module"); a module symbolized without
// debug info is warned about.
#include <catch2/catch.hpp>
#include <filesystem>

#include "support.h"
#include "symbol_locator.h"

using namespace mt::sym;
using mt::test::fixture;
using mt::test::query1;
namespace fs = std::filesystem;

namespace {

const std::string kDwarfRel = "Contents/Resources/DWARF/UnityFramework";

mt::reader::Module unity_module() {
    mt::reader::Module m;
    m.kind = MT_MODULE_MACHO;
    m.path = "/private/var/containers/Bundle/Application/0B5E/Game.app/Frameworks/UnityFramework.framework/UnityFramework";
    m.load_address = 0x104a30000;
    m.bias = m.load_address;
    m.size = 0x10000;
    m.build_id = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    return m;
}

void write_run(const std::string &path) {
    mt::reader::Module m = unity_module();
    mt::test::RunWriter w(path, MT_ARCH_ARM64);
    w.module(0, MT_MODULE_MACHO, m.path, m.load_address, m.size, m.bias, 0, m.build_id);
    w.thread(0, 1, "main");
    w.klass(0, "Node", "Game");
    std::vector<uint64_t> frames;
    for (const auto &cs : mt::test::arm64_call_sites(fixture("arm64/UnityFramework"))) frames.push_back(cs.address + 4 + m.bias);
    w.stack(0, frames);
    w.frame(0, {{0, 1001, 0, 0, 16, 16, 0x1000}});
    w.end();
    w.flush();
}

}  // namespace

TEST_CASE("symbolizer: .DS_Store and AppleDouble files in a dSYM's DWARF directory are skipped with a note", "[macho][dsym-layout]") {
    mt::test::TempDir d;
    std::string bundle = d.file("UnityFramework.dSYM");
    fs::copy(fixture("arm64/UnityFramework.dSYM"), bundle, fs::copy_options::recursive);
    std::string dir = bundle + "/Contents/Resources/DWARF/";
    mt::test::write_file(dir + ".DS_Store", std::string("\0\0\0\1Bud1", 8) + std::string(4088, '\0'));
    mt::test::write_file(dir + "._UnityFramework", std::string("\0\x05\x16\x07\0\x02\0\0Mac OS X        ", 24) + std::string(4072, 'x'));

    std::vector<std::string> notes;
    SymbolLocator loc([&](const std::string &w) { notes.push_back(w); });
    loc.add_dsym(bundle);  // used to fail: every regular file there was taken as an object
    auto f = loc.find(unity_module(), MT_ARCH_ARM64, false);
    REQUIRE(f);
    CHECK(f->path == bundle + "/" + kDwarfRel);
    CHECK(f->slice.has_debug_info);
    REQUIRE(notes.size() == 2);
    CHECK(notes[0].find(dir + ".DS_Store") != std::string::npos);
    CHECK(notes[1].find(dir + "._UnityFramework") != std::string::npos);
    CHECK(notes[0].find("not a Mach-O file") != std::string::npos);

    // Through the command line: ingested with debug info.
    write_run(d.file("run.mt"));
    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--dsym", bundle, "--no-progress"}, &err);
    INFO(err);
    CHECK(rc == 0);
    CHECK(query1(d.file("run.db"), "SELECT count(*) FROM symbols WHERE file != ''") != "0");

    // A bundle holding nothing but such files is an error that says so.
    mt::test::TempDir e;
    fs::create_directories(e.file("Empty.dSYM/Contents/Resources/DWARF"));
    mt::test::write_file(e.file("Empty.dSYM/Contents/Resources/DWARF/.DS_Store"), "Bud1");
    SymbolLocator empty([](const std::string &) {});
    CHECK_THROWS_WITH(empty.add_dsym(e.file("Empty.dSYM")), Catch::Contains("no Mach-O file"));
}

TEST_CASE("symbolizer: the Xcode layout UnityFramework.framework.dSYM beside the framework is found from the binary", "[macho][dsym-layout]") {
    mt::test::TempDir d;
    std::string products = d.file("Build/Products/ReleaseForRunning-iphoneos");
    fs::create_directories(products + "/UnityFramework.framework");
    fs::copy_file(fixture("arm64/UnityFramework"), products + "/UnityFramework.framework/UnityFramework");
    fs::copy(fixture("arm64/UnityFramework.dSYM"), products + "/UnityFramework.framework.dSYM", fs::copy_options::recursive);
    write_run(d.file("run.mt"));

    for (const std::string rel : {"/UnityFramework.framework/UnityFramework", "/UnityFramework.framework"}) {
        DYNAMIC_SECTION(rel) {  // a stable name: the temporary directory differs on every pass
            const std::string given = products + rel;
            std::string db = d.file("run.db"), err;
            fs::remove(db);
            int rc = mt::test::run_tool({d.file("run.mt"), "--elf", given, "--no-progress"}, &err);
            INFO(err);
            CHECK(rc == 0);
            CHECK(query1(db, "SELECT symbol_file FROM modules") == products + "/UnityFramework.framework.dSYM/" + kDwarfRel);
            CHECK(query1(db, "SELECT count(*) FROM symbols WHERE file = ''") == "0");
            CHECK(err.find("matched no module") == std::string::npos);
            CHECK(err.find("without debug info") == std::string::npos);
        }
    }
}

TEST_CASE("symbolizer: --elf with a binary whose dSYM served the module gives no false matched-no-module warning - without a dSYM a warning",
          "[macho][dsym-layout]") {
    mt::test::TempDir d;
    write_run(d.file("run.mt"));
    std::string err;
    // The fixture binary has its UnityFramework.dSYM beside it.
    int rc = mt::test::run_tool({d.file("run.mt"), "--elf", fixture("arm64/UnityFramework"), "-o", d.file("a.db"), "--no-progress"}, &err);
    INFO(err);
    CHECK(rc == 0);
    CHECK(query1(d.file("a.db"), "SELECT symbol_file FROM modules") == fixture("arm64/UnityFramework.dSYM/" + kDwarfRel));
    CHECK(err.find("matched no module") == std::string::npos);

    // The binary alone: symbol table names only, and the tool says so.
    fs::copy_file(fixture("arm64/UnityFramework"), d.file("UnityFramework"));
    rc = mt::test::run_tool({d.file("run.mt"), "--elf", d.file("UnityFramework"), "-o", d.file("b.db"), "--no-progress"}, &err);
    CHECK(rc == 0);
    CHECK(err.find("symbolized without debug info") != std::string::npos);
    CHECK(err.find(d.file("UnityFramework")) != std::string::npos);
    CHECK(err.find("matched no module") == std::string::npos);
}
