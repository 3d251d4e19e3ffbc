// Bad input: a capture cut mid-chunk (frames used, warning), a corrupt capture (error, database
// unchanged), an unknown format version, symbol files with another id (refused, --force), a
// database that is not ours or newer, a capture ingested twice.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "memtracer/codec.h"
#include "memtracer/store/db.h"
#include "object_info.h"
#include "support.h"

using namespace mt::sym;
using mt::test::fixture;
using mt::test::query;
using mt::test::query1;

namespace {

struct Offsets {
    uint64_t after_dicts, after_frame0, after_frame1, end;
};

// Three frames; returns the file offsets between them.
Offsets write_run(const std::string &path, uint64_t start_ns = 1700000000000000000ull) {
    mt::test::RunWriter w(path, MT_ARCH_X86_64, 0, start_ns);
    w.thread(0, 1, "main");
    w.klass(0, "String", "System");
    w.stack(0, {0x1000, 0x2000});
    w.flush();
    Offsets o;
    o.after_dicts = w.w.bytes_written();
    for (uint64_t seq = 0; seq < 3; ++seq) {
        std::vector<mt::trace::EventRecord> ev;
        for (int i = 0; i < 50; ++i) ev.push_back({0, 1000 + seq * 16000000 + i, 0, 0, 24, 32, 0x10000 + 64u * i});
        w.frame(seq, ev);
        w.flush();
        if (seq == 0) o.after_frame0 = w.w.bytes_written();
        if (seq == 1) o.after_frame1 = w.w.bytes_written();
    }
    w.end();
    w.flush();
    o.end = w.w.bytes_written();
    return o;
}

// What the database holds, table by table, to compare before and after a failed input.
std::string contents(const std::string &db) {
    std::string s;
    for (const char *t : {"runs", "run_info", "modules", "threads", "classes", "addresses", "symbols", "sites", "stacks",
                          "stack_frames", "frames", "gc_events", "allocs", "run_class_stack", "deaths", "survivors"})
        s += std::string(t) + "=" + query1(db, std::string("SELECT count(*) FROM ") + t) + ";";
    for (const auto &row : query(db, "SELECT run_id, source_file FROM runs ORDER BY run_id")) s += row[0] + ":" + row[1] + ";";
    return s;
}

void flip_byte(const std::string &path, uint64_t offset) {
    std::string data = mt::test::read_file(path);
    data.at(offset) ^= 0x5a;
    mt::test::write_file(path, data);
}

}  // namespace

TEST_CASE("symbolizer: A capture cut mid-chunk: every complete frame is used and a warning says where", "[errors][truncated]") {
    mt::test::TempDir d;
    Offsets o = write_run(d.file("run.mt"));
    REQUIRE(truncate(d.file("run.mt").c_str(), static_cast<off_t>(o.after_frame1 + (o.end - o.after_frame1) / 2)) == 0);
    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "-o", d.file("run.db"), "--no-progress"}, &err);
    INFO(err);
    CHECK(rc == 0);
    CHECK(err.find("warning: ") != std::string::npos);
    CHECK(err.find("(truncated: ") != std::string::npos);
    CHECK(err.find("offset " + std::to_string(o.after_frame1)) != std::string::npos);
    CHECK(err.find("its 2 complete frames are used") != std::string::npos);
    CHECK(query1(d.file("run.db"), "SELECT stop FROM runs") == "truncated");
    CHECK(query1(d.file("run.db"), "SELECT frame_count FROM runs") == "2");
    CHECK(query1(d.file("run.db"), "SELECT sum(count) FROM allocs") == "100");
}

TEST_CASE("symbolizer: A capture that ends between chunks (no END) is used with a warning", "[errors][eof]") {
    mt::test::TempDir d;
    Offsets o = write_run(d.file("run.mt"));
    REQUIRE(truncate(d.file("run.mt").c_str(), static_cast<off_t>(o.after_frame1)) == 0);
    std::string err;
    CHECK(mt::test::run_tool({d.file("run.mt"), "--no-progress"}, &err) == 0);
    CHECK(err.find("(eof: ") != std::string::npos);
    CHECK(err.find("offset " + std::to_string(o.after_frame1)) != std::string::npos);
    CHECK(query1(d.file("run.db"), "SELECT stop || ':' || frame_count FROM runs") == "eof:2");
}

