// Schema version 5 (a stack's frames stored once per distinct content, as a shape shared by every
// run of the build; stack_frames a view of version 4's columns): the view gives back each run's
// raw addresses, runs at other load addresses share a shape, frames outside every module keep
// their address, and a version-4 file is migrated to the same rows out of the view.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "memtracer/store/schema.h"
#include "memtracer/store/shapes.h"
#include "memtracer/store/writer_sql.h"
#include "store_test_util.h"

using mt::store::Db;
using mt::store::ShapeFrame;
using mt::store::ShapeWriter;

namespace {

std::string rows(Db &db, const std::string &sql) {
    std::string out;
    auto s = db.prepare(sql);
    while (s.step())
        for (int c = 0; c < s.columns(); ++c) out += (s.null(c) ? "NULL" : s.str(c)) + (c + 1 == s.columns() ? "\n" : "|");
    return out;
}

std::string frames_of(Db &db) { return rows(db, "SELECT * FROM stack_frames ORDER BY run_id, stack_id, pos"); }

// The cache of one module (key 1): rows 1..3 at file addresses 0x1000, 0x2000, 0x3000.
constexpr const char *kCache = R"(
INSERT INTO address_modules VALUES (1, 'aa01', 'libil2cpp.so');
INSERT INTO address_rows VALUES (1, 1, 4096, 1, 2, 0), (2, 1, 8192, 1, 2, 0), (3, 1, 12288, 0, 0, 0);
)";

void add_run(Db &db, int64_t run) {
    db.exec("INSERT INTO runs(run_id, source_file, source_size, ingested_unix_ns, start_unix_ns, pid, mode, tick_hz, stop) "
            "VALUES (" + std::to_string(run) + ", 'r.mt', 10, 1, " + std::to_string(run) + ", 7, 'events', 1e9, 'end')");
}

// A stack's frames as the symbolizer gives them: row id -> file address 0x1000 * id, at `bias`.
ShapeFrame in_module(int64_t addr_id, uint64_t bias) {
    return ShapeFrame{0x1000u * static_cast<uint64_t>(addr_id) + bias, addr_id, 1, 0x1000u * static_cast<uint64_t>(addr_id)};
}

void add_stack(Db &db, ShapeWriter &w, int64_t run, int64_t stack, const std::vector<ShapeFrame> &frames) {
    int64_t shape = w.shape_of(frames);
    auto st = db.prepare("INSERT INTO stacks(run_id, stack_id, depth, site_id, machinery, shape_id) VALUES (?1, ?2, ?3, NULL, 0, ?4)");
    st.bind(1, run).bind(2, stack).bind(3, static_cast<int64_t>(frames.size()));
    shape ? st.bind(4, shape) : st.bind_null(4);
    st.run();
}

}  // namespace

