// The command line: the man-page --help, usage errors, default output, several inputs into one
// database, plain progress lines when stderr is not a terminal, --quiet, the other backends.
#include <catch2/catch.hpp>

#include <filesystem>

#include "support.h"

using mt::test::fixture;
using mt::test::query1;

namespace {

void write_run(const std::string &path, const mt::test::LoadedElf &elf, uint64_t start_ns) {
    mt::test::RunWriter w(path, MT_ARCH_X86_64, 0, start_ns);
    mt::test::add_elf_module(w, 0, elf);
    w.thread(0, 1, "main");
    w.klass(0, "Node", "Game");
    w.stack(0, {elf.slots[0], elf.slots[2], elf.slots[6], elf.slots[7]});
    w.frame(0, {{0, 1001, 0, 0, 16, 16, 0x1000}});
    w.end();
    w.flush();
}

}  // namespace

TEST_CASE("symbolizer: --help reads like a man page", "[cli]") {
    std::string out;
    REQUIRE(mt::test::run_tool({"--help"}, nullptr, &out) == 0);
    size_t at = 0;
    for (const char *section : {"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES"}) {
        size_t p = out.find(std::string("\n") + section + "\n");
        if (std::string(section) == "NAME") p = out.rfind("NAME\n", 0) == 0 ? 0 : std::string::npos;
        INFO(section);
        REQUIRE(p != std::string::npos);
        CHECK(p >= at);  // in man-page order
        at = p;
    }
    for (const char *opt : {"--dsym", "--elf", "--symbols", "-o,", "--jobs", "--backend", "--il2cpp-symbols", "--force"})
        CHECK(out.find(opt) != std::string::npos);
    for (const char *code : {"    0   ", "    2   ", "    3   ", "    4   ", "    5   "}) CHECK(out.find(code) != std::string::npos);
}

TEST_CASE("symbolizer: Usage errors exit with 2 and say why", "[cli]") {
    std::string err;
    CHECK(mt::test::run_tool({}, &err) == 2);
    CHECK(err.find("no input") != std::string::npos);
    CHECK(mt::test::run_tool({"a.mt", "b.mt"}, &err) == 2);
    CHECK(err.find("several inputs need -o") != std::string::npos);
    CHECK(mt::test::run_tool({"a.mt", "--jobs", "zero"}, &err) == 2);
    CHECK(mt::test::run_tool({"a.mt", "--backend", "gdb"}, &err) == 2);
    CHECK(err.find("unknown backend 'gdb'") != std::string::npos);
    CHECK(mt::test::run_tool({"a.mt", "--frobnicate"}, &err) == 2);
    CHECK(mt::test::run_tool({"a.mt", "--dsym"}, &err) == 2);
    CHECK(mt::test::run_tool({"a.mt", "--dsym", "/nonexistent.dSYM"}, &err) == 4);
    CHECK(err.find("/nonexistent.dSYM") != std::string::npos);
}

TEST_CASE("symbolizer: Several inputs into one database - then appending - plain progress lines in a log", "[cli]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_gcc.so"));
    mt::test::TempDir d;
    write_run(d.file("a.mt"), elf, 1);
    write_run(d.file("b.mt"), elf, 2);
    write_run(d.file("c.mt"), elf, 3);
    std::string err;
    REQUIRE(mt::test::run_tool({d.file("a.mt"), d.file("b.mt"), "-o", d.file("team.db"), "--elf", elf.path}, &err) == 0);
    CHECK(query1(d.file("team.db"), "SELECT count(*) FROM runs") == "2");
    // stderr is a file here: no terminal control codes, one line per summary.
    CHECK(err.find('\r') == std::string::npos);
    CHECK(err.find("\033[") == std::string::npos);
    CHECK(err.find("symbolize: 100% 4/4 addresses") != std::string::npos);
    CHECK(err.find("a.mt -> " + d.file("team.db") + " (run 1)") != std::string::npos);
    CHECK(err.find("(run 2): 1 frames, 1 allocations, 1 stacks; 4 addresses: 0 symbolized now, 4 from the cache") != std::string::npos);
    REQUIRE(mt::test::run_tool({d.file("c.mt"), "-o", d.file("team.db"), "--elf", elf.path, "--quiet"}, &err) == 0);
    CHECK(err.empty());
    CHECK(query1(d.file("team.db"), "SELECT count(*) FROM runs") == "3");
    // A failing input among good ones: the others are kept, the status is the failure's.
    mt::test::write_file(d.file("bad.mt"), "garbage");
    write_run(d.file("e.mt"), elf, 5);
    CHECK(mt::test::run_tool({d.file("bad.mt"), d.file("e.mt"), "-o", d.file("team.db"), "--elf", elf.path, "-q"}, &err) == 3);
    CHECK(query1(d.file("team.db"), "SELECT count(*) FROM runs") == "4");
}

