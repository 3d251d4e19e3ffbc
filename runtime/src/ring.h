// ring.h — the per-thread single-producer/single-consumer byte ring and the record the hot path
// puts in it. Records are 8-byte aligned and variable-size (a stack's frames ride along only
// the first time a thread sends that stack). A record that would straddle the end of the ring is
// preceded by a WRAP marker and starts again at offset 0. Positions are monotonic 64-bit byte
// counts; each side caches the other's position so the common case touches no shared line.
#ifndef MEMTRACER_RT_RING_H
#define MEMTRACER_RT_RING_H

#include <atomic>
#include <stddef.h>
#include <stdint.h>

namespace mt::rt {

enum RecKind : uint16_t {
    REC_WRAP = 1,        // skip to the ring's start
    REC_ALLOC_FULL = 2,  // allocation + the stack's frames
    REC_ALLOC_SHORT = 3  // allocation; stack known by hash (sent earlier on this ring)
};

struct AllocRec {
    uint32_t len;     // bytes, multiple of 8, header included
    uint16_t kind;    // RecKind
    uint16_t depth;   // frames that follow (FULL only)
    uint64_t epoch;   // frame epoch the producer read
    uint64_t tick;
    uint64_t obj;
    uint64_t klass;
    uint64_t size;    // requested
    uint64_t gc_size;
    uint64_t hash;    // stack hash
    // uint64_t frames[depth] for REC_ALLOC_FULL
};
static_assert(sizeof(AllocRec) == 64, "record header is one cache line");

struct Ring {
    // Producer side (the owning thread).
    alignas(64) std::atomic<uint64_t> head{0};
    uint64_t cached_tail = 0;
    uint8_t *mem = nullptr;
    uint64_t cap = 0;  // power of two
    // Consumer side (the writer thread).
    alignas(64) std::atomic<uint64_t> tail{0};

    void reset(uint8_t *m, uint64_t c) {
        mem = m;
        cap = c;
        head.store(0, std::memory_order_relaxed);
        tail.store(0, std::memory_order_relaxed);
        cached_tail = 0;
    }

    // Room for n bytes (n % 8 == 0, n <= cap / 2). Returns where to write, or nullptr if full;
    // *next is the head to publish() once the record is written.
    uint8_t *reserve(uint32_t n, uint64_t *next) {
        uint64_t h = head.load(std::memory_order_relaxed);
        uint64_t pos = h & (cap - 1);
        uint64_t skip = pos + n > cap ? cap - pos : 0;
        uint64_t need = skip + n;
        if (h + need - cached_tail > cap) {
            cached_tail = tail.load(std::memory_order_acquire);
            if (h + need - cached_tail > cap) return nullptr;
        }
        if (skip) {
            AllocRec *w = reinterpret_cast<AllocRec *>(mem + pos);
            w->len = static_cast<uint32_t>(skip);
            w->kind = REC_WRAP;
        }
        *next = h + need;
        return mem + ((h + skip) & (cap - 1));
    }
    void publish(uint64_t next) { head.store(next, std::memory_order_release); }

    // Consumer: calls f(const AllocRec&) for each record in [tail, head) and frees the space,
    // giving space back every 64 KiB so a long drain does not starve the producer.
    template <class F>
    uint64_t drain(F &&f) {
        uint64_t t = tail.load(std::memory_order_relaxed);
        uint64_t h = head.load(std::memory_order_acquire);
        uint64_t n = 0, since = 0;
        while (t < h) {
            const AllocRec *r = reinterpret_cast<const AllocRec *>(mem + (t & (cap - 1)));
            if (r->kind != REC_WRAP) {
                f(*r);
                ++n;
            }
            t += r->len;
            since += r->len;
            if (since >= 65536) {
                tail.store(t, std::memory_order_release);
                since = 0;
            }
        }
        tail.store(t, std::memory_order_release);
        return n;
    }
    bool empty() const {
        return tail.load(std::memory_order_relaxed) == head.load(std::memory_order_acquire);
    }
};

}  // namespace mt::rt

#endif  // MEMTRACER_RT_RING_H