TEST_CASE("store: version 5's stack_frames view gives each run's raw addresses from one shared shape",
          "[store][schema][version][shapes]") {
    mt::test::StoreDir d;
    std::string path = d.file("v5.db");
    mt::store::create_empty_database(path);
    Db db = Db::open(path, false);
    CHECK(db.query_int("PRAGMA user_version") == 5);
    CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'stack_frames'") == 1);
    CHECK(rows(db, "SELECT name FROM pragma_table_info('stack_frames')") == "run_id\nstack_id\npos\naddress\naddr_id\n");
    db.exec(kCache);
    const uint64_t bias1 = 0x7f0000000000, bias2 = 0x5500000000;
    for (int64_t run : {1, 2}) {
        add_run(db, run);
        ShapeWriter w(db, run);
        const uint64_t bias = run == 1 ? bias1 : bias2;
        // Stack 0: three frames of the module. Stack 1: one of the module, one outside every
        // module (a JIT trampoline: raw address, no addr_id). Stack 2: no frames.
        add_stack(db, w, run, 0, {in_module(1, bias), in_module(2, bias), in_module(3, bias)});
        add_stack(db, w, run, 1, {in_module(2, bias), ShapeFrame{0x1234, 0, 0, 0}});
        add_stack(db, w, run, 2, {});
        w.flush();
        CHECK(w.shapes_written() == (run == 1 ? 2u : 0u));  // the second run finds both shapes
    }
    CHECK(db.query_int("SELECT count(*) FROM stack_shapes") == 2);
    CHECK(db.query_int("SELECT count(*) FROM shape_frames") == 5);
    CHECK(rows(db, "SELECT run_id, module_key, bias FROM run_biases ORDER BY run_id") ==
          std::to_string(1) + "|1|" + std::to_string(bias1) + "\n2|1|" + std::to_string(bias2) + "\n");
    // Each run's own raw addresses, the same addr_ids.
    CHECK(frames_of(db) == "1|0|0|" + std::to_string(0x1000 + bias1) + "|1\n"
                           "1|0|1|" + std::to_string(0x2000 + bias1) + "|2\n"
                           "1|0|2|" + std::to_string(0x3000 + bias1) + "|3\n"
                           "1|1|0|" + std::to_string(0x2000 + bias1) + "|2\n"
                           "1|1|1|4660|NULL\n"
                           "2|0|0|" + std::to_string(0x1000 + bias2) + "|1\n"
                           "2|0|1|" + std::to_string(0x2000 + bias2) + "|2\n"
                           "2|0|2|" + std::to_string(0x3000 + bias2) + "|3\n"
                           "2|1|0|" + std::to_string(0x2000 + bias2) + "|2\n"
                           "2|1|1|4660|NULL\n");
    CHECK(rows(db, "SELECT typeof(address) FROM stack_frames GROUP BY 1") == "integer\n");
    // The readers' lookups: one stack, and a run's stacks that contain an address.
    CHECK(rows(db, "SELECT pos, address FROM stack_frames WHERE run_id = 2 AND stack_id = 1 ORDER BY pos") ==
          "0|" + std::to_string(0x2000 + bias2) + "\n1|4660\n");
    CHECK(rows(db, "SELECT DISTINCT stack_id FROM stack_frames WHERE run_id = 1 AND addr_id = 2 ORDER BY 1") == "0\n1\n");
}

TEST_CASE("store: a frame whose address the bias cannot give back exactly keeps its raw address", "[store][schema][shapes]") {
    mt::test::StoreDir d;
    std::string path = d.file("raw.db");
    mt::store::create_empty_database(path);
    Db db = Db::open(path, false);
    db.exec(kCache);
    add_run(db, 1);
    add_run(db, 2);
    {
        // Run 1 maps the module twice: the first bias seen is the run's, the other mapping's
        // frame is stored raw (with its addr_id).
        ShapeWriter w(db, 1);
        add_stack(db, w, 1, 0, {in_module(1, 0x1000000), in_module(2, 0x2000000)});
    }
    // Run 2: file address + bias past INT64_MAX (SQLite would make the sum a REAL): raw, and the
    // bias is not the run's; the next frame of the module sets it.
    const uint64_t past = 0x8000000000000fffull;  // 0x1000 + 0x7fffffffffffffff
    {
        ShapeWriter w(db, 2);
        add_stack(db, w, 2, 0, {ShapeFrame{past, 1, 1, 0x1000}});
        add_stack(db, w, 2, 1, {in_module(2, 0x5000)});
    }
    CHECK(rows(db, "SELECT shape_id, pos, addr_id, module_key FROM shape_frames ORDER BY shape_id, pos") ==
          "1|0|1|1\n1|1|2|NULL\n2|0|1|NULL\n3|0|2|1\n");
    CHECK(rows(db, "SELECT run_id, bias FROM run_biases ORDER BY 1") == "1|16777216\n2|20480\n");
    CHECK(frames_of(db) == "1|0|0|" + std::to_string(0x1000 + 0x1000000) + "|1\n"
                           "1|0|1|" + std::to_string(0x2000 + 0x2000000) + "|2\n"
                           "2|0|0|" + std::to_string(static_cast<int64_t>(past)) + "|1\n"
                           "2|1|0|" + std::to_string(0x2000 + 0x5000) + "|2\n");
    CHECK(rows(db, "SELECT typeof(address) FROM stack_frames GROUP BY 1") == "integer\n");
}

