// json.h — the one streaming JSON writer of the host tools (viewer endpoints, memtracer-dump).
// Output is built straight into one string, no DOM in between (a 50k-frame series is a few MB);
// a caller that streams takes raw() in pieces. Compact for HTTP, pretty (2-space indent) for
// a person reading memtracer-dump --json. Strings are escaped per RFC 8259 and forced to valid
// UTF-8: symbol names and paths come from a game as raw bytes.
#ifndef MEMTRACER_HOST_JSON_H
#define MEMTRACER_HOST_JSON_H

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mt {

enum class JsonStyle { compact, pretty };

class Json {
public:
    explicit Json(JsonStyle style = JsonStyle::compact) : pretty_(style == JsonStyle::pretty) {}

    Json &obj();
    Json &end_obj();
    Json &arr();
    Json &end_arr();
    Json &key(std::string_view k);
    Json &val(int64_t v);
    Json &val(int v) { return val(static_cast<int64_t>(v)); }
    Json &val(uint64_t v);
    // Any other integer type (uint8_t..uint32_t, long long): a number, never a character.
    template <std::integral T>
        requires(!std::is_same_v<T, bool> && !std::is_same_v<T, int64_t> && !std::is_same_v<T, uint64_t> &&
                 !std::is_same_v<T, int>)
    Json &val(T v) {
        if constexpr (std::is_signed_v<T>)
            return val(static_cast<int64_t>(v));
        else
            return val(static_cast<uint64_t>(v));
    }
    Json &val(double v);                // shortest exact form; non-finite: null
    Json &val(double v, int decimals);  // fixed decimals ("%.3f"); non-finite: null
    Json &val_g17(double v);            // "%.17g" (24000000, not 2.4e+07); non-finite: null
    Json &val(bool v);
    Json &val(std::string_view v);
    Json &val(const char *v) { return val(std::string_view(v)); }
    Json &val(const std::string &v) { return val(std::string_view(v)); }
    Json &null();
    Json &raw_value(std::string_view json);  // a value already rendered as JSON
    template <class T>
    Json &kv(std::string_view k, const T &v) {
        key(k);
        return val(v);
    }
    Json &obj(std::string_view k) { return key(k).obj(); }
    Json &arr(std::string_view k) { return key(k).arr(); }
    std::string take() { return std::move(out_); }
    // The text so far; a streaming caller may write it out and clear it between values.
    std::string &raw() { return out_; }
    void reserve(size_t n) { out_.reserve(n); }
    bool done() const { return open_.empty(); }  // no container left open

private:
    void sep();
    Json &open(char c);
    Json &close(char c);
    void newline();
    std::string out_;
    std::vector<bool> open_;  // one per open container: true while it is still empty
    bool after_key_ = false;
    bool pretty_;
};

// Appends `s` as a JSON string literal: '"', '\\' and control characters escaped (\n \r \t \b \f
// by name, others as \u00XX); every byte that is not part of valid UTF-8 (overlong, surrogate,
// above U+10FFFF, cut off) becomes \ufffd, so the output is always valid.
void append_json_string(std::string &out, std::string_view s);
// The same, as a new string.
std::string json_quote(std::string_view s);

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not one.
size_t utf8_len(std::string_view s, size_t i);

}  // namespace mt

#endif
