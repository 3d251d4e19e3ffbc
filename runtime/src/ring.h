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

enum RecKind : uint8_t {
    REC_WRAP = 1,        // skip to the ring's start
    REC_ALLOC_FULL = 2,  // allocation + the stack's frames
    REC_ALLOC_SHORT = 3, // allocation; stack known by hash (sent earlier on this ring)
    REC_FREE = 4,        // a native heap's free of obj (header only; mt_on_native_free)
    REC_LARGE = 0x80     // flag: size or GC size needs 64 bits; an AllocLarge follows the header
};

// 48 bytes: the ring traffic is the largest single cost of a traced allocation, so the fields
// that are nearly always small are 32-bit (a larger size sets REC_LARGE and 16 more bytes).
struct AllocRec {
    uint16_t len;      // bytes, multiple of 8, header included (WRAP: unused)
    uint8_t kind;      // RecKind, possibly | REC_LARGE
    uint8_t depth;     // frames that follow (FULL only), <= MT_MAX_STACK_DEPTH
    uint32_t epoch;    // frame epoch the producer read, mod 2^32 (the writer widens it)
    uint64_t tick;
    uint64_t obj;
    uint64_t klass;
    uint32_t size;     // requested
    uint32_t gc_extra; // GC_size - requested
    uint64_t hash;     // stack hash
    // AllocLarge if kind & REC_LARGE, then uint64_t frames[depth] for REC_ALLOC_FULL
};
static_assert(sizeof(AllocRec) == 48, "record header is 48 bytes");

struct AllocLarge {
    uint64_t size, gc_size;
};

// Reading a record (writer side).
inline uint8_t rec_kind(const AllocRec &r) { return static_cast<uint8_t>(r.kind & ~REC_LARGE); }
inline const uint8_t *rec_after_header(const AllocRec &r) { return reinterpret_cast<const uint8_t *>(&r + 1); }
inline uint64_t rec_size(const AllocRec &r) {
    return (r.kind & REC_LARGE) ? reinterpret_cast<const AllocLarge *>(rec_after_header(r))->size : r.size;
}
// The requested and the GC size, with one test of REC_LARGE (the writer's per-record path).
inline void rec_sizes(const AllocRec &r, uint64_t *size, uint64_t *gc_size) {
    if (r.kind & REC_LARGE) {
        const AllocLarge *l = reinterpret_cast<const AllocLarge *>(rec_after_header(r));
        *size = l->size;
        *gc_size = l->gc_size;
    } else {
        *size = r.size;
        *gc_size = static_cast<uint64_t>(r.size) + r.gc_extra;
    }
}
inline const uint64_t *rec_frames(const AllocRec &r) {
    return reinterpret_cast<const uint64_t *>(rec_after_header(r) + ((r.kind & REC_LARGE) ? sizeof(AllocLarge) : 0));
}

// How far ahead of the record being handled Ring::drain prefetches (bytes; a few records).
constexpr uint64_t kDrainPrefetch = 512;

// frames.cpp: wakes the writer if it sleeps past its drain interval (nothing was waiting when it
// went to sleep); one fence and one load otherwise.
void wake_writer_if_idle();

// The producer looks at the writer at least every cap / kRingCheckEvery bytes it pushes, and wakes
// an idle writer once the ring holds cap / kRingWakeAt bytes, so a burst that starts while the
// writer sleeps long is drained before it fills the ring (issue 22, twelfth session).
constexpr uint64_t kRingCheckEvery = 8;
constexpr uint64_t kRingWakeAt = 16;

struct Ring {
    // Producer side (the owning thread).
    alignas(64) std::atomic<uint64_t> head{0};
    // Positions up to `limit` are free without reading `tail` (the consumer's line): the last tail
    // read plus the ring's size, but at most cap / kRingCheckEvery past the head it was set at.
    // Kept as a position so the fast path compares without a subtraction.
    uint64_t limit = 0;
    uint8_t *mem = nullptr;
    uint64_t cap = 0;  // power of two
    // Consumer side (the writer thread).
    alignas(64) std::atomic<uint64_t> tail{0};

