#include "memtracer/store/batch_insert.h"

#include "memtracer/store/writer_sql.h"

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

namespace mt::store {

namespace {

// The values a row adds: the head's columns (or `columns`) after the leading ones; at least one.
int row_columns(std::string_view head, int columns, size_t leading) {
    int n = (columns > 0 ? columns : sql::count_columns(head)) - static_cast<int>(leading);
    if (n < 1) throw std::logic_error("BatchInsert: " + std::string(head) + " has no column left after its leading values");
    return n;
}

}  // namespace

BatchInsert::BatchInsert(Db &db, std::string_view head, int columns, int rows_per_statement)
    : BatchInsert(db, head, Leading{}, columns, rows_per_statement) {}

BatchInsert::BatchInsert(Db &db, std::string_view head, Leading leading, int columns, int rows_per_statement)
    : db_(db), head_(head), leading_(std::move(leading.values)),
      columns_(row_columns(head, columns, leading_.size())),
      per_statement_(rows_per_statement),
      full_(db.prepare(sql(rows_per_statement))),
      capacity_(static_cast<size_t>(columns_ * per_statement_)),
      values_(std::make_unique<Value[]>(capacity_)) {}

BatchInsert::~BatchInsert() noexcept(false) {
    if (std::uncaught_exceptions() == 0) flush();
}

std::string BatchInsert::sql(int rows) const {
    std::string row = "(";
    for (int64_t v : leading_) row += std::to_string(v) + ",";
    for (int c = 0; c < columns_; ++c) row += c ? ",?" : "?";
    row += ")";
    std::string s = head_ + " VALUES ";
    for (int r = 0; r < rows; ++r) s += (r ? "," : "") + row;
    return s;
}

void BatchInsert::write(Stmt &st, size_t first, int rows) {
    size_t n = static_cast<size_t>(rows * columns_);
    for (size_t i = 0; i < n; ++i) {
        const Value &v = values_[first + i];
        int idx = static_cast<int>(i) + 1;
        if (v.kind == Value::Int) st.bind(idx, v.i);
        else if (v.kind == Value::Text) st.bind_static(idx, texts_[static_cast<size_t>(v.i)]);  // texts_ outlives the step below
        else if (v.kind == Value::TextRef) st.bind_static(idx, v.ref);
        else st.bind_null(idx);
    }
    st.run();
}

void BatchInsert::too_many_values() const {
    throw std::logic_error("BatchInsert: a row of " + head_ + " has the wrong number of values");  // a writer's bug
}

void BatchInsert::end_row() {
    if (count_ % static_cast<size_t>(columns_) != 0) too_many_values();
    if (count_ == capacity_) {
        write(full_, 0, per_statement_);
        count_ = 0;
        texts_.clear();
    }
}

void BatchInsert::flush() {
    if (count_ == 0) return;
    int rows = static_cast<int>(count_ / static_cast<size_t>(columns_));
    Stmt tail = db_.prepare(sql(rows));
    write(tail, 0, rows);
    count_ = 0;
    texts_.clear();
}

}  // namespace mt::store
