// codec.h — the byte-level primitives of run.mt, shared by the runtime's writer and the host's
// reader so the two can never disagree: LEB128 varints, zigzag, little-endian fixed ints, and
// CRC-32C. Header-only, no allocation, no exceptions (the runtime is built without them).
#ifndef MEMTRACER_CODEC_H
#define MEMTRACER_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace mt::codec {

constexpr size_t kMaxVarint = 10;  // bytes a 64-bit LEB128 can take

inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// Writes v at p (caller guarantees kMaxVarint bytes of room); returns bytes written.
inline size_t put_varint(uint8_t *p, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = static_cast<uint8_t>(v) | 0x80;
        v >>= 7;
    }
    p[n++] = static_cast<uint8_t>(v);
    return n;
}

// Reads a varint from [*p, end). Returns false (and leaves *p) if it is cut off or longer than
// 10 bytes, so a reader never walks past the chunk it checked.
inline bool get_varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    const uint8_t *q = *p;
    for (unsigned shift = 0; q < end && shift < 64; shift += 7) {
        uint8_t b = *q++;
        v |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            *p = q;
            return true;
        }
    }
    return false;
}

inline void put_le32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i)); }
inline uint32_t get_le32(const uint8_t *p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
inline void put_le16(uint8_t *p, uint16_t v) { p[0] = static_cast<uint8_t>(v); p[1] = static_cast<uint8_t>(v >> 8); }
inline uint16_t get_le16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

// CRC-32C (Castagnoli), reflected, table-driven. The table is built at compile time so the
// runtime needs no initialisation step and no static constructor.
struct Crc32cTable {
    uint32_t t[256];
    constexpr Crc32cTable() : t{} {
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
            t[i] = c;
        }
    }
};
inline constexpr Crc32cTable kCrc32c{};

// Continues a CRC: pass 0 to start; crc32c_update(crc32c_update(0, a), b) == crc of a||b.
inline uint32_t crc32c_update(uint32_t crc, const void *data, size_t n) {
    const uint8_t *p = static_cast<const uint8_t *>(data);
    crc = ~crc;
    for (size_t i = 0; i < n; ++i) crc = kCrc32c.t[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

// The chunk CRC covers the 8 bytes type|flags|size (little-endian) and then the payload, so a
// flipped length or type is caught as surely as a flipped payload byte.
inline uint32_t chunk_crc(uint16_t type, uint16_t flags, uint32_t size, const void *payload) {
    uint8_t head[8];
    put_le16(head, type);
    put_le16(head + 2, flags);
    put_le32(head + 4, size);
    return crc32c_update(crc32c_update(0, head, sizeof head), payload, size);
}

}  // namespace mt::codec

#endif  // MEMTRACER_CODEC_H
