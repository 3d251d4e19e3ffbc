// cursor.h — bounds-checked reads of one chunk's payload. Every read goes through codec.h's
// get_varint against the payload end, so damage can never move a read outside the chunk the
// walker has already checked. Errors throw DecodeError, which the reader catches per chunk and
// turns into Stop::Corrupt; nothing escapes the reader.
#ifndef MEMTRACER_READER_CURSOR_H
#define MEMTRACER_READER_CURSOR_H

#include "memtracer/codec.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mt::reader::detail {

struct DecodeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Cursor {
public:
    Cursor(const uint8_t *p, size_t n) : begin_(p), p_(p), end_(p + n) {}

    uint64_t u(const char *field) {
        uint64_t v;
        if (!codec::get_varint(&p_, end_, &v)) [[unlikely]] bad_varint(field);
        return v;
    }
    int64_t s(const char *field) { return codec::unzigzag(u(field)); }

    // An id that must name something already defined: limit is how many are.
    uint32_t ref(const char *field, size_t limit, const char *dictionary) {
        uint64_t v = u(field);
        if (v >= limit) [[unlikely]] bad_ref(field, v, limit, dictionary);
        return static_cast<uint32_t>(v);
    }

    // A record count, refused when the rest of the payload could not hold that many records of
    // at least min_bytes each, so damage cannot make the reader reserve gigabytes.
    uint64_t count(const char *field, size_t min_bytes);

    std::string str(const char *field);
    std::vector<uint8_t> bytes(const char *field);

    void record(const char *kind, uint64_t index) {
        kind_ = kind;
        index_ = index;
    }
    void finish() const;  // the payload must be used up exactly
    [[noreturn]] void fail(const std::string &what) const;

private:
    [[noreturn]] void bad_varint(const char *field) const;
    [[noreturn]] void bad_ref(const char *field, uint64_t v, size_t limit, const char *dictionary) const;
    size_t take_length(const char *field);

    const uint8_t *begin_, *p_, *end_;
    const char *kind_ = nullptr;
    uint64_t index_ = 0;
};

}  // namespace mt::reader::detail

#endif
