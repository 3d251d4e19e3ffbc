// for_each_int_row: a query's rows handed over inside one step (the mt_rows aggregate every
// connection has), in the query's order, with their values; an exception from the callback stops
// the query and reaches the caller; mt_rows outside it is an error, not a crash.
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "memtracer/store/db.h"
#include "memtracer/store/int_rows.h"
#include "store_test_util.h"

using mt::store::Db;

TEST_CASE("store: for_each_int_row hands over every row's values in the query's order", "[store][int_rows]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("r.db"), true);
    db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER NOT NULL, v INTEGER, UNIQUE (k, v))");
    db.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) "
            "INSERT INTO t(id, k, v) SELECT i, i % 3, (1000 - i) * 4294967296 FROM n");
    std::vector<std::vector<int64_t>> rows;
    uint64_t n = mt::store::for_each_int_row(db, "SELECT mt_rows(id, v, -id) FROM t WHERE k = ?1 ORDER BY v", {2},
                                             [&](const int64_t *v) { rows.push_back({v[0], v[1], v[2]}); });
    REQUIRE(n == 333);
    REQUIRE(rows.size() == 333);
    for (size_t i = 0; i < rows.size(); ++i) {
        CHECK(rows[i][0] % 3 == 2);
        CHECK(rows[i][1] == (1000 - rows[i][0]) * 4294967296);  // 64-bit values intact
        CHECK(rows[i][2] == -rows[i][0]);
        if (i) CHECK(rows[i - 1][1] < rows[i][1]);  // the query's order
    }
    // No row: no call, 0.
    CHECK(mt::store::for_each_int_row(db, "SELECT mt_rows(id) FROM t WHERE k = ?1", {7}, [&](const int64_t *) { FAIL(); }) == 0);
    // Two bound values, the way a range sweep binds them.
    int64_t sum = 0;
    CHECK(mt::store::for_each_int_row(db, "SELECT mt_rows(id) FROM t WHERE id BETWEEN ?1 AND ?2", {10, 19},
                                      [&](const int64_t *v) { sum += v[0]; }) == 10);
    CHECK(sum == 145);
}

TEST_CASE("store: for_each_int_row passes the callback's exception on and stops the query", "[store][int_rows]") {
    mt::test::StoreDir d;
    Db db = Db::open(d.file("r.db"), true);
    db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY)");
    db.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO t SELECT i FROM n");
    int calls = 0;
    CHECK_THROWS_WITH(mt::store::for_each_int_row(db, "SELECT mt_rows(id) FROM t", {},
                                                  [&](const int64_t *v) {
                                                      ++calls;
                                                      if (v[0] == 5) throw std::runtime_error("row 5 is bad");
                                                  }),
                      "row 5 is bad");
    CHECK(calls == 5);  // stopped at the failing row
    // The connection is usable afterwards, and a query outside for_each_int_row is refused.
    CHECK(mt::store::for_each_int_row(db, "SELECT mt_rows(id) FROM t", {}, [](const int64_t *) {}) == 100);
    CHECK_THROWS(db.query_int("SELECT mt_rows(id) FROM t"));
    // Nested use is a bug, reported.
    CHECK_THROWS_AS(mt::store::for_each_int_row(db, "SELECT mt_rows(id) FROM t", {},
                                                [&](const int64_t *) {
                                                    mt::store::for_each_int_row(db, "SELECT mt_rows(id) FROM t", {}, [](const int64_t *) {});
                                                }),
                    std::logic_error);
}
