// json_mini.h — a small JSON reader for test expectations (the sample game's --expect-json).
// Numbers keep their text so 64-bit counts and "0x…" addresses survive exactly.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mt::test {

struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool boolean = false;
    std::string text;  // Number: as written; String: decoded
    std::vector<Json> items;
    std::map<std::string, Json> fields;

    const Json &at(const std::string &key) const;  // throws std::runtime_error naming the key
    uint64_t u64() const;
};

Json parse_json(const std::string &text);  // throws std::runtime_error with the byte offset

}  // namespace mt::test
