#include "table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <memtracer/json.h>  // the host tools' string escaping

namespace mt::report {

Format parse_format(const std::string &s) {
    if (s == "table") return Format::Text;
    if (s == "csv") return Format::Csv;
    if (s == "json") return Format::Json;
    throw std::invalid_argument("--format: '" + s + "' is not table, csv or json");
}

std::string cell_text(const Cell &c, bool human) {
    if (auto *s = std::get_if<std::string>(&c)) return *s;
    if (auto *i = std::get_if<int64_t>(&c)) return std::to_string(*i);
    double d = std::get<double>(c);
    if (!std::isfinite(d)) return d > 0 ? "inf" : d < 0 ? "-inf" : "";
    char buf[64];
    if (human) {
        std::snprintf(buf, sizeof buf, std::fabs(d) < 100 ? "%.3f" : "%.1f", d);
        return buf;
    }
    auto r = std::to_chars(buf, buf + sizeof buf, d);  // shortest text that reads back the same
    return std::string(buf, r.ptr);
}

namespace {

std::string csv_field(const std::string &s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
}

void text(const Table &t, std::ostream &out) {
    for (const auto &n : t.notes) out << n << "\n";
    std::vector<size_t> w(t.columns.size());
    for (size_t c = 0; c < t.columns.size(); ++c) w[c] = t.columns[c].size();
    std::vector<std::vector<std::string>> cells;
    for (const auto &r : t.rows) {
        cells.emplace_back();
        for (size_t c = 0; c < r.size(); ++c) {
            cells.back().push_back(cell_text(r[c], true));
            w[c] = std::max(w[c], cells.back().back().size());
        }
    }
    auto line = [&](const std::vector<std::string> &v, const std::vector<Cell> *types) {
        std::string s;
        for (size_t c = 0; c < v.size(); ++c) {
            bool left = !types || std::holds_alternative<std::string>((*types)[c]);
            std::string pad(w[c] - v[c].size(), ' ');
            s += (c ? "  " : "") + (left ? v[c] + (c + 1 < v.size() ? pad : "") : pad + v[c]);
        }
        out << s << "\n";
    };
    line(t.columns, nullptr);
    for (size_t i = 0; i < cells.size(); ++i) line(cells[i], &t.rows[i]);
    if (t.rows.empty()) out << "(no rows)\n";
}

void csv(const Table &t, std::ostream &out) {
    for (size_t c = 0; c < t.columns.size(); ++c) out << (c ? "," : "") << csv_field(t.columns[c]);
    out << "\r\n";
    for (const auto &r : t.rows) {
        for (size_t c = 0; c < r.size(); ++c) out << (c ? "," : "") << csv_field(cell_text(r[c], false));
        out << "\r\n";
    }
}

void json(const Table &t, std::ostream &out) {
    std::string s = "[";
    for (size_t i = 0; i < t.rows.size(); ++i) {
        s += i ? ",\n{" : "\n{";
        for (size_t c = 0; c < t.columns.size(); ++c) {
            if (c) s += ",";
            mt::append_json_string(s, t.columns[c]);
            s += ":";
            const Cell &v = t.rows[i][c];
            if (auto *str = std::get_if<std::string>(&v))
                mt::append_json_string(s, *str);
            else if (auto *d = std::get_if<double>(&v); d && !std::isfinite(*d))
                s += "null";
            else
                s += cell_text(v, false);
        }
        s += "}";
    }
    s += t.rows.empty() ? "]\n" : "\n]\n";
    out << s;
}

}  // namespace

void render(const Table &t, Format f, std::ostream &out, std::ostream &err) {
    if (f == Format::Text) return text(t, out);
    for (const auto &n : t.notes) err << n << "\n";
    f == Format::Csv ? csv(t, out) : json(t, out);
}

}  // namespace mt::report
