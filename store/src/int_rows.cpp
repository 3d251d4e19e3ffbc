#include "memtracer/store/int_rows.h"

#include <sqlite3.h>

#include <exception>
#include <stdexcept>

namespace mt::store::detail {

namespace {

struct Sink {
    IntRowFn fn;
    void *ctx;
    uint64_t rows = 0;
    std::exception_ptr error;  // from fn: C++ exceptions do not cross SQLite's C frames
};

// The query running on this thread (a step calls the function on the stepping thread).
thread_local Sink *current = nullptr;

void row_step(sqlite3_context *c, int argc, sqlite3_value **argv) {
    Sink *s = current;
    if (!s || argc > kMaxIntRowColumns) {
        sqlite3_result_error(c, s ? "mt_rows: too many columns" : "mt_rows: used outside store::for_each_int_row", -1);
        return;
    }
    int64_t v[kMaxIntRowColumns];
    for (int i = 0; i < argc; ++i) v[i] = sqlite3_value_int64(argv[i]);
    try {
        s->fn(s->ctx, v, argc);
        ++s->rows;
    } catch (...) {
        s->error = std::current_exception();
        sqlite3_result_error(c, "mt_rows: the row callback failed", -1);  // stops the query
    }
}

void row_final(sqlite3_context *c) { sqlite3_result_int64(c, current ? static_cast<int64_t>(current->rows) : 0); }

}  // namespace

void add_int_rows_function(sqlite3 *db) {
    sqlite3_create_function_v2(db, "mt_rows", -1, SQLITE_UTF8, nullptr, nullptr, row_step, row_final, nullptr);
}

uint64_t int_rows(Db &db, std::string_view sql, std::initializer_list<int64_t> binds, IntRowFn fn, void *ctx) {
    if (current) throw std::logic_error("store::for_each_int_row: nested in another");
    Stmt st = db.prepare(sql);
    int i = 0;
    for (int64_t b : binds) st.bind(++i, b);
    Sink sink{fn, ctx, 0, {}};
    current = &sink;
    try {
        while (st.step()) {
        }
    } catch (...) {
        current = nullptr;
        if (sink.error) std::rethrow_exception(sink.error);
        throw;
    }
    current = nullptr;
    return sink.rows;
}

}  // namespace mt::store::detail
