// string_ids.h — the strings table (schema version 3) as the symbolizer writes it: every
// function, demangled, C# and file name of the symbols rows is stored once and referred to by
// its id. A name is looked up in this memo first; one new to this ingest costs one INSERT (and a
// SELECT when another ingest stored it already), so a library's 800k inline frames write about
// as many strings as it has distinct names.
#ifndef MEMTRACER_SYM_STRING_IDS_H
#define MEMTRACER_SYM_STRING_IDS_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "memtracer/store/db.h"

namespace mt::sym {

class StringIds {
public:
    explicit StringIds(store::Db &db);
    // The id of `text` in the strings table, added if it is not there yet. Throws store::Error.
    int64_t id(std::string_view text);
    // Which StringIds this is, unique in the process (a memo elsewhere keeping ids checks it: a
    // later ingest's StringIds may have the same address).
    uint64_t generation() const { return generation_; }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    store::Db &db_;
    uint64_t generation_;
    store::Stmt insert_, find_;
    std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> ids_;
};

}  // namespace mt::sym

#endif