TEST_CASE("symbolizer: A corrupt capture is refused and the database is unchanged", "[errors][corrupt]") {
    mt::test::TempDir d;
    write_run(d.file("good.mt"));
    Offsets o = write_run(d.file("bad.mt"), 1700000000000000999ull);
    flip_byte(d.file("bad.mt"), (o.after_frame0 + o.after_frame1) / 2);  // inside frame 1, data after it

    std::string db = d.file("team.db");
    REQUIRE(mt::test::run_tool({d.file("good.mt"), "-o", db, "--no-progress"}) == 0);
    std::string before = contents(db);
    std::string err;
    int rc = mt::test::run_tool({d.file("bad.mt"), "-o", db, "--no-progress"}, &err);
    CHECK(rc == 3);
    CHECK(err.find("error: " + d.file("bad.mt") + ": corrupt at offset " + std::to_string(o.after_frame0)) != std::string::npos);
    CHECK(err.find("nothing was written") != std::string::npos);
    CHECK(contents(db) == before);

    // Into a new database: no file is left behind.
    CHECK(mt::test::run_tool({d.file("bad.mt"), "-o", d.file("new.db"), "--no-progress"}) == 3);
    CHECK_FALSE(std::filesystem::exists(d.file("new.db")));

    // --salvage keeps what precedes the damage.
    CHECK(mt::test::run_tool({d.file("bad.mt"), "-o", db, "--salvage", "--no-progress"}, &err) == 0);
    CHECK(query1(db, "SELECT stop || ':' || frame_count FROM runs WHERE source_file LIKE '%bad.mt'") == "corrupt:1");
}

TEST_CASE("symbolizer: Unknown format version and non-captures are clear errors", "[errors][version]") {
    mt::test::TempDir d;
    write_run(d.file("run.mt"));
    std::string data = mt::test::read_file(d.file("run.mt"));
    uint8_t *h = reinterpret_cast<uint8_t *>(data.data());
    mt::codec::put_le32(h + 8, 7);  // version
    mt::codec::put_le32(h + 60, mt::codec::crc32c_update(0, h, 60));
    mt::test::write_file(d.file("v7.mt"), data);
    std::string err;
    CHECK(mt::test::run_tool({d.file("v7.mt"), "--no-progress"}, &err) == 3);
    CHECK(err.find("v7.mt") != std::string::npos);
    CHECK(err.find("version") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(d.file("v7.db")));

    mt::test::write_file(d.file("notes.mt"), "these are not the bytes you are looking for");
    CHECK(mt::test::run_tool({d.file("notes.mt"), "--no-progress"}, &err) == 3);
    CHECK(mt::test::run_tool({d.file("missing.mt"), "--no-progress"}, &err) == 3);
    CHECK(err.find("missing.mt") != std::string::npos);
}

TEST_CASE("symbolizer: A symbol file with another UUID is refused with both ids - --force uses it", "[errors][uuid]") {
    auto arm64 = mt::test::macho_uuid(fixture("arm64/UnityFramework"), "arm64");
    auto x86 = mt::test::macho_uuid(fixture("x86_64/UnityFramework"), "x86_64");
    uint64_t ret = 0;
    for (const auto &cs : mt::test::arm64_call_sites(fixture("arm64/UnityFramework")))
        if (cs.callee == "il2cpp_codegen_object_new") ret = cs.address + 4 + 0x100000000;
    mt::test::TempDir d;
    {
        mt::test::RunWriter w(d.file("run.mt"), MT_ARCH_ARM64);
        // Recorded with the UUID of another build of UnityFramework.
        w.module(0, MT_MODULE_MACHO, "/var/containers/Bundle/Application/A/Game.app/Frameworks/UnityFramework.framework/UnityFramework",
                 0x100000000, 0x10000, 0x100000000, 0, x86);
        w.thread(0, 1, "main");
        w.klass(0, "Node", "");
        w.stack(0, {ret});
        w.frame(0, {{0, 1001, 0, 0, 16, 16, 0x1000}});
        w.end();
        w.flush();
    }
    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--dsym", fixture("arm64/UnityFramework.dSYM"), "--no-progress"}, &err);
    CHECK(rc == 4);
    CHECK(err.find(display_id(x86, ObjectKind::MachO)) != std::string::npos);
    CHECK(err.find(display_id(arm64, ObjectKind::MachO)) != std::string::npos);
    CHECK(err.find("--force") != std::string::npos);
    CHECK(err.find("matched no module") == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(d.file("run.db")));

    rc = mt::test::run_tool({d.file("run.mt"), "--dsym", fixture("arm64/UnityFramework.dSYM"), "--force", "--no-progress"}, &err);
    CHECK(rc == 0);
    CHECK(err.find("used anyway (--force)") != std::string::npos);
    CHECK(query1(d.file("run.db"), "SELECT s.function FROM symbols s JOIN stack_frames USING(addr_id)") ==
          "NodeFactory_CreateNode_m5E30EE5A6D660B15B3B6AADAAF00D416B84BFE12");

    // Found by a directory search instead: a warning, and the module stays unsymbolized.
    mt::test::TempDir syms;
    std::filesystem::copy(fixture("arm64/UnityFramework.dSYM"), syms.file("UnityFramework.dSYM"), std::filesystem::copy_options::recursive);
    rc = mt::test::run_tool({d.file("run.mt"), "--symbols", syms.path, "-o", d.file("dir.db"), "--no-progress"}, &err);
    CHECK(rc == 0);
    CHECK(err.find("module left unsymbolized") != std::string::npos);
    CHECK(query1(d.file("dir.db"), "SELECT count(*) FROM symbols") == "0");
    CHECK(query1(d.file("dir.db"), "SELECT symbol_file FROM modules") == "NULL");
}

