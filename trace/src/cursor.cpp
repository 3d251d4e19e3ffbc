#include "cursor.h"

namespace mt::reader::detail {

void Cursor::fail(const std::string &what) const {
    std::string where = "payload byte " + std::to_string(p_ - begin_) + " of " + std::to_string(end_ - begin_);
    if (kind_) where = std::string(kind_) + " " + std::to_string(index_) + ", " + where;
    throw DecodeError(where + ": " + what);
}

void Cursor::bad_varint(const char *field) const {
    if (end_ - p_ >= static_cast<ptrdiff_t>(codec::kMaxVarint))
        fail(std::string("varint '") + field + "' is longer than 10 bytes");
    fail(std::string("varint '") + field + "' runs past the end of the payload");
}

void Cursor::bad_ref(const char *field, uint64_t v, size_t limit, const char *dictionary) const {
    fail(std::string("'") + field + "' is " + std::to_string(v) + " but only " + std::to_string(limit) + " " +
         dictionary + " are defined");
}

uint64_t Cursor::count(const char *field, size_t min_bytes) {
    uint64_t n = u(field);
    if (n > static_cast<uint64_t>(end_ - p_) / min_bytes)
        fail(std::string("'") + field + "' is " + std::to_string(n) + " but the " + std::to_string(end_ - p_) +
             " bytes left cannot hold that many");
    return n;
}

size_t Cursor::take_length(const char *field) {
    uint64_t n = u(field);
    if (n > static_cast<uint64_t>(end_ - p_))
        fail(std::string("string '") + field + "' has length " + std::to_string(n) + " but only " +
             std::to_string(end_ - p_) + " bytes are left");
    return static_cast<size_t>(n);
}

std::string Cursor::str(const char *field) {
    size_t n = take_length(field);
    std::string out(reinterpret_cast<const char *>(p_), n);
    p_ += n;
    return out;
}

std::vector<uint8_t> Cursor::bytes(const char *field) {
    size_t n = take_length(field);
    std::vector<uint8_t> out(p_, p_ + n);
    p_ += n;
    return out;
}

void Cursor::finish() const {
    if (p_ != end_) {
        Cursor copy = *this;
        copy.kind_ = nullptr;
        copy.fail(std::to_string(end_ - p_) + " bytes left over after the last field");
    }
}

}  // namespace mt::reader::detail
