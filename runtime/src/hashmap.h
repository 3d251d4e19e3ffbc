// hashmap.h — the writer thread's containers: an open-addressing map from a non-zero 64-bit
// key to a 32-bit value, and a vector of trivially copyable items. malloc-based, no exceptions:
// a failed growth returns false and the caller counts and disables.
#ifndef MEMTRACER_RT_HASHMAP_H
#define MEMTRACER_RT_HASHMAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memtracer/noncopyable.h"

namespace mt::rt {

class U64Map {
public:
    U64Map() = default;
    ~U64Map() { free(t_); }
    MT_NONCOPYABLE(U64Map);

    uint32_t size() const { return n_; }
    void clear() {
        if (t_) memset(t_, 0, sizeof(Entry) * cap_);
        n_ = 0;
    }

    // key must not be 0.
    bool find(uint64_t key, uint32_t *val) const {
        if (!t_) return false;
        for (uint32_t i = slot(key);; i = (i + 1) & (cap_ - 1)) {
            if (t_[i].key == key) {
                *val = t_[i].val;
                return true;
            }
            if (t_[i].key == 0) return false;
        }
    }

    bool insert(uint64_t key, uint32_t val) {
        if ((n_ + 1) * 2 > cap_ && !grow()) return false;
        put(key, val);
        return true;
    }

private:
    struct Entry {
        uint64_t key;
        uint32_t val;
    };
    uint32_t slot(uint64_t key) const {
        key ^= key >> 33;
        key *= 0xFF51AFD7ED558CCDull;
        key ^= key >> 33;
        return static_cast<uint32_t>(key) & (cap_ - 1);
    }
    void put(uint64_t key, uint32_t val) {
        uint32_t i = slot(key);
        while (t_[i].key != 0 && t_[i].key != key) i = (i + 1) & (cap_ - 1);
        if (t_[i].key == 0) ++n_;
        t_[i] = Entry{key, val};
    }
    bool grow() {
        uint32_t cap = cap_ ? cap_ * 2 : 64;
        Entry *t = static_cast<Entry *>(calloc(cap, sizeof(Entry)));
        if (!t) return false;
        Entry *old = t_;
        uint32_t old_cap = cap_;
        t_ = t;
        cap_ = cap;
        n_ = 0;
        for (uint32_t i = 0; i < old_cap; ++i)
            if (old[i].key) put(old[i].key, old[i].val);
        free(old);
        return true;
    }

    Entry *t_ = nullptr;
    uint32_t cap_ = 0, n_ = 0;
};

template <class T>
class Vec {
public:
    Vec() = default;
    ~Vec() { free(d_); }
    MT_NONCOPYABLE(Vec);

    uint32_t size() const { return n_; }
    T *data() { return d_; }
    T &operator[](uint32_t i) { return d_[i]; }
    const T &operator[](uint32_t i) const { return d_[i]; }
    void clear() { n_ = 0; }
    void pop() { --n_; }
    bool push(const T &v) {
        if (n_ == cap_) {
            uint32_t cap = cap_ ? cap_ * 2 : 16;
            void *p = realloc(d_, sizeof(T) * cap);
            if (!p) return false;
            d_ = static_cast<T *>(p);
            cap_ = cap;
        }
        d_[n_++] = v;
        return true;
    }

private:
    T *d_ = nullptr;
    uint32_t n_ = 0, cap_ = 0;
};

}  // namespace mt::rt

#endif  // MEMTRACER_RT_HASHMAP_H
