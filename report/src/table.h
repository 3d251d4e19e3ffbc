// table.h — what every memtracer-report command prints: rows of named columns, rendered as an
// aligned text table (default), CSV (RFC 4180 quoting) or JSON (an array of objects).
#ifndef MEMTRACER_REPORT_TABLE_H
#define MEMTRACER_REPORT_TABLE_H

#include <cstdint>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

namespace mt::report {

using Cell = std::variant<std::string, int64_t, double>;

struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<Cell>> rows;
    std::vector<std::string> notes;  // text mode: printed above the table; csv/json: on stderr
    void add(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

enum class Format { Text, Csv, Json };
Format parse_format(const std::string &s);  // throws std::invalid_argument

void render(const Table &t, Format f, std::ostream &out, std::ostream &err);
// How a cell reads: `human` (the text table) rounds reals; otherwise exact (CSV, JSON).
std::string cell_text(const Cell &c, bool human);

}  // namespace mt::report

#endif
