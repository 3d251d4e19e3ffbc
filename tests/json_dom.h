// json_dom.h — the tests' one JSON reader, strict: every viewer response body must parse (so the
// tests also prove the writer emits valid JSON), and assertions read values from it; the sample
// game's --expect-json tally is read with it too. A number keeps its text, so a 64-bit count
// survives exactly (u64()).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mt::test {

struct JValue {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool b = false;
    double n = 0;
    std::string s;  // String: decoded; Number: as written
    std::vector<JValue> a;
    std::map<std::string, JValue> o;

    const JValue &operator[](const std::string &k) const {
        if (kind != Object) throw std::runtime_error("not an object looking up " + k);
        auto it = o.find(k);
        if (it == o.end()) throw std::runtime_error("no member " + k);
        return it->second;
    }
    const JValue &operator[](size_t i) const {
        if (kind != Array || i >= a.size()) throw std::runtime_error("bad index " + std::to_string(i));
        return a[i];
    }
    bool has(const std::string &k) const { return kind == Object && o.count(k); }
    bool is_null() const { return kind == Null; }
    int64_t i() const {
        if (kind != Number) throw std::runtime_error("not a number");
        return static_cast<int64_t>(std::llround(n));
    }
    const std::string &str() const {
        if (kind != String) throw std::runtime_error("not a string");
        return s;
    }
    // A whole number exactly, from a number or a string ("0x…" addresses are strings).
    uint64_t u64() const {
        if (kind != Number && kind != String) throw std::runtime_error("not a number");
        std::string_view t = s;
        int base = 10;
        if (kind == String && (t.starts_with("0x") || t.starts_with("0X"))) t.remove_prefix(2), base = 16;
        uint64_t v = 0;
        auto r = std::from_chars(t.data(), t.data() + t.size(), v, base);
        if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
            throw std::runtime_error("not a whole number: " + s);
        return v;
    }
    size_t size() const { return kind == Array ? a.size() : o.size(); }
};

class JParser {
public:
    explicit JParser(std::string_view t) : t_(t) {}
    JValue parse() {
        JValue v = value(0);
        ws();
        if (p_ != t_.size()) fail("trailing data");
        return v;
    }

private:
    std::string_view t_;
    size_t p_ = 0;
    [[noreturn]] void fail(const std::string &why) { throw std::runtime_error("json: " + why + " at " + std::to_string(p_)); }
    void ws() {
        while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\r' || t_[p_] == '\t')) ++p_;
    }
    bool lit(std::string_view w) {
        if (t_.substr(p_, w.size()) != w) return false;
        p_ += w.size();
        return true;
    }
    JValue value(int depth) {
        if (depth > 200) fail("too deep");
        ws();
        if (p_ >= t_.size()) fail("unexpected end");
        JValue v;
        char c = t_[p_];
        if (c == '{') {
            v.kind = JValue::Object;
            ++p_;
            ws();
            if (p_ < t_.size() && t_[p_] == '}') return ++p_, v;
            for (;;) {
                ws();
                if (p_ >= t_.size() || t_[p_] != '"') fail("expected key");
                std::string k = string();
                ws();
                if (!lit(":")) fail("expected ':'");
                if (v.o.count(k)) fail("duplicate key " + k);
                v.o[k] = value(depth + 1);
                ws();
                if (lit("}")) return v;
                if (!lit(",")) fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.kind = JValue::Array;
            ++p_;
            ws();
            if (p_ < t_.size() && t_[p_] == ']') return ++p_, v;
            for (;;) {
                v.a.push_back(value(depth + 1));
                ws();
                if (lit("]")) return v;
                if (!lit(",")) fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.kind = JValue::String;
            v.s = string();
            return v;
        }
        if (lit("true")) return v.kind = JValue::Bool, v.b = true, v;
        if (lit("false")) return v.kind = JValue::Bool, v;
        if (lit("null")) return v;
        size_t start = p_;
        if (t_[p_] == '-') ++p_;
        while (p_ < t_.size() && (isdigit(static_cast<unsigned char>(t_[p_])) || t_[p_] == '.' || t_[p_] == 'e' ||
                                  t_[p_] == 'E' || t_[p_] == '+' || t_[p_] == '-'))
            ++p_;
        if (p_ == start) fail("unexpected character");
        v.kind = JValue::Number;
        v.s = std::string(t_.substr(start, p_ - start));
        v.n = std::stod(v.s);
        return v;
    }
    std::string string() {
        ++p_;
        std::string out;
        while (p_ < t_.size() && t_[p_] != '"') {
            auto c = static_cast<unsigned char>(t_[p_]);
            if (c < 0x20) fail("control character in string");
            if (c == '\\') {
                ++p_;
                if (p_ >= t_.size()) fail("bad escape");
                char e = t_[p_];
                if (e == 'u') {
                    if (p_ + 4 >= t_.size()) fail("bad \\u");
                    unsigned cp = std::stoul(std::string(t_.substr(p_ + 1, 4)), nullptr, 16);
                    p_ += 4;
                    if (cp < 0x80) out += static_cast<char>(cp);
                    else out += "?";  // tests only compare ASCII
                } else {
                    static const std::string_view from = "\"\\/bfnrt", to = "\"\\/\b\f\n\r\t";
                    auto k = from.find(e);
                    if (k == std::string_view::npos) fail("bad escape");
                    out += to[k];
                }
                ++p_;
                continue;
            }
            out += static_cast<char>(c);
            ++p_;
        }
        if (p_ >= t_.size()) fail("unterminated string");
        ++p_;
        return out;
    }
};

inline JValue parse_json(std::string_view t) { return JParser(t).parse(); }

}  // namespace mt::test
