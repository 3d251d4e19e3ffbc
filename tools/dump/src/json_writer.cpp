#include "json_writer.h"

#include "utf8.h"

#include <cmath>
#include <cstdio>

namespace mt::dump {
namespace {

void escape_ascii(std::string &out, char c) {
    switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    }
    if (static_cast<uint8_t>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
    } else {
        out += c;
    }
}

}  // namespace

std::string json_quote(std::string_view s) {
    std::string out = "\"";
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8_len(s, i);
        if (n == 0) {
            out += "\\ufffd";
            ++i;
        } else if (n == 1) {
            escape_ascii(out, s[i++]);
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out + "\"";
}

JsonWriter::~JsonWriter() {
    if (has_items_.empty()) out_ << '\n';
}

void JsonWriter::newline() {
    out_ << '\n';
    for (size_t i = 0; i < has_items_.size(); ++i) out_ << "  ";
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (has_items_.empty()) return;
    if (has_items_.back()) out_ << ',';
    has_items_.back() = true;
    newline();
}

JsonWriter &JsonWriter::key(std::string_view k) {
    before_value();
    out_ << json_quote(k) << ": ";
    after_key_ = true;
    return *this;
}

JsonWriter &JsonWriter::open(char c) {
    before_value();
    out_ << c;
    has_items_.push_back(false);
    return *this;
}

JsonWriter &JsonWriter::close(char c) {
    bool had = has_items_.back();
    has_items_.pop_back();
    if (had) newline();
    out_ << c;
    return *this;
}

JsonWriter &JsonWriter::begin_object() { return open('{'); }
JsonWriter &JsonWriter::end_object() { return close('}'); }
JsonWriter &JsonWriter::begin_array() { return open('['); }
JsonWriter &JsonWriter::end_array() { return close(']'); }

JsonWriter &JsonWriter::value(std::string_view s) {
    before_value();
    out_ << json_quote(s);
    return *this;
}

JsonWriter &JsonWriter::integer(uint64_t v) {
    before_value();
    out_ << v;
    return *this;
}

JsonWriter &JsonWriter::integer(int64_t v) {
    before_value();
    out_ << v;
    return *this;
}

JsonWriter &JsonWriter::value(double v, int decimals) {
    if (!std::isfinite(v)) return null();
    before_value();
    char buf[64];
    if (decimals >= 0)
        std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    else
        std::snprintf(buf, sizeof buf, "%.17g", v);
    out_ << buf;
    return *this;
}

JsonWriter &JsonWriter::value(bool v) {
    before_value();
    out_ << (v ? "true" : "false");
    return *this;
}

JsonWriter &JsonWriter::null() {
    before_value();
    out_ << "null";
    return *this;
}

}  // namespace mt::dump
