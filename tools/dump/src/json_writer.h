// json_writer.h — a small streaming JSON writer for memtracer-dump: pretty-printed, strings
// escaped per RFC 8259 and forced to valid UTF-8 (file strings are raw bytes from a game).
#ifndef MEMTRACER_DUMP_JSON_WRITER_H
#define MEMTRACER_DUMP_JSON_WRITER_H

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mt::dump {

// JSON string literal (with quotes) of arbitrary bytes: invalid UTF-8 becomes U+FFFD.
std::string json_quote(std::string_view bytes);

class JsonWriter {
public:
    explicit JsonWriter(std::ostream &out) : out_(out) {}
    ~JsonWriter();  // ends with a newline once the top-level value is closed

    JsonWriter &begin_object();
    JsonWriter &end_object();
    JsonWriter &begin_array();
    JsonWriter &end_array();
    JsonWriter &key(std::string_view k);  // inside an object, before each value

    JsonWriter &value(std::string_view s);
    JsonWriter &value(const char *s) { return value(std::string_view(s)); }
    JsonWriter &value(const std::string &s) { return value(std::string_view(s)); }
    template <class T>
        requires std::is_integral_v<T> && (!std::is_same_v<T, bool>)
    JsonWriter &value(T v) {
        if constexpr (std::is_signed_v<T>)
            return integer(static_cast<int64_t>(v));
        else
            return integer(static_cast<uint64_t>(v));
    }
    JsonWriter &value(double v, int decimals = -1);  // -1: shortest exact; non-finite: null
    JsonWriter &value(bool v);
    JsonWriter &null();

    // Shorthand for key(k).value(v).
    template <class T>
    JsonWriter &field(std::string_view k, const T &v) {
        key(k);
        return value(v);
    }

private:
    JsonWriter &integer(uint64_t v);
    JsonWriter &integer(int64_t v);
    void before_value();
    void newline();
    JsonWriter &open(char c);
    JsonWriter &close(char c);

    std::ostream &out_;
    std::vector<bool> has_items_;  // one per open container
    bool after_key_ = false;
};

}  // namespace mt::dump

#endif
