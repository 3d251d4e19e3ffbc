// Damaged symbol files: real clang-built DWARF (the arm64 dSYM and the clang ELF fixture) with
// byte-flipped __debug_abbrev / __debug_info / __debug_line sections, made here from copies.
// The tool must refuse such a file with its name and a reason, never crash (LLVM used to
// SIGSEGV on a corrupt abbreviation table), never print LLVM's raw warnings, and leave the
// database as it was (no -journal left behind).
#include <llvm/Object/ObjectFile.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "object_info.h"
#include "support.h"

using namespace mt::sym;
using mt::test::fixture;
using mt::test::query;
using mt::test::query1;
namespace fs = std::filesystem;

namespace {

// File offset and size of section `name` (Mach-O "__debug_info" or ELF ".debug_info").
std::pair<uint64_t, uint64_t> section_extent(const std::string &path, const std::string &name) {
    auto bin = llvm::object::ObjectFile::createObjectFile(path);
    if (!bin) throw std::runtime_error(llvm::toString(bin.takeError()));
    llvm::object::ObjectFile &o = *bin->getBinary();
    const char *base = o.getMemoryBufferRef().getBufferStart();
    for (const auto &s : o.sections()) {
        auto n = s.getName();
        if (!n) {
            llvm::consumeError(n.takeError());
            continue;
        }
        if (*n != name) continue;
        auto c = s.getContents();
        if (!c) throw std::runtime_error(llvm::toString(c.takeError()));
        return {static_cast<uint64_t>(c->data() - base), c->size()};
    }
    throw std::runtime_error(path + ": no section " + name);
}

// Copies `src` to `dst` with every `stride`-th byte of section `name` flipped, starting `skip`
// bytes in (past the first unit header, so the damage is inside the data LLVM reads lazily).
void damage(const std::string &src, const std::string &dst, const std::string &name, uint64_t skip, uint64_t stride) {
    auto [off, size] = section_extent(src, name);
    REQUIRE(size > skip);
    std::string data = mt::test::read_file(src);
    for (uint64_t i = skip; i < size; i += stride) data[off + i] ^= 0x5a;
    fs::create_directories(fs::path(dst).parent_path());
    mt::test::write_file(dst, data);
}

std::string contents(const std::string &db) {
    std::string s;
    for (const char *t : {"runs", "modules", "addresses", "symbols", "sites", "stacks", "stack_frames", "allocs"})
        s += std::string(t) + "=" + query1(db, std::string("SELECT count(*) FROM ") + t) + ";";
    return s;
}

// A run of the arm64 UnityFramework fixture using every BL's return address.
void write_macho_run(const std::string &path, uint64_t start_ns) {
    auto uuid = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    const uint64_t load = 0x104a30000;
    mt::test::RunWriter w(path, MT_ARCH_ARM64, 0, start_ns);
    w.module(0, MT_MODULE_MACHO, "/var/containers/Bundle/Application/A/Game.app/Frameworks/UnityFramework.framework/UnityFramework",
             load, 0x10000, load, 0, uuid);
    w.thread(0, 1, "main");
    w.klass(0, "Node", "Game");
    std::vector<uint64_t> frames;
    for (const auto &cs : mt::test::arm64_call_sites(fixture("arm64/UnityFramework"))) frames.push_back(cs.address + 4 + load);
    REQUIRE(frames.size() >= 5);
    w.stack(0, frames);
    w.frame(0, {{0, 1001, 0, 0, 16, 16, 0x1000}});
    w.end();
    w.flush();
}

void write_elf_run(const std::string &path, const mt::test::LoadedElf &elf, uint64_t start_ns) {
    mt::test::RunWriter w(path, MT_ARCH_X86_64, 0, start_ns);
    mt::test::add_elf_module(w, 0, elf);
    w.thread(0, 1, "main");
    w.klass(0, "Node", "Game");
    w.stack(0, elf.slots);
    w.frame(0, {{0, 1001, 0, 0, 16, 16, 0x1000}});
    w.end();
    w.flush();
}

// A database to append to that knows nothing of the module (else the cache would answer and
// the damaged file would never be read).
void write_plain_run(const std::string &path) {
    mt::test::RunWriter w(path, MT_ARCH_X86_64, 0, 99);
    w.thread(0, 1, "main");
    w.klass(0, "String", "System");
    w.stack(0, {0x1000, 0x2000});
    w.frame(0, {{0, 1001, 0, 0, 24, 32, 0x10000}});
    w.end();
    w.flush();
}

// Every line the tool printed is its own, prefixed; LLVM's warnings are counted, not dumped.
void check_own_messages(const std::string &err) {
    std::istringstream in(err);
    std::string line;
    size_t lines = 0;
    while (std::getline(in, line)) {
        ++lines;
        INFO(line);
        CHECK(line.rfind("memtracer-symbolize: ", 0) == 0);
    }
    CHECK(lines <= 12);
}

struct Case {
    std::string section;
    uint64_t skip, stride;
};

}  // namespace