TEST_CASE("symbolizer: --resymbolize sends every address to the backend again", "[cli][resymbolize]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_gcc.so"));
    mt::test::TempDir d;
    write_run(d.file("a.mt"), elf, 1);
    write_run(d.file("b.mt"), elf, 2);
    write_run(d.file("c.mt"), elf, 3);
    std::string err, db = d.file("run.db");
    REQUIRE(mt::test::run_tool({d.file("a.mt"), "-o", db, "--elf", elf.path, "--no-progress"}, &err) == 0);
    std::string symbols = query1(db, "SELECT group_concat(addr_id || depth || function || line, '|') FROM symbols");
    REQUIRE(mt::test::run_tool({d.file("b.mt"), "-o", db, "--elf", elf.path, "--no-progress"}, &err) == 0);
    CHECK(err.find("4 addresses: 0 symbolized now, 4 from the cache") != std::string::npos);
    REQUIRE(mt::test::run_tool({d.file("c.mt"), "-o", db, "--elf", elf.path, "--resymbolize", "--no-progress"}, &err) == 0);
    CHECK(err.find("4 addresses: 4 symbolized now, 0 from the cache") != std::string::npos);
    // Replaced, not added to: the same rows as before.
    CHECK(query1(db, "SELECT group_concat(addr_id || depth || function || line, '|') FROM symbols") == symbols);
    CHECK(mt::test::run_tool({d.file("c.mt"), "--resymbolize=1"}, &err) == 2);
}

TEST_CASE("symbolizer: --backend llvm-symbolizer and atos give the same database rows as builtin", "[cli][backends]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    mt::test::TempDir d;
    write_run(d.file("run.mt"), elf, 1);
    const std::string rows = "SELECT group_concat(a.file_address || ':' || s.depth || ':' || s.function || ':' || s.file || ':' || s.line || ':' || s.column, '|') "
                             "FROM (SELECT * FROM symbols ORDER BY addr_id, depth) s JOIN addresses a USING(addr_id)";
    REQUIRE(mt::test::run_tool({d.file("run.mt"), "-o", d.file("builtin.db"), "--elf", elf.path, "-q"}) == 0);
    std::string err;
    REQUIRE(mt::test::run_tool({d.file("run.mt"), "-o", d.file("llvm.db"), "--elf", elf.path, "-q", "--backend", "llvm-symbolizer", "-j", "3"}, &err) == 0);
    CHECK(query1(d.file("llvm.db"), rows) == query1(d.file("builtin.db"), rows));
    // atos reads Mach-O only: asked for an ELF module it is a clear error.
    CHECK(mt::test::run_tool({d.file("run.mt"), "-o", d.file("atos.db"), "--elf", elf.path, "-q", "--backend", "atos", "--atos", MT_ATOS_STANDIN}, &err) == 4);
    CHECK(err.find("Mach-O files only") != std::string::npos);
}

TEST_CASE("symbolizer: --symbols DIR: several modules at once - matched by build id - debug info preferred", "[cli][symbols-dir]") {
    auto gcc = mt::test::load_and_run_elf(fixture("libfixture_gcc.so"));
    auto clang = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_X86_64);
        mt::test::add_elf_module(w, 0, gcc);
        mt::test::add_elf_module(w, 1, clang);
        w.thread(0, 1, "main");
        w.klass(0, "Node", "Game");
        w.stack(0, {gcc.slots[0], gcc.slots[2], clang.slots[0], clang.slots[2]});
        w.frame(0, {{0, 1001, 0, 0, 16, 16, 0x1000}});
        w.end();
        w.flush();
    }
    // An Android-style symbols directory: the stripped library as shipped, its unstripped twin
    // under another name (same build id), and the other library.
    namespace fs = std::filesystem;
    fs::create_directories(d.file("syms/lib/x86_64"));
    fs::create_directories(d.file("syms/debug"));
    fs::copy_file(fixture("stripped/libfixture_gcc.so"), d.file("syms/lib/x86_64/libfixture_gcc.so"));
    fs::copy_file(fixture("libfixture_gcc.so"), d.file("syms/debug/libfixture_gcc.sym.so"));
    fs::copy_file(fixture("libfixture_clang.so"), d.file("syms/lib/x86_64/libfixture_clang.so"));
    mt::test::write_file(d.file("syms/README.txt"), "not an object file");
    std::string err;
    REQUIRE(mt::test::run_tool({d.file("run.mt"), "--symbols", d.file("syms"), "--no-progress"}, &err) == 0);
    std::string db = d.file("run.db");
    auto mods = mt::test::query(db, "SELECT module_id, symbol_file FROM modules ORDER BY module_id");
    REQUIRE(mods.size() == 2);
    CHECK(mods[0][1] == d.file("syms/debug/libfixture_gcc.sym.so"));
    CHECK(mods[1][1] == d.file("syms/lib/x86_64/libfixture_clang.so"));
    // Every frame of both modules has a source line.
    CHECK(query1(db, "SELECT count(DISTINCT f.pos) FROM stack_frames f JOIN symbols s USING(addr_id) WHERE s.line > 0 AND s.file != ''") == "4");
    CHECK(query1(db, "SELECT group_concat(quality) FROM addresses") == "2,2,2,2");
}
