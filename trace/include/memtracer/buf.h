// buf.h — a growable byte buffer on malloc/realloc, with the run.mt primitives (varint, zigzag,
// string). Used by the encoder and the writer thread, both of which must work in a runtime built
// without exceptions: an allocation failure sets failed() and turns every later append into a
// no-op, so callers check once per chunk instead of once per byte.
#ifndef MEMTRACER_TRACE_BUF_H
#define MEMTRACER_TRACE_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memtracer/codec.h"
#include "memtracer/noncopyable.h"

namespace mt::trace {

class Buf {
public:
    Buf() = default;
    ~Buf() { free(data_); }
    MT_NONCOPYABLE(Buf);
    Buf(Buf &&o) noexcept : data_(o.data_), size_(o.size_), cap_(o.cap_), failed_(o.failed_) {
        o.data_ = nullptr;
        o.size_ = o.cap_ = 0;
    }

    uint8_t *data() { return data_; }
    const uint8_t *data() const { return data_; }
    size_t size() const { return size_; }
    size_t capacity() const { return cap_; }
    bool failed() const { return failed_; }
    void clear() { size_ = 0; }
    // A failed buffer shows no capacity (its memory is kept for reuse after reset()), so that
    // room() needs one compare; reserve() and grow() handle cap_ 0.
    void set_failed() {
        failed_ = true;
        cap_ = 0;
    }
    // Forgets a failure too: the caller has dropped whatever the failed appends were part of.
    void reset() { size_ = 0; failed_ = false; }

    // Room for n more bytes; returns the write position or nullptr (and sets failed).
    uint8_t *reserve(size_t n) {
        if (failed_) return nullptr;
        if (cap_ - size_ < n && !grow(size_ + n)) return nullptr;
        return data_ + size_;
    }
    // The write position when n bytes are free (never on a failed buffer), else nullptr and
    // nothing done: one compare, for a caller that falls back to reserve() (the EVENTS encoder).
    uint8_t *room(size_t n) { return size_ + n <= cap_ ? data_ + size_ : nullptr; }
    void commit(size_t n) { size_ += n; }
    void truncate(size_t n) { if (n < size_) size_ = n; }

    void put_bytes(const void *p, size_t n) {
        uint8_t *w = reserve(n);
        if (!w) return;
        if (n) memcpy(w, p, n);
        size_ += n;
    }
    void put_u(uint64_t v) {
        uint8_t *w = reserve(codec::kMaxVarint);
        if (w) size_ += codec::put_varint(w, v);
    }
    void put_s(int64_t v) { put_u(codec::zigzag(v)); }
    void put_str(const char *s, size_t n) {
        put_u(n);
        put_bytes(s, n);
    }
    void put_cstr(const char *s) { put_str(s ? s : "", s ? strlen(s) : 0); }

private:
    bool grow(size_t need) {
        size_t cap = cap_ ? cap_ : 256;
        while (cap < need) cap *= 2;
        void *p = realloc(data_, cap);
        if (!p) {
            set_failed();
            return false;
        }
        data_ = static_cast<uint8_t *>(p);
        cap_ = cap;
        return true;
    }

    uint8_t *data_ = nullptr;
    size_t size_ = 0;
    size_t cap_ = 0;
    bool failed_ = false;
};

}  // namespace mt::trace

#endif  // MEMTRACER_TRACE_BUF_H
