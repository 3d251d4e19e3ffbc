// crc_fast.cpp — see crc_fast.h. The instruction computes the same reflected Castagnoli step
// as codec.h's table on the raw register; codec's convention inverts before and after.
#include "crc_fast.h"

#include <string.h>

#include "memtracer/codec.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#endif

namespace mt::trace {

namespace {

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t hw(uint32_t c, const uint8_t *p, size_t n) {
    uint64_t c64 = c;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c64 = _mm_crc32_u64(c64, v);
    }
    c = static_cast<uint32_t>(c64);
    for (; n; --n) c = _mm_crc32_u8(c, *p++);
    return c;
}
bool detect() { return __builtin_cpu_supports("sse4.2"); }
#elif defined(__aarch64__) && (defined(__linux__) || defined(__APPLE__))
__attribute__((target("+crc"))) uint32_t hw(uint32_t c, const uint8_t *p, size_t n) {
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        __asm__("crc32cx %w0, %w0, %x1" : "+r"(c) : "r"(v));
    }
    for (; n; --n) {
        uint32_t b = *p++;
        __asm__("crc32cb %w0, %w0, %w1" : "+r"(c) : "r"(b));
    }
    return c;
}
#if defined(__APPLE__)
bool detect() { return true; }  // every arm64 Apple core has the CRC32 extension
#else
bool detect() { return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0; }
#endif
#else
uint32_t hw(uint32_t c, const uint8_t *, size_t) { return c; }
bool detect() { return false; }
#endif

int g_hw = -1;  // -1 not probed yet; probing twice is harmless (atomic: the host's readers run on several threads)

}  // namespace

bool crc32c_hardware() {
    int hw = __atomic_load_n(&g_hw, __ATOMIC_RELAXED);
    if (hw < 0) {
        hw = detect() ? 1 : 0;
        __atomic_store_n(&g_hw, hw, __ATOMIC_RELAXED);
    }
    return hw == 1;
}

uint32_t crc32c_fast(uint32_t crc, const void *data, size_t n) {
    if (!crc32c_hardware()) return codec::crc32c_update(crc, data, n);
    return ~hw(~crc, static_cast<const uint8_t *>(data), n);
}

uint32_t chunk_crc_fast(uint16_t type, uint16_t flags, uint32_t size, const void *payload) {
    uint8_t head[8];
    codec::put_le16(head, type);
    codec::put_le16(head + 2, flags);
    codec::put_le32(head + 4, size);
    return crc32c_fast(crc32c_fast(0, head, sizeof head), payload, size);
}

}  // namespace mt::trace
