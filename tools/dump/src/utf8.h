// utf8.h — strict UTF-8 validation (no overlongs, no surrogates, nothing above U+10FFFF). Strings
// in a run.mt are raw bytes from the game; both printers must not pass invalid ones on.
#ifndef MEMTRACER_DUMP_UTF8_H
#define MEMTRACER_DUMP_UTF8_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mt::dump {

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not one.
inline size_t utf8_len(std::string_view s, size_t i) {
    auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    auto cont = [&](size_t k, uint8_t lo, uint8_t hi) { return k < s.size() && b(k) >= lo && b(k) <= hi; };
    uint8_t c = b(i);
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) return cont(i + 1, 0x80, 0xbf) ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        uint8_t lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;  // no overlongs, no surrogates
        return cont(i + 1, lo, hi) && cont(i + 2, 0x80, 0xbf) ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        uint8_t lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
        return cont(i + 1, lo, hi) && cont(i + 2, 0x80, 0xbf) && cont(i + 3, 0x80, 0xbf) ? 4 : 0;
    }
    return 0;
}

}  // namespace mt::dump

#endif