TEST_CASE("symbolizer: a dSYM with damaged DWARF is refused by name - no crash - database unchanged", "[errors][bad-symbols]") {
    const std::string dwarf = fixture("arm64/UnityFramework.dSYM/Contents/Resources/DWARF/UnityFramework");
    for (const Case &c : {Case{"__debug_abbrev", 8, 3}, Case{"__debug_abbrev", 2, 1}, Case{"__debug_info", 12, 7},
                          Case{"__debug_info", 40, 2}, Case{"__debug_line", 40, 5}}) {
        DYNAMIC_SECTION(c.section << " every " << c.stride << " from " << c.skip) {
            mt::test::TempDir d;
            std::string bad = d.file("Bad.dSYM/Contents/Resources/DWARF/UnityFramework");
            damage(dwarf, bad, c.section, c.skip, c.stride);
            write_plain_run(d.file("good.mt"));
            write_macho_run(d.file("bad.mt"), 2);
            std::string db = d.file("team.db"), err;
            REQUIRE(mt::test::run_tool({d.file("good.mt"), "-o", db, "--no-progress"}, &err) == 0);
            std::string before = contents(db);

            int rc = mt::test::run_tool({d.file("bad.mt"), "-o", db, "--dsym", d.file("Bad.dSYM"), "--no-progress"}, &err);
            INFO(err);
            CHECK(rc == 4);  // symbols; not a signal (128 + n)
            CHECK(err.find(bad) != std::string::npos);
            CHECK(err.find("damaged debug info") != std::string::npos);
            check_own_messages(err);
            CHECK_FALSE(fs::exists(db + "-journal"));
            CHECK_FALSE(fs::exists(db + "-wal"));
            CHECK(contents(db) == before);

            // Into a new database: nothing is left behind.
            rc = mt::test::run_tool({d.file("bad.mt"), "-o", d.file("new.db"), "--dsym", d.file("Bad.dSYM"), "--no-progress"}, &err);
            CHECK(rc == 4);
            CHECK_FALSE(fs::exists(d.file("new.db")));
            CHECK_FALSE(fs::exists(d.file("new.db-journal")));
        }
    }
}

TEST_CASE("symbolizer: --backend llvm-symbolizer - a damaged dSYM is refused by name and the tool's warnings are not passed through",
          "[errors][bad-symbols][backends]") {
    const std::string dwarf = fixture("arm64/UnityFramework.dSYM/Contents/Resources/DWARF/UnityFramework");
    for (const Case &c : {Case{"__debug_abbrev", 8, 3}, Case{"__debug_info", 12, 7}, Case{"__debug_line", 40, 5}}) {
        DYNAMIC_SECTION(c.section << " every " << c.stride << " from " << c.skip) {
            mt::test::TempDir d;
            std::string bad = d.file("Bad.dSYM/Contents/Resources/DWARF/UnityFramework");
            damage(dwarf, bad, c.section, c.skip, c.stride);
            write_plain_run(d.file("good.mt"));
            write_macho_run(d.file("bad.mt"), 2);
            std::string db = d.file("team.db"), err;
            REQUIRE(mt::test::run_tool({d.file("good.mt"), "-o", db, "--no-progress"}, &err) == 0);
            std::string before = contents(db);
            int rc = mt::test::run_tool({d.file("bad.mt"), "-o", db, "--dsym", d.file("Bad.dSYM"), "--backend", "llvm-symbolizer",
                                         "--jobs", "2", "--no-progress"}, &err);
            INFO(err);
            CHECK(rc == 4);
            CHECK(err.find(bad) != std::string::npos);
            CHECK(err.find("damaged debug info") != std::string::npos);
            check_own_messages(err);
            CHECK_FALSE(fs::exists(db + "-journal"));
            CHECK(contents(db) == before);
        }
    }
}

