#include "json.h"

#include <charconv>
#include <cmath>

namespace mt::viewer {

void Json::sep() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back()) out_ += ',';
        first_.back() = false;
    }
}

Json &Json::obj() {
    sep();
    out_ += '{';
    first_.push_back(true);
    return *this;
}

Json &Json::end_obj() {
    out_ += '}';
    first_.pop_back();
    return *this;
}

Json &Json::arr() {
    sep();
    out_ += '[';
    first_.push_back(true);
    return *this;
}

Json &Json::end_arr() {
    out_ += ']';
    first_.pop_back();
    return *this;
}

Json &Json::key(std::string_view k) {
    sep();
    append_json_string(out_, k);
    out_ += ':';
    after_key_ = true;
    return *this;
}

Json &Json::val(int64_t v) {
    sep();
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    return *this;
}

Json &Json::val(uint64_t v) {
    sep();
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
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

Json &Json::raw_value(std::string_view digits) {
    sep();
    out_.append(digits);
    return *this;
}

Json &Json::null() {
    sep();
    out_ += "null";
    return *this;
}

namespace {
// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one.
size_t utf8_len(std::string_view s, size_t i) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    if (n == 2 && c < 0xC2) return 0;  // overlong
    return n;
}
}  // namespace

void append_json_string(std::string &out, std::string_view s) {
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            size_t n = utf8_len(s, i);
            if (n == 0) {
                out += "\xEF\xBF\xBD";
                ++i;
            } else {
                out.append(s.substr(i, n));
                i += n;
            }
            continue;
        }
        ++i;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20 || c == 0x7F) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

}  // namespace mt::viewer
