#include "memtracer/json.h"

#include <charconv>
#include <cmath>

namespace mt {

void Json::newline() {
    out_ += '\n';
    out_.append(2 * open_.size(), ' ');
}

void Json::sep() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (open_.empty()) return;
    if (!open_.back()) out_ += ',';
    open_.back() = false;
    if (pretty_) newline();
}

Json &Json::open(char c) {
    sep();
    out_ += c;
    open_.push_back(true);
    return *this;
}

Json &Json::close(char c) {
    bool empty = open_.back();
    open_.pop_back();
    if (pretty_ && !empty) newline();
    out_ += c;
    return *this;
}

Json &Json::obj() { return open('{'); }
Json &Json::end_obj() { return close('}'); }
Json &Json::arr() { return open('['); }
Json &Json::end_arr() { return close(']'); }

Json &Json::key(std::string_view k) {
    sep();
    append_json_string(out_, k);
    out_ += pretty_ ? ": " : ":";
    after_key_ = true;
    return *this;
}

namespace {

// Signed and unsigned 64-bit values alike: exact decimal digits, never a float's rounding.
template <class Int>
void append_integer(std::string &out, Int v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

}  // namespace

Json &Json::val(int64_t v) {
    sep();
    append_integer(out_, v);
    return *this;
}

Json &Json::val(uint64_t v) {
    sep();
    append_integer(out_, v);
    return *this;
}

Json &Json::val(double v) {
    if (!std::isfinite(v)) return null();
    sep();
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    return *this;
}

Json &Json::val(double v, int decimals) {
    if (!std::isfinite(v)) return null();
    sep();
    char buf[352];  // DBL_MAX in fixed notation is 309 digits
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
    out_.append(buf, r.ptr);
    return *this;
}

Json &Json::val_g17(double v) {
    if (!std::isfinite(v)) return null();
    sep();
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
    out_.append(buf, r.ptr);
    return *this;
}

Json &Json::val(bool v) {
    sep();
    out_ += v ? "true" : "false";
    return *this;
}

Json &Json::val(std::string_view v) {
    sep();
    append_json_string(out_, v);
    return *this;
}

Json &Json::raw_value(std::string_view json) {
    sep();
    out_.append(json);
    return *this;
}

Json &Json::null() {
    sep();
    out_ += "null";
    return *this;
}

// Strict: no overlongs, no surrogates, nothing above U+10FFFF.
size_t utf8_len(std::string_view s, size_t i) {
    auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    auto cont = [&](size_t k, uint8_t lo, uint8_t hi) { return k < s.size() && b(k) >= lo && b(k) <= hi; };
    uint8_t c = b(i);
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) return cont(i + 1, 0x80, 0xbf) ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        uint8_t lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
        return cont(i + 1, lo, hi) && cont(i + 2, 0x80, 0xbf) ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        uint8_t lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
        return cont(i + 1, lo, hi) && cont(i + 2, 0x80, 0xbf) && cont(i + 3, 0x80, 0xbf) ? 4 : 0;
    }
    return 0;
}

namespace {
void escape_ascii(std::string &out, unsigned char c) {
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    }
    if (c < 0x20) {
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
    } else {
        out += static_cast<char>(c);
    }
}
}  // namespace

void append_json_string(std::string &out, std::string_view s) {
    out += '"';
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8_len(s, i);
        if (n == 0) {
            out += "\\ufffd";
            ++i;
        } else if (n == 1) {
            escape_ascii(out, static_cast<unsigned char>(s[i++]));
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    out += '"';
}

std::string json_quote(std::string_view s) {
    std::string out;
    append_json_string(out, s);
    return out;
}

}  // namespace mt
