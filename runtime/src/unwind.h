// unwind.h — stack capture for the hot path.
//
// Frame pointers: on x86_64 and arm64 a frame record is [fp] = caller's fp, [fp + 8] = return
// address. mt_on_alloc reads its own return address and its caller's fp, so the first frame is
// the return address into the code that called mt_on_alloc and no tracer frame is ever recorded.
// The walk stops at a misaligned fp, an fp that does not increase, an fp outside the thread's
// stack (bounds from pthread_getattr_np at bind time), a zero return address, or max depth.
//
// Pointer authentication (arm64e): signed return addresses carry a PAC in the bits above the
// virtual address. We strip with XPACLRI, which is a NOP on cores without PAC and exact on
// cores with it; masking to 48 bits instead would be wrong with 52-bit VAs or top-byte tags.
#ifndef MEMTRACER_RT_UNWIND_H
#define MEMTRACER_RT_UNWIND_H

#include <stddef.h>
#include <stdint.h>

namespace mt::rt {

inline uintptr_t strip_pac(uintptr_t ra) {
#if defined(__aarch64__)
    register uintptr_t x30 __asm__("x30") = ra;
    __asm__("hint #7" : "+r"(x30));  // xpaclri
    return x30;
#else
    return ra;
#endif
}

// Stack hash: one multiply-xor step per frame (h * K ^ pc), folded into the walk so it runs in
// the shadow of the walk's load chain, then the depth. Never 0. Multiply first, then xor: the
// lane's register is the xor's destination and the return address (already stored) its source,
// so a step is two instructions; (h ^ pc) * K compiled to three (a move of the product), 22 per
// allocation at 23 frames. The join multiplies again (key = (a * K ^ b) * K ^ depth), so the
// last frame of each lane goes through a multiply too: with a plain (a ^ b) * K, two stacks
// whose last frames of both lanes differ by one xor difference would share a key.
//
// Two lanes: frames 0, 2, 4, ... step lane a, frames 1, 3, 5, ... lane b, and the key joins them
// with one more step and a multiply. A step is a dependent multiply and xor (4 cycles); in one
// chain over ~20 frames that was longer than the walk's own load chain (which a core that
// forwards or renames stack memory runs at 1-2 cycles a frame), so the hash, not the walk, set
// the traced walk's latency (docs/benchmarks.md, issue 22 tenth session). The lanes start from different seeds, so
// swapping the frames of the two lanes changes the key. The hash is the writer's key for a
// stack (its map of stacks sent); it never reaches the file, whose stack ids are numbered in
// order of first appearance, so a different hash function leaves every byte the same.
//
// The hot path decides "stack already sent" on the key; a key's top bits are a multiply's, well
// spread, for the dedup index. The record's hash is the key with bit 0 set, so it is never 0 (the
// writer's "no stack" and its map's empty key). It used to be fmix64 of the key (then | 1): the
// same odds of two stacks sharing a hash (a bijection, then one bit set), but 17 instructions per
// allocation for bits nobody needs spread: the writer's map mixes its keys itself (U64Map::slot,
// hashmap.h) and otherwise only compares hashes for equality (issue 22 tenth session).
inline uint64_t stack_hash_step(uint64_t h, uint64_t pc) { return h * 0x9E3779B97F4A7C15ull ^ pc; }
inline uint64_t stack_hash_key(uint64_t a, uint64_t b, uint32_t depth) {
    return stack_hash_step(a, b) * 0x9E3779B97F4A7C15ull ^ depth;
}
inline uint64_t stack_hash_mix(uint64_t key) { return key | 1; }
constexpr uint64_t kStackHashSeedA = 0x2545F4914F6CDD1Dull;
constexpr uint64_t kStackHashSeedB = 0x6A09E667F3BCC909ull;

// The reference the walk's hash must equal (libunwind's frames are hashed with it).
inline uint64_t hash_frames_key(const uint64_t *f, uint32_t n) {
    uint64_t a = kStackHashSeedA, b = kStackHashSeedB;
    for (uint32_t i = 0; i < n; ++i) {
        if (i & 1)
            b = stack_hash_step(b, f[i]);
        else
            a = stack_hash_step(a, f[i]);
    }
    return stack_hash_key(a, b, n);
}
inline uint64_t hash_frames(const uint64_t *f, uint32_t n) { return stack_hash_mix(hash_frames_key(f, n)); }

// A thread's stack bounds as the walk uses them, computed once per thread (the slot keeps them;
// slots.cpp) instead of on every allocation. lo, top, span8: the first frame's check, fp >= lo
// and then (top - fp) rotated right by 3 at most span8 = (top - lo) / 8, with top = hi - 16
// rounded down to 8 (which an aligned fp is below exactly when it is below hi - 16): a misaligned
// fp moves its low bits to the top, an fp above top wraps. lo is UINTPTR_MAX where no fp can lie
// inside [lo, hi - 16] (then only UINTPTR_MAX passes fp >= lo, which is misaligned and fails the
// compare, span8 being 0).
struct WalkBounds {
    uintptr_t lo = UINTPTR_MAX, top = 0, span8 = 0;
};
inline WalkBounds walk_bounds(uintptr_t lo, uintptr_t hi) {
    const uintptr_t top = (hi - 16) & ~static_cast<uintptr_t>(7);
    if (top < lo) return WalkBounds{UINTPTR_MAX, top, 0};
    return WalkBounds{lo, top, (top - lo) >> 3};
}

// The walk's distance of a frame pointer below the stack's top, in frame-record words: (top - fp)
// rotated right by 3. It is (top - fp) / 8 for an aligned fp at most top, and at least 2^61 for a
// misaligned fp (its low bits rotate to the top) or one above top (the difference wraps).
inline uintptr_t walk_distance(uintptr_t top, uintptr_t fp) {
    const uintptr_t d = top - fp;
    return (d >> 3) | (d << 61);
}

// Walks from (ra0, fp) into out[0..max) and hashes as it goes (*key: hash_frames_key of the
// frames). Returns the depth (>= 1; max >= 1).
//
// The stop rules are the walk's as they always were: max depth; fp misaligned or outside
// [lo, hi - 16]; a zero return address (the frame is not taken); a caller's fp that does not
// increase (the frame is taken, the walk stops after it). Checked with fewer instructions a frame
// (issue 22 twelfth session; tests/runtime/unwind_test.cpp holds the plain loop they must equal):
//  - the first fp is checked against [lo, top] and alignment once (walk_distance <= span8); every
//    later fp is checked in one compare with "it increases": next is aligned, at most top and
//    above fp exactly when walk_distance(top, next) < walk_distance(top, fp) (an aligned next
//    at most top is above fp exactly when it is fewer words below top; a misaligned one or one
//    above top is at least 2^61 words "below", more than any in-bounds distance, span8 < 2^61).
//    So the bounds are never tested apart from the increase, and next >= lo follows from
//    next > fp >= lo.
//  - max depth as a count of pairs: the frames after the first go two an iteration, one per hash
//    lane (so each lane stays in its register), `p` steps once per pair and is compared once
//    with the pairs' end; an odd frame left (max even) is taken after the loop.
inline uint32_t fp_walk(uintptr_t ra0, uintptr_t fp, const WalkBounds &bounds, uint64_t *out, uint32_t max,
                        uint64_t *key = nullptr) {
    uint64_t a = kStackHashSeedA, b = kStackHashSeedB;
    out[0] = strip_pac(ra0);
    a = stack_hash_step(a, out[0]);
    uint64_t *p = out + 1;
    const uintptr_t top = bounds.top;
    uintptr_t dist;  // walk_distance of fp, once fp passed the first check
    if (max > 1 && fp >= bounds.lo && (dist = walk_distance(top, fp)) <= bounds.span8) {
        const uint64_t *const pairs_end = p + ((max - 1) & ~1u);
        for (;;) {
            if (p == pairs_end) {
                // One slot left (max even): lane b's frame; its caller's fp no longer matters.
                if ((max - 1) & 1) {
                    const uintptr_t ra = reinterpret_cast<const uintptr_t *>(fp)[1];
                    if (ra != 0) {
                        *p++ = strip_pac(ra);
                        b = stack_hash_step(b, p[-1]);
                    }
                }
                break;
            }
            const uintptr_t *rec = reinterpret_cast<const uintptr_t *>(fp);
            uintptr_t ra = rec[1];
            if (ra == 0) break;
            ra = strip_pac(ra);
            p[0] = ra;
            b = stack_hash_step(b, ra);
            uintptr_t next = rec[0];
            uintptr_t next_dist = walk_distance(top, next);
            if (next_dist >= dist) {
                p += 1;
                break;
            }
            rec = reinterpret_cast<const uintptr_t *>(next);
            ra = rec[1];
            if (ra == 0) {
                p += 1;
                break;
            }
            ra = strip_pac(ra);
            p[1] = ra;
            a = stack_hash_step(a, ra);
            fp = rec[0];
            dist = walk_distance(top, fp);
            p += 2;
            if (dist >= next_dist) break;
        }
    }
    const uint32_t n = static_cast<uint32_t>(p - out);
    // The join multiplies lane a once more; seen by gcc, that product made it carry a * K round
    // the loop instead of a (two register moves a pair in the hot path's copy of this loop). An
    // empty asm hides the relation; the value is unchanged.
    __asm__("" : "+r"(a));
    if (key) *key = stack_hash_key(a, b, n);
    return n;
}

// The same from raw bounds [lo, hi) (the tests, bench_runtime's bare walk).
inline uint32_t fp_walk(uintptr_t ra0, uintptr_t fp, uintptr_t lo, uintptr_t hi, uint64_t *out, uint32_t max,
                        uint64_t *key = nullptr) {
    return fp_walk(ra0, fp, walk_bounds(lo, hi), out, max, key);
}

// libunwind's unw_backtrace, trimmed so the first frame is ra0 (the tracer's own frames are
// dropped). Returns 0 when libunwind is not compiled in.
uint32_t libunwind_capture(uintptr_t ra0, uint64_t *out, uint32_t max);
bool libunwind_available();

}  // namespace mt::rt

#endif  // MEMTRACER_RT_UNWIND_H
