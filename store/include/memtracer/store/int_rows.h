// int_rows.h — reads many rows of integer columns without a sqlite3_step per row. The query is an
// aggregate over the connection's function mt_rows(a, b, ...) ("SELECT mt_rows(addr_id,
// file_address) FROM address_rows WHERE module_key = ?1"): SQLite hands each row's values to the
// function inside one step, so a row costs its b-tree walk and column decoding but no result row,
// no return from step and no column accessor calls (a warm ingest reads a module's 240k cached
// rows twice: 707M instructions as SELECT rows, 414M this way; docs/benchmarks.md, issue 22,
// eighth session). Every Db connection has the function (Db::open).
#ifndef MEMTRACER_STORE_INT_ROWS_H
#define MEMTRACER_STORE_INT_ROWS_H

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>

#include "memtracer/store/db.h"

struct sqlite3;

namespace mt::store {

// At most this many columns a row.
inline constexpr int kMaxIntRowColumns = 8;

namespace detail {
using IntRowFn = void (*)(void *ctx, const int64_t *values, int n);
uint64_t int_rows(Db &db, std::string_view sql, std::initializer_list<int64_t> binds, IntRowFn fn, void *ctx);
void add_int_rows_function(sqlite3 *db);  // Db::open's
}  // namespace detail

// Runs `sql` with ?1, ?2, ... bound to `binds`; `row(const int64_t *values)` gets each row's
// mt_rows arguments in the query's order (values as sqlite3_value_int64 converts them). Returns
// the row count. An exception `row` throws stops the query and is rethrown here.
template <class F>
uint64_t for_each_int_row(Db &db, std::string_view sql, std::initializer_list<int64_t> binds, F &&row) {
    using Fn = std::remove_reference_t<F>;
    return detail::int_rows(db, sql, binds, [](void *c, const int64_t *v, int) { (*static_cast<Fn *>(c))(v); }, &row);
}

}  // namespace mt::store

#endif