TEST_CASE("store: a version-4 file's stack_frames become shapes, the same rows out of the view",
          "[store][schema][version][migration][shapes]") {
    mt::test::StoreDir d;
    std::string path = d.file("v4.db");
    mt::store::create_empty_database(path);
    std::string before;
    {
        Db v4 = Db::open(path, false);
        mt::test::use_version4_stacks(v4);
        v4.exec(kCache);
        add_run(v4, 1);
        add_run(v4, 2);
        // Two runs at other biases with the same two stacks (one with a frame outside every module,
        // one with an addr_id whose row is gone), a stack without frames, a stack of run 2 only.
        v4.exec(R"(
INSERT INTO stacks VALUES (1, 0, 3, NULL, 0), (1, 1, 2, NULL, 1), (1, 2, 0, NULL, 0),
                          (2, 0, 3, NULL, 0), (2, 1, 2, NULL, 1), (2, 5, 1, NULL, 0);
INSERT INTO stack_frames VALUES (1, 0, 0, 1000000000004096, 1), (1, 0, 1, 1000000000008192, 2), (1, 0, 2, 1000000000012288, 3),
                                (1, 1, 0, 4660, NULL), (1, 1, 1, 77777, 9),
                                (2, 0, 0, 2000000000004096, 1), (2, 0, 1, 2000000000008192, 2), (2, 0, 2, 2000000000012288, 3),
                                (2, 1, 0, 4660, NULL), (2, 1, 1, 77777, 9),
                                (2, 5, 0, 2000000000012288, 3);
UPDATE meta SET value = '4' WHERE key = 'schema_version';
PRAGMA user_version = 4;
)");
        before = frames_of(v4) + rows(v4, "SELECT run_id, stack_id, depth, site_id, machinery FROM stacks ORDER BY 1, 2");
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));  // the viewer serves it unmigrated
    {
        auto opened = mt::store::open_database(path);
        Db &db = opened.db;
        CHECK(db.query_int("PRAGMA user_version") == 5);
        CHECK(frames_of(db) + rows(db, "SELECT run_id, stack_id, depth, site_id, machinery FROM stacks ORDER BY 1, 2") == before);
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'stack_frames'") == 1);
        CHECK(db.query_int("SELECT count(*) FROM sqlite_master WHERE name = 'stack_frames_v4'") == 0);
        // Stacks 0 and 1 of both runs share a shape each; run 2's stack 5 has its own.
        CHECK(db.query_int("SELECT count(*) FROM stack_shapes") == 3);
        CHECK(db.query_int("SELECT count(*) FROM shape_frames") == 6);
        CHECK(rows(db, "SELECT run_id, stack_id, shape_id IS NULL FROM stacks WHERE stack_id = 2") == "1|2|1\n");
        CHECK(rows(db, "SELECT name FROM pragma_table_info('stacks')") == "run_id\nstack_id\ndepth\nsite_id\nmachinery\nshape_id\n");
        mt::store::finish_database(db);
    }
    REQUIRE_NOTHROW(mt::store::check_readable(path));
    auto again = mt::store::open_database(path);  // opening again changes nothing
    CHECK(frames_of(again.db) + rows(again.db, "SELECT run_id, stack_id, depth, site_id, machinery FROM stacks ORDER BY 1, 2") == before);
    CHECK(again.db.query_int("SELECT count(*) FROM stack_shapes") == 3);
}

