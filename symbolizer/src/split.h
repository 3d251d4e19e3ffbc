// split.h — walking a text piece by piece (lines, comma-separated lists) without copying it.
#ifndef MEMTRACER_SYM_SPLIT_H
#define MEMTRACER_SYM_SPLIT_H

#include <string_view>

namespace mt::sym {

// The part of `rest` before the first `sep` (all of it when there is none); `rest` then starts
// after that separator, and is empty once the last piece is taken.
inline std::string_view take_until(std::string_view &rest, char sep) {
    size_t at = rest.find(sep);
    std::string_view piece = rest.substr(0, at);
    rest = at == std::string_view::npos ? std::string_view() : rest.substr(at + 1);
    return piece;
}

}  // namespace mt::sym

#endif
