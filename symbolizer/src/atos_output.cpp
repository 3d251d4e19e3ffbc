#include "atos_output.h"

#include <charconv>

#include "memtracer/symbolizer/errors.h"
#include "split.h"

namespace mt::sym {

namespace {

bool parse_uint(std::string_view s, uint32_t &v) {
    if (s.empty()) return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

std::optional<SourceFrame> parse_atos_line(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    size_t in = line.find(" (in ");
    std::string_view name = in == std::string_view::npos ? line : line.substr(0, in);
    if (name.empty() || name.substr(0, 2) == "0x") return std::nullopt;
    SourceFrame f;
    f.function = std::string(name);
    if (in == std::string_view::npos) return f;
    size_t close = line.find(") ", in + 5);
    if (close == std::string_view::npos) return f;
    std::string_view rest = line.substr(close + 2);
    if (rest.size() < 3 || rest.front() != '(' || rest.back() != ')') return f;  // "+ offset" form
    std::string_view loc = rest.substr(1, rest.size() - 2);
    size_t colon = loc.rfind(':');
    uint32_t n = 0;
    if (colon == std::string_view::npos || !parse_uint(loc.substr(colon + 1), n)) return f;
    f.file = std::string(loc.substr(0, colon));
    f.line = n;
    return f;
}

std::vector<SymbolRecord> parse_atos_output(std::string_view out, size_t n, bool inlined) {
    std::vector<SymbolRecord> recs;
    recs.reserve(n);
    SymbolRecord cur;
    bool open = false;
    size_t line_no = 0;
    while (!out.empty()) {
        std::string_view line = take_until(out, '\n');
        ++line_no;
        if (inlined && line.empty()) {
            if (!open) throw symbols_error("atos output line " + std::to_string(line_no) + ": empty answer");
            recs.push_back(std::move(cur));
            cur = {};
            open = false;
            continue;
        }
        if (auto f = parse_atos_line(line)) cur.frames.push_back(std::move(*f));
        open = true;
        if (!inlined) {
            recs.push_back(std::move(cur));
            cur = {};
            open = false;
        }
    }
    if (open) recs.push_back(std::move(cur));  // tolerate a missing final empty line
    if (recs.size() != n)
        throw symbols_error("atos answered " + std::to_string(recs.size()) + " addresses, expected " + std::to_string(n));
    return recs;
}

}  // namespace mt::sym