TEST_CASE("symbolizer: an ELF with damaged DWARF is refused by name - no crash - database unchanged", "[errors][bad-symbols]") {
    auto elf = mt::test::load_and_run_elf(fixture("libfixture_clang.so"));
    for (const Case &c : {Case{".debug_abbrev", 8, 3}, Case{".debug_info", 12, 7}, Case{".debug_line", 40, 5}}) {
        DYNAMIC_SECTION(c.section << " every " << c.stride << " from " << c.skip) {
            mt::test::TempDir d;
            std::string bad = d.file("bad/libfixture_clang.so");
            damage(elf.path, bad, c.section, c.skip, c.stride);
            write_plain_run(d.file("good.mt"));
            write_elf_run(d.file("bad.mt"), elf, 2);
            std::string db = d.file("run.db"), err;
            REQUIRE(mt::test::run_tool({d.file("good.mt"), "-o", db, "--no-progress"}, &err) == 0);
            std::string before = contents(db);
            int rc = mt::test::run_tool({d.file("bad.mt"), "-o", db, "--elf", bad, "--no-progress"}, &err);
            INFO(err);
            CHECK(rc == 4);
            CHECK(err.find(bad) != std::string::npos);
            CHECK(err.find("damaged debug info") != std::string::npos);
            check_own_messages(err);
            CHECK_FALSE(fs::exists(db + "-journal"));
            CHECK(contents(db) == before);
        }
    }
}

#include "backend.h"
#include "memtracer/symbolizer/errors.h"

TEST_CASE("symbolizer: every single-byte flip of the dSYM DWARF sections - the builtin backend refuses or answers - never crashes",
          "[errors][bad-symbols][flip]") {
    const std::string dwarf = fixture("arm64/UnityFramework.dSYM/Contents/Resources/DWARF/UnityFramework");
    const std::string good = mt::test::read_file(dwarf);
    std::vector<uint64_t> lookups;
    for (const auto &cs : mt::test::arm64_call_sites(fixture("arm64/UnityFramework"))) lookups.push_back(cs.address + 4 - 1);
    std::sort(lookups.begin(), lookups.end());
    auto backend = make_backend({BackendKind::Builtin, 1, "", ""});
    mt::test::TempDir d;
    const std::string path = d.file("UnityFramework");
    size_t refused = 0, answered = 0;
    for (const char *section : {"__debug_abbrev", "__debug_info", "__debug_line"}) {
        auto [off, size] = section_extent(dwarf, section);
        for (uint64_t i = 0; i < size; ++i) {
            std::string data = good;
            data[off + i] ^= 0xff;
            mt::test::write_file(path, data);
            SymbolFile f;
            f.path = path;
            f.arch = "arm64";
            f.kind = ObjectKind::MachO;
            f.slice = inspect_object(path).slices.at(0);
            REQUIRE(f.slice.has_debug_info);
            std::vector<std::string> warnings;
            BackendContext ctx{nullptr, [&](const std::string &w) { warnings.push_back(w); }, nullptr};
            try {
                auto recs = backend->symbolize(f, lookups, ctx);
                CHECK(recs.size() == lookups.size());
                ++answered;
            } catch (const Error &e) {
                INFO(section << " byte " << i << ": " << e.what());
                CHECK(e.code == ExitCode::Symbols);
                CHECK(std::string(e.what()).find(path + ": damaged debug info") == 0);
                ++refused;
            }
        }
    }
    // Most flips are caught; some change only a value (a line number, a name offset) that no
    // reader can tell from a real one.
    CHECK(refused > 0);
    CHECK(answered > 0);
    WARN("single-byte flips: " << refused << " refused, " << answered << " answered");
}