// ShapeKeys (issue 22, twelfth session): the known shapes' keys in one string and an
// open-addressing table. Every key entered is found with its shape, through the table's growth;
// a key not entered is not, even under another key's hash (a collision names no shape).
TEST_CASE("store: ShapeKeys finds every key it was given and no other", "[store][shapes]") {
    mt::store::ShapeKeys keys;
    keys.reserve(10, 100);  // grows well past it
    std::vector<std::string> entered;
    for (int i = 0; i < 5000; ++i) {
        std::string k;
        for (int f = 0; f <= i % 13; ++f) mt::store::append_varint(k, static_cast<uint64_t>(i) * 7919u + static_cast<uint64_t>(f));
        entered.push_back(k);
        keys.add(k, mt::store::ShapeKeys::hash_key(k), i + 1);
    }
    CHECK(keys.size() == entered.size());
    for (size_t i = 0; i < entered.size(); ++i) REQUIRE(keys.find(entered[i], mt::store::ShapeKeys::hash_key(entered[i])) == static_cast<int64_t>(i + 1));
    std::string absent = entered[0] + entered[1];
    CHECK(keys.find(absent, mt::store::ShapeKeys::hash_key(absent)) == 0);
    // A different key under an entered key's hash (a collision), and a prefix of an entered key.
    CHECK(keys.find(absent, mt::store::ShapeKeys::hash_key(entered[3])) == 0);
    CHECK(keys.find(entered[12].substr(0, 3), mt::store::ShapeKeys::hash_key(entered[12])) == 0);
    // Two keys entered under one hash are both found, each with its own shape.
    mt::store::ShapeKeys same;
    same.add("ab", 42, 1);
    same.add("cd", 42, 2);
    CHECK(same.find("ab", 42) == 1);
    CHECK(same.find("cd", 42) == 2);
    CHECK(same.find("ef", 42) == 0);
    CHECK(mt::store::ShapeKeys{}.find("ab", 42) == 0);
}

// The same stacks give the same rows whether ShapeWriter seeks each key (few stacks against the
// file's shapes) or reads every key first (expect(): a warm run), with frames alternating between
// two modules and one module met again at another bias (raw frames: the last module's bias is
// remembered, and must not be taken for the other mapping's).
TEST_CASE("store: ShapeWriter writes the same rows with and without reading every key first", "[store][shapes]") {
    auto frames_for = [](int run) {
        const uint64_t b1 = 0x100000u * static_cast<uint64_t>(run), b2 = 0x7000000u, other = 0x5000000u;
        std::vector<std::vector<ShapeFrame>> stacks;
        for (int64_t s = 0; s < 40; ++s) {
            std::vector<ShapeFrame> f;
            for (int64_t p = 0; p < 1 + s % 5; ++p) {
                const int64_t id = 1 + (s + p) % 3;
                if ((s + p) % 4 == 1) f.push_back(ShapeFrame{0x1000u * static_cast<uint64_t>(id) + b2, 10 + id, 2, 0x1000u * static_cast<uint64_t>(id)});
                else if ((s + p) % 7 == 3) f.push_back(in_module(id, other));  // module 1 mapped again elsewhere: raw
                else f.push_back(in_module(id, b1));
            }
            if (s % 9 == 4) f.push_back(ShapeFrame{0x1234, 0, 0, 0});  // outside every module
            stacks.push_back(f);
        }
        return stacks;
    };
    auto write = [&](bool expect) {
        mt::test::StoreDir d;
        auto odb = mt::store::open_database(d.file(expect ? "all.db" : "seek.db"));
        odb.db.exec(kCache);
        odb.db.exec("INSERT INTO address_modules VALUES (2, 'bb02', 'libother.so')");
        for (int run = 1; run <= 3; ++run) {
            add_run(odb.db, run);
            ShapeWriter w(odb.db, run);
            auto stacks = frames_for(run);
            if (expect) w.expect(stacks.size());
            for (size_t s = 0; s < stacks.size(); ++s) add_stack(odb.db, w, run, static_cast<int64_t>(s), stacks[s]);
            w.flush();
        }
        return rows(odb.db, "SELECT * FROM stack_shapes ORDER BY shape_id") + rows(odb.db, "SELECT * FROM shape_frames ORDER BY shape_id, pos") +
               rows(odb.db, "SELECT * FROM run_biases ORDER BY run_id, module_key") + frames_of(odb.db);
    };
    const std::string seek = write(false), all = write(true);
    CHECK(seek == all);
    CHECK(seek.find("NULL") != std::string::npos);  // raw frames are in it
}
