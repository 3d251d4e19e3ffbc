// LineNumberMappings.json reading (see il2cpp_symbols.h for the format). A dedicated parser
// rather than a DOM: the file of a large game runs to hundreds of MB, it has exactly three
// levels, and an error has to say line and column.
#include <algorithm>
#include <charconv>

#include "memtracer/symbolizer/errors.h"
#include "il2cpp_symbols.h"

namespace mt::sym {

class LineMapParser {
public:
    LineMapParser(std::string_view text, const std::string &name, LineMap &out) : s_(text), name_(name), out_(out) {}

    void run() {
        expect('{');
        if (!accept('}')) {
            do cpp_file(); while (accept(','));
            expect('}');
        }
        skip_ws();
        if (pos_ != s_.size()) fail("unexpected text after the top-level object");
    }

private:
    [[noreturn]] void fail(const std::string &what) const {
        size_t line = 1, col = 1;
        for (size_t i = 0; i < pos_ && i < s_.size(); ++i) {
            if (s_[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw symbols_error(name_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what);
    }
    void skip_ws() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
    }
    bool accept(char c) {
        skip_ws();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!accept(c)) fail(std::string("expected '") + c + "'" + (pos_ < s_.size() ? "" : " before the end of the file"));
    }
    std::string string() {
        skip_ws();
        if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string");
        ++pos_;
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            char c = s_[pos_++];
            if (c == '\n') fail("unterminated string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= s_.size()) break;
            char e = s_[pos_++];
            switch (e) {
            case '"': case '\\': case '/': out += e; break;
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                unsigned v = 0;
                auto r = std::from_chars(s_.data() + pos_, s_.data() + std::min(pos_ + 4, s_.size()), v, 16);
                if (r.ptr != s_.data() + pos_ + 4) fail("bad \\u escape");
                pos_ += 4;
                if (v < 0x80) out += static_cast<char>(v);
                else if (v < 0x800) { out += static_cast<char>(0xC0 | (v >> 6)); out += static_cast<char>(0x80 | (v & 0x3F)); }
                else { out += static_cast<char>(0xE0 | (v >> 12)); out += static_cast<char>(0x80 | ((v >> 6) & 0x3F)); out += static_cast<char>(0x80 | (v & 0x3F)); }
                break;
            }
            default: --pos_; fail(std::string("unknown escape \\") + e);
            }
        }
        if (pos_ >= s_.size()) fail("unterminated string");
        ++pos_;
        return out;
    }
    uint32_t number() {
        skip_ws();
        uint32_t v = 0;
        auto r = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v);
        if (r.ec != std::errc() || r.ptr == s_.data() + pos_) fail("expected a line number (a non-negative integer)");
        pos_ = static_cast<size_t>(r.ptr - s_.data());
        if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) fail("line numbers are integers");
        return v;
    }
    uint32_t line_key() {
        size_t at = pos_;
        std::string k = string();
        uint32_t v = 0;
        auto r = std::from_chars(k.data(), k.data() + k.size(), v);
        if (k.empty() || r.ec != std::errc() || r.ptr != k.data() + k.size()) {
            pos_ = at;
            skip_ws();
            fail("C++ line key \"" + k + "\" is not a line number");
        }
        return v;
    }
    void cpp_file() {
        int idx = out_.paths_.add(string());
        expect(':');
        if (static_cast<size_t>(idx) >= out_.entries_.size()) out_.entries_.emplace_back();
        expect('{');
        if (!accept('}')) {
            do cs_file(idx); while (accept(','));
            expect('}');
        }
        auto &v = out_.entries_[idx];
        std::stable_sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a.cpp_line < b.cpp_line; });
    }
    void cs_file(int cpp_idx) {
        std::string cs = string();
        expect(':');
        uint32_t cs_idx = static_cast<uint32_t>(out_.cs_files_.size());
        out_.cs_files_.push_back(std::move(cs));
        expect('{');
        if (accept('}')) return;
        do {
            uint32_t cpp_line = line_key();
            expect(':');
            uint32_t cs_line = number();
            out_.entries_[cpp_idx].push_back({cpp_line, cs_idx, cs_line});
        } while (accept(','));
        expect('}');
    }

    std::string_view s_;
    size_t pos_ = 0;
    const std::string &name_;
    LineMap &out_;
};

LineMap LineMap::parse(std::string_view text, const std::string &name) {
    LineMap m;
    LineMapParser(text, name, m).run();
    return m;
}

std::optional<CsLocation> LineMap::lookup(std::string_view cpp_file, uint32_t cpp_line, const LineBounds *function) const {
    if (cpp_file.empty() || cpp_line == 0) return std::nullopt;
    int idx = paths_.find(cpp_file);
    if (idx < 0) return std::nullopt;
    const auto &v = entries_[static_cast<size_t>(idx)];
    auto it = std::upper_bound(v.begin(), v.end(), cpp_line, [](uint32_t l, const Entry &e) { return l < e.cpp_line; });
    if (function) {
        // Only this function's mappings: a line above its first one (the method's metadata
        // initialization, a stub without sequence points) is the method's own first line, never
        // the last line of the method above it.
        if (it != v.begin() && std::prev(it)->cpp_line >= function->first) {
            --it;
        } else {
            it = std::lower_bound(v.begin(), v.end(), function->first,
                                  [](const Entry &e, uint32_t l) { return e.cpp_line < l; });
            if (it == v.end() || it->cpp_line > function->last) return std::nullopt;
        }
        return CsLocation{cs_files_[it->cs_file], it->cs_line};
    }
    if (it == v.begin()) return std::nullopt;
    --it;
    return CsLocation{cs_files_[it->cs_file], it->cs_line};
}

}  // namespace mt::sym
