// BatchInsert: many rows per INSERT statement, values buffered until a statement is full (then
// written) or flushed (the tail, its own statement); owned text, referenced text and NULL
// alongside integers; a row with the wrong number of values is a writer's bug, reported.
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "memtracer/store/batch_insert.h"
#include "memtracer/store/db.h"
#include "store_test_util.h"

using mt::store::BatchInsert;
using mt::store::Db;

TEST_CASE("store: BatchInsert writes full statements and the tail, every kind of value intact", "[store][batch_insert]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("b.db"), true);
    db.exec("CREATE TABLE t(k INTEGER PRIMARY KEY, owned TEXT, ref TEXT, n INTEGER, big INTEGER)");
    const std::string refs[3] = {"alpha", "a text longer than any small-string buffer, referenced", "gamma"};
    {
        BatchInsert ins(db, "INSERT INTO t(k, owned, ref, n, big)", 0, 4);  // 4 rows a statement: 2 full + a tail of 2
        for (int k = 0; k < 10; ++k) {
            ins.add(k).add("owned " + std::to_string(k) + std::string(k * 10, 'x')).add_ref(refs[k % 3]);
            if (k % 2) ins.add_null();
            else ins.add(k * 7);
            ins.add(uint64_t{0xfedcba9876543210ull}).end_row();
            if (k == 5) CHECK(db.query_int("SELECT count(*) FROM t") == 4);  // the first full statement only
        }
    }  // the destructor flushes the tail
    CHECK(db.query_int("SELECT count(*) FROM t") == 10);
    auto st = db.prepare("SELECT k, owned, ref, n, big FROM t ORDER BY k");
    for (int k = 0; k < 10; ++k) {
        REQUIRE(st.step());
        CHECK(st.i64(0) == k);
        CHECK(st.str(1) == "owned " + std::to_string(k) + std::string(k * 10, 'x'));
        CHECK(st.str(2) == refs[k % 3]);
        if (k % 2) CHECK(st.null(3));
        else CHECK(st.i64(3) == k * 7);
        CHECK(static_cast<uint64_t>(st.i64(4)) == 0xfedcba9876543210ull);
    }
    CHECK_FALSE(st.step());
}

TEST_CASE("store: BatchInsert reports a row with too few or too many values", "[store][batch_insert]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("b.db"), true);
    db.exec("CREATE TABLE t(a INTEGER, b INTEGER)");
    // Each throws out of the writer's scope, as a writer's bug would (no flush while unwinding).
    CHECK_THROWS_AS([&] {
        BatchInsert ins(db, "INSERT INTO t(a, b)", 0, 2);
        ins.add(1).end_row();
    }(), std::logic_error);
    CHECK_THROWS_AS([&] {
        BatchInsert ins(db, "INSERT INTO t(a, b)", 0, 2);
        ins.add(1).add(2).add(3).end_row();
    }(), std::logic_error);
    CHECK_THROWS_AS([&] {
        BatchInsert ins(db, "INSERT INTO t(a, b)", 0, 2);
        ins.add(1).add(2).add(3).add(4).add(5);  // one statement's buffer is 4 values: the fifth is refused
    }(), std::logic_error);
    CHECK(db.query_int("SELECT count(*) FROM t") == 0);
}

// Leading values (a run's run_id): literals in the statements' text, in every row of the full
// statements and of the tail; a row adds only the columns after them.
TEST_CASE("store: BatchInsert's leading values reach every row, full statements and tail", "[store][batch_insert]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("b.db"), true);
    db.exec("CREATE TABLE t(run INTEGER NOT NULL, big INTEGER NOT NULL, k INTEGER NOT NULL, v TEXT)");
    {
        BatchInsert ins(db, "INSERT INTO t(run, big, k, v)", BatchInsert::Leading{{7, INT64_MIN}}, 0, 3);  // 3 full + a tail of 1
        for (int k = 0; k < 10; ++k) ins.add(k).add("v" + std::to_string(k)).end_row();
    }
    CHECK(db.query_int("SELECT count(*) FROM t") == 10);
    CHECK(db.query_int("SELECT count(*) FROM t WHERE run = 7 AND typeof(big) = 'integer' AND big = -9223372036854775807 - 1") == 10);
    CHECK(db.query_int("SELECT sum(k) FROM t WHERE v = 'v' || k") == 45);
    // Every column a leading value: nothing for a row to add, refused.
    CHECK_THROWS_AS(BatchInsert(db, "INSERT INTO t(run)", BatchInsert::Leading{{1}}), std::logic_error);
}
