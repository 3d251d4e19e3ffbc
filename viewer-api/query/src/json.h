// json.h — a small streaming JSON writer. Responses are built straight into one string; the
// 50k-frame series is a few MB, so no DOM in between.
#ifndef MEMTRACER_VIEWER_JSON_H
#define MEMTRACER_VIEWER_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mt::viewer {

class Json {
public:
    Json &obj();
    Json &end_obj();
    Json &arr();
    Json &end_arr();
    Json &key(std::string_view k);
    Json &val(int64_t v);
    Json &val(int v) { return val(static_cast<int64_t>(v)); }
    Json &val(uint64_t v);
    Json &val(double v);
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
    std::string &raw() { return out_; }
    void reserve(size_t n) { out_.reserve(n); }

private:
    void sep();
    std::string out_;
    std::vector<bool> first_;
    bool after_key_ = false;
};

// Appends `s` as a JSON string literal; invalid UTF-8 becomes U+FFFD so output is always valid.
void append_json_string(std::string &out, std::string_view s);

}  // namespace mt::viewer

#endif
