// batch_insert.h — bulk INSERT of many rows per statement ("VALUES (...), (...), ..."). SQLite's
// per-statement overhead (step, reset, VDBE setup) is a large part of a small row's cost, so
// the big per-run tables (allocs, stack_frames, symbols, addresses) are written this way.
#ifndef MEMTRACER_STORE_BATCH_INSERT_H
#define MEMTRACER_STORE_BATCH_INSERT_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "memtracer/store/db.h"

namespace mt::store {

class BatchInsert {
public:
    // `head` is "INSERT INTO t(a, b, c)" (writer_sql.h's rows_head); `columns` the number of
    // values per row, by default counted from the head's column list.
    explicit BatchInsert(Db &db, std::string_view head, int columns = 0, int rows_per_statement = 64);
    // `leading`: the values of the first leading.size() columns, the same in every row (a run's
    // run_id): written into the statement's text as literals, so a row adds only the values after
    // them. A literal costs SQLite no bind and no copy of a bound value per row.
    // (A type of its own: a bare {1} would also convert to `columns`.)
    struct Leading {
        std::vector<int64_t> values;
    };
    BatchInsert(Db &db, std::string_view head, Leading leading, int columns = 0, int rows_per_statement = 64);
    ~BatchInsert() noexcept(false);
    BatchInsert(const BatchInsert &) = delete;
    BatchInsert &operator=(const BatchInsert &) = delete;

    BatchInsert &add(int64_t v) {
        push({Value::Int, v, {}});
        return *this;
    }
    BatchInsert &add(uint64_t v) { return add(static_cast<int64_t>(v)); }
    BatchInsert &add(int v) { return add(static_cast<int64_t>(v)); }
    BatchInsert &add(uint32_t v) { return add(static_cast<int64_t>(v)); }
    BatchInsert &add(std::string v) {
        push({Value::Text, static_cast<int64_t>(texts_.size()), {}});
        texts_.push_back(std::move(v));
        return *this;
    }
    BatchInsert &add(const char *v) { return add(std::string(v)); }
    // Text that outlives this BatchInsert's next flush (no copy is made).
    BatchInsert &add_ref(std::string_view v) {
        push({Value::TextRef, 0, v});
        return *this;
    }
    BatchInsert &add_null() {
        push({Value::Null, 0, {}});
        return *this;
    }
    // Ends a row: every row must add exactly `columns` values (less the leading ones).
    void end_row();
    // Writes the rows still buffered. Also run by the destructor, unless unwinding.
    void flush();

private:
    // 32 bytes and trivially copied (a session ingest's allocs rows are 34M values): an owned
    // text lives in texts_, `i` its index there.
    struct Value {
        enum Kind : uint8_t { Null, Int, Text, TextRef } kind;
        int64_t i;
        std::string_view ref;
    };
    // Inline, into a buffer of one full statement's values (end_row writes it when full).
    void push(const Value &v) {
        if (count_ == capacity_) too_many_values();
        values_[count_++] = v;
    }
    [[noreturn]] void too_many_values() const;
    std::string sql(int rows) const;
    void write(Stmt &st, size_t first_value, int rows);

    Db &db_;
    std::string head_;
    std::vector<int64_t> leading_;
    int columns_, per_statement_;  // columns_: the values a row adds (after leading_)
    Stmt full_;
    size_t capacity_;                   // columns_ * per_statement_
    std::unique_ptr<Value[]> values_;  // the rows not written yet
    size_t count_ = 0;
    std::vector<std::string> texts_;  // add(std::string)'s, until the flush that writes them
};

}  // namespace mt::store

#endif