    void reset(uint8_t *m, uint64_t c) {
        mem = m;
        cap = c;
        head.store(0, std::memory_order_relaxed);
        tail.store(0, std::memory_order_relaxed);
        limit = c / kRingCheckEvery;
    }

    // Room for n bytes (n % 8 == 0, n <= cap / 2; a WRAP marker needs only its kind byte). Returns where to write, or nullptr if full;
    // *next is the head to publish() once the record is written.
    uint8_t *reserve(uint32_t n, uint64_t *next) {
        uint64_t h = head.load(std::memory_order_relaxed);
        uint64_t pos = h & (cap - 1);
        uint64_t skip = pos + n > cap ? cap - pos : 0;
        uint64_t need = skip + n;
        if (h + need > limit && !refill(h + need)) return nullptr;
        if (skip) reinterpret_cast<AllocRec *>(mem + pos)->kind = REC_WRAP;
        *next = h + need;
        return mem + ((h + skip) & (cap - 1));
    }
    // The producer's common case, reserve() without its rare parts: n bytes fit before the
    // ring's end (no WRAP marker) and below the limit (no read of the consumer's tail). Returns
    // false where reserve() must decide; the bool comes from the compares themselves, so the
    // caller tests no pointer (issue 22 twelfth session).
    bool reserve_fast(uint32_t n, uint8_t **w, uint64_t *next) {
        const uint64_t h = head.load(std::memory_order_relaxed);
        const uint64_t pos = h & (cap - 1);
        if (pos + n > cap || h + n > limit) return false;
        *next = h + n;
        *w = mem + pos;
        return true;
    }
    void publish(uint64_t next) { head.store(next, std::memory_order_release); }

    // Out of line: reads the consumer's tail; false if `end` does not fit (the ring is full).
    // Otherwise sets the next limit and, once the ring holds cap / kRingWakeAt bytes, wakes the
    // writer if it sleeps long. Taken at most cap / kRingCheckEvery bytes apart (about 2,700
    // records of a 1 MiB ring), so its cost per record is a few hundredths of an instruction.
    __attribute__((noinline)) bool refill(uint64_t end) {
        const uint64_t t = tail.load(std::memory_order_acquire);
        if (end - t > cap) return false;
        const uint64_t room = t + cap, check = end + cap / kRingCheckEvery;
        limit = room < check ? room : check;
        if (end - t >= cap / kRingWakeAt) wake_writer_if_idle();
        return true;
    }

    // Consumer: calls f(const AllocRec&) for each record in [tail, head) and frees the space,
    // giving space back every 64 KiB so a long drain does not starve the producer.
    template <class F>
    uint64_t drain(F &&f) {
        uint64_t t = tail.load(std::memory_order_relaxed);
        uint64_t h = head.load(std::memory_order_acquire);
        uint64_t n = 0;
        uint64_t release_at = t + 65536;
        // In locals: the writer's byte stores (the encoder) may alias any member, so a member
        // read in the loop would be read again after every record (issue 22, seventh session).
        const uint64_t mask = cap - 1;
        const uint8_t *const base = mem;
        while (t < h) {
            uint64_t pos = t & mask;
            const AllocRec *r = reinterpret_cast<const AllocRec *>(base + pos);
            // The records were written by another core: ask for the lines a few records ahead
            // so their transfer overlaps this record's handling (the writer's largest cost was
            // waiting on each record's first load; docs/benchmarks.md, issue 22 third session).
            __builtin_prefetch(base + ((t + kDrainPrefetch) & mask));
            uint64_t step = r->kind == REC_WRAP ? mask + 1 - pos : r->len;
            if (r->kind != REC_WRAP) {
                f(*r);
                ++n;
            }
            t += step;
            if (t >= release_at) {
                tail.store(t, std::memory_order_release);
                release_at = t + 65536;
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