TEST_CASE("symbolizer: Databases that are not ours - or newer - are refused", "[errors][db]") {
    mt::test::TempDir d;
    write_run(d.file("run.mt"));
    auto make = [](const std::string &path, const char *sql) {
        REQUIRE_NOTHROW(mt::store::Db::open(path, true).exec(sql));
    };
    make(d.file("other.db"), "CREATE TABLE photos(id INTEGER)");
    make(d.file("newer.db"), "PRAGMA user_version = 6; CREATE TABLE runs(run_id INTEGER)");
    std::string err;
    CHECK(mt::test::run_tool({d.file("run.mt"), "-o", d.file("other.db"), "--no-progress"}, &err) == 5);
    CHECK(err.find("not a MemTracer database") != std::string::npos);
    CHECK(mt::test::run_tool({d.file("run.mt"), "-o", d.file("newer.db"), "--no-progress"}, &err) == 5);
    CHECK(err.find("schema version 6") != std::string::npos);
    mt::test::write_file(d.file("text.db"), std::string(4096, 'x'));
    CHECK(mt::test::run_tool({d.file("run.mt"), "-o", d.file("text.db"), "--no-progress"}, &err) == 5);
}

TEST_CASE("symbolizer: a database of another program with a user_version - or a newer meta version - is refused byte for byte unchanged",
          "[errors][db][schema]") {
    mt::test::TempDir d;
    write_run(d.file("run.mt"));
    auto exec = [](const std::string &path, const char *sql) {
        REQUIRE_NOTHROW(mt::store::Db::open(path, true).exec(sql));
    };
    // Many programs set user_version; 1 is common. Foreign tables, none of ours.
    exec(d.file("app.db"), "PRAGMA user_version = 1; CREATE TABLE photos(id INTEGER); INSERT INTO photos VALUES (7)");
    // A MemTracer database a newer tool marked in meta (user_version still 5).
    REQUIRE(mt::test::run_tool({d.file("run.mt"), "-o", d.file("newer.db"), "--no-progress"}) == 0);
    exec(d.file("newer.db"), "UPDATE meta SET value = '6' WHERE key = 'schema_version'");
    // user_version 6 with our tables.
    REQUIRE(mt::test::run_tool({d.file("run.mt"), "-o", d.file("v5.db"), "--no-progress"}) == 0);
    exec(d.file("v5.db"), "PRAGMA user_version = 6");

    for (const char *name : {"app.db", "newer.db", "v5.db"}) {
        DYNAMIC_SECTION(name) {
            std::string db = d.file(name), before = mt::test::read_file(db), err;
            int rc = mt::test::run_tool({d.file("run.mt"), "-o", db, "--force", "--no-progress"}, &err);
            INFO(err);
            CHECK(rc == 5);
            CHECK(err.find(db) != std::string::npos);                    // what file
            CHECK(err.find("schema version 5") != std::string::npos);    // what is expected
            CHECK(err.find("nothing was written") != std::string::npos);
            if (std::string(name) == "app.db") {
                CHECK(err.find("not a MemTracer database") != std::string::npos);
                CHECK(err.find("user_version 1") != std::string::npos);  // what was found
                CHECK(err.find("photos") != std::string::npos);
            } else {
                CHECK(err.find("schema version 6") != std::string::npos);
                CHECK(err.find("newer") != std::string::npos);
            }
            CHECK(mt::test::read_file(db) == before);
            CHECK_FALSE(std::filesystem::exists(db + "-journal"));
            CHECK_FALSE(std::filesystem::exists(db + "-wal"));
        }
    }
}

TEST_CASE("symbolizer: The same capture twice is refused unless --force", "[errors][duplicate]") {
    mt::test::TempDir d;
    write_run(d.file("run.mt"));
    REQUIRE(mt::test::run_tool({d.file("run.mt"), "--no-progress"}) == 0);
    std::string err;
    CHECK(mt::test::run_tool({d.file("run.mt"), "--no-progress"}, &err) == 3);
    CHECK(err.find("already in the database as run 1") != std::string::npos);
    CHECK(mt::test::run_tool({d.file("run.mt"), "--force", "--no-progress"}) == 0);
    CHECK(query1(d.file("run.db"), "SELECT count(*) FROM runs") == "2");
}
