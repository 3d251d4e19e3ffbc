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
    REC_CLASS = 0x20,    // flag: the class follows the header (not the ring's previous allocation's)
    REC_WIDE = 0x40,     // flag: the absolute tick and the class follow the header (see AllocRec)
    REC_LARGE = 0x80     // flag: size or GC size does not fit the header; an AllocLarge follows
};
constexpr uint8_t kRecKindMask = 0x1F;

// 32 bytes: the ring traffic is a large share of what a traced allocation costs the game thread
// and of what the writer pays per record (it reads lines another core wrote), so what is nearly
// always small or repeated is left to the ring's own state (issue 22, fifth session): the tick
// is a 32-bit delta from the ring's previous allocation's, the class is sent only when it
// differs from the ring's previous allocation's, and the GC size is 16 bits over the requested.
// The producer keeps its side of that state in Ring (last_tick, last_klass), the writer its side
// (w_tick, w_klass); both change only with an allocation record the writer reads, in ring order,
// so they agree. Nothing is approximated: a delta that does not fit (and the first record after a
// ring reset: last_tick is set so that every delta overflows) sends the absolute tick (REC_WIDE),
// sizes that do not fit send both in full (REC_LARGE).
// After the header, in this order: AllocLarge if REC_LARGE; the frames if REC_ALLOC_FULL; then,
// the record's last words, [tick, klass] if REC_WIDE, else [klass] if REC_CLASS (last, so the
// producer's stores of the rest do not wait for its tick).
struct AllocRec {
    uint8_t len8;       // the record's bytes / 8, header included (WRAP: unused)
    uint8_t kind;       // RecKind | flags
    uint16_t gc_extra;  // GC_size - requested (REC_LARGE: unused)
    uint32_t epoch;     // frame epoch the producer read, mod 2^32 (the writer widens it)
    uint32_t dtick;     // tick - the ring's previous allocation's tick (REC_WIDE, REC_FREE: unused)
    uint32_t size;      // requested (REC_LARGE: unused)
    uint64_t obj;
    uint64_t hash;      // stack hash (REC_FREE: unused)
};
static_assert(sizeof(AllocRec) == 32, "record header is 32 bytes");
// The longest record (REC_WIDE, REC_LARGE and MT_MAX_STACK_DEPTH frames) in 8-byte units.
static_assert((sizeof(AllocRec) + 16 + 16 + 8 * 128) / 8 <= 255, "len8 holds every record's length");

struct AllocLarge {
    uint64_t size, gc_size;
};

// A record as the writer reads it: the ring's state applied (tick and class absolute), the rest
// read from the record when asked (few values to carry through the writer's loop).
struct Rec {
    const AllocRec *r;
    uint64_t tick, klass;
    const uint64_t *ext;  // the frames' end: the tick and class the record carries, if any

    uint8_t kind() const { return static_cast<uint8_t>(r->kind & kRecKindMask); }
    uint32_t epoch() const { return r->epoch; }
    uint64_t obj() const { return r->obj; }
    uint64_t hash() const { return r->hash; }
    const uint64_t *after() const { return reinterpret_cast<const uint64_t *>(r + 1); }
    uint64_t size() const { return (r->kind & REC_LARGE) ? after()[0] : r->size; }
    uint64_t gc_size() const {
        return (r->kind & REC_LARGE) ? after()[1] : static_cast<uint64_t>(r->size) + r->gc_extra;
    }
    const uint64_t *frames() const { return after() + ((r->kind & REC_LARGE) ? 2 : 0); }
    uint32_t depth() const { return static_cast<uint32_t>(ext - frames()); }  // REC_ALLOC_FULL
};

// How far ahead of the record being handled Ring::drain prefetches (bytes; a few records).
constexpr uint64_t kDrainPrefetch = 512;

struct Ring {
    // Producer side (the owning thread).
    alignas(64) std::atomic<uint64_t> head{0};
    uint64_t cached_tail = 0;
    uint8_t *mem = nullptr;
    uint64_t cap = 0;  // power of two
    // The previous allocation record's tick and class, as pushed (AllocRec).
    uint64_t last_tick = 0, last_klass = 0;
    // Consumer side (the writer thread).
    alignas(64) std::atomic<uint64_t> tail{0};
    uint64_t w_tick = 0, w_klass = 0;  // the same, as read back

    void reset(uint8_t *m, uint64_t c) {
        mem = m;
        cap = c;
        head.store(0, std::memory_order_relaxed);
        tail.store(0, std::memory_order_relaxed);
        cached_tail = 0;
        // Ticks count up from boot and stay below 2^63 (about a century at 3 GHz), so every
        // delta from this overflows 32 bits: the first record sends its tick and class whole, and
        // the writer's side needs no reset of its own.
        last_tick = 1ull << 63;
        last_klass = 0;
    }

    // Room for n bytes (n % 8 == 0, n <= cap / 2; a WRAP marker needs only its kind byte). Returns where to write, or nullptr if full;
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
        if (skip) reinterpret_cast<AllocRec *>(mem + pos)->kind = REC_WRAP;
        *next = h + need;
        return mem + ((h + skip) & (cap - 1));
    }
    void publish(uint64_t next) { head.store(next, std::memory_order_release); }

    // Consumer: calls f(const Rec&) for each record in [tail, head) and frees the space,
    // giving space back every 64 KiB so a long drain does not starve the producer.
    template <class F>
    uint64_t drain(F &&f) {
        uint64_t t = tail.load(std::memory_order_relaxed);
        uint64_t h = head.load(std::memory_order_acquire);
        uint64_t n = 0, since = 0;
        uint64_t tick = w_tick, klass = w_klass;
        while (t < h) {
            uint64_t pos = t & (cap - 1);
            const AllocRec *r = reinterpret_cast<const AllocRec *>(mem + pos);
            // The records were written by another core: ask for the lines a few records ahead
            // so their transfer overlaps this record's handling (the writer's largest cost was
            // waiting on each record's first load; docs/benchmarks.md, issue 22 third session).
            __builtin_prefetch(mem + ((t + kDrainPrefetch) & (cap - 1)));
            const uint8_t k = r->kind;
            uint64_t step;
            if (k == REC_WRAP) {
                step = cap - pos;
            } else {
                step = static_cast<uint64_t>(r->len8) * 8;
                const uint64_t *x = reinterpret_cast<const uint64_t *>(r) + r->len8;
                if ((k & kRecKindMask) != REC_FREE) {
                    if (k & REC_WIDE) {
                        x -= 2;
                        tick = x[0];
                        klass = x[1];
                    } else {
                        tick += r->dtick;
                        if (k & REC_CLASS) klass = *--x;
                    }
                }
                f(Rec{r, tick, klass, x});
                ++n;
            }
            t += step;
            since += step;
            if (since >= 65536) {
                tail.store(t, std::memory_order_release);
                since = 0;
            }
        }
        w_tick = tick;
        w_klass = klass;
        tail.store(t, std::memory_order_release);
        return n;
    }
    bool empty() const {
        return tail.load(std::memory_order_relaxed) == head.load(std::memory_order_acquire);
    }
};

}  // namespace mt::rt

#endif  // MEMTRACER_RT_RING_H
