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

// Stack hash: one multiply-xor step per frame, folded into the walk so it runs in the shadow of
// the walk's load chain, then the depth and a final avalanche (fmix64) so the writer's map sees
// well-spread bits. Never 0.
//
// The hot path decides "stack already sent" on the key (the state before the avalanche), not on
// the hash: fmix64 is a bijection, so equal keys mean equal hashes, and the avalanche's three
// dependent multiplies then feed only the record's hash field, off the path that picks the
// record's length. A key's top bits are a multiply's, well spread, for the dedup index.
inline uint64_t stack_hash_step(uint64_t h, uint64_t pc) { return (h ^ pc) * 0x9E3779B97F4A7C15ull; }
inline uint64_t stack_hash_key(uint64_t h, uint32_t depth) { return h ^ depth; }
inline uint64_t stack_hash_mix(uint64_t key) {
    uint64_t h = key;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h | 1;
}
constexpr uint64_t kStackHashSeed = 0x2545F4914F6CDD1Dull;

inline uint64_t hash_frames_key(const uint64_t *f, uint32_t n) {
    uint64_t h = kStackHashSeed;
    for (uint32_t i = 0; i < n; ++i) h = stack_hash_step(h, f[i]);
    return stack_hash_key(h, n);
}
inline uint64_t hash_frames(const uint64_t *f, uint32_t n) { return stack_hash_mix(hash_frames_key(f, n)); }

// Walks from (ra0, fp) into out[0..max) and hashes as it goes (*key: stack_hash_key of the
// frames, stack_hash_mix of it is hash_frames). Returns the depth (>= 1).
inline uint32_t fp_walk(uintptr_t ra0, uintptr_t fp, uintptr_t lo, uintptr_t hi, uint64_t *out, uint32_t max,
                        uint64_t *key = nullptr) {
    uint32_t n = 0;
    uint64_t h = kStackHashSeed;
    out[n++] = strip_pac(ra0);
    h = stack_hash_step(h, out[0]);
    while (n < max) {
        if ((fp & 7) != 0 || fp < lo || fp > hi - 16) break;
        const uintptr_t *rec = reinterpret_cast<const uintptr_t *>(fp);
        uintptr_t next = rec[0];
        uintptr_t ra = rec[1];
        if (ra == 0) break;
        ra = strip_pac(ra);
        out[n++] = ra;
        h = stack_hash_step(h, ra);
        if (next <= fp) break;
        fp = next;
    }
    if (key) *key = stack_hash_key(h, n);
    return n;
}

// libunwind's unw_backtrace, trimmed so the first frame is ra0 (the tracer's own frames are
// dropped). Returns 0 when libunwind is not compiled in.
uint32_t libunwind_capture(uintptr_t ra0, uint64_t *out, uint32_t max);
bool libunwind_available();

}  // namespace mt::rt

#endif  // MEMTRACER_RT_UNWIND_H
