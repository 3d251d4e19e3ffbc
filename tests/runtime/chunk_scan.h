// chunk_scan.h — a minimal, independent walk over a run.mt for tests: header and chunk CRCs and
// a varint cursor. Deliberately separate from the reader so the encoder is checked against the
// format text, not against a second implementation written from the same misunderstanding.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "memtracer/codec.h"
#include "memtracer/format.h"

namespace mt::test {

inline std::vector<uint8_t> slurp(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

struct RawChunk {
    uint16_t type = 0;
    std::vector<uint8_t> payload;
};

struct RawFile {
    bool header_ok = false;
    bool chunks_ok = true;   // every chunk has magic and CRC right and the file ends on a boundary
    uint32_t flags = 0;
    uint64_t sample_interval = 0;
    std::vector<RawChunk> chunks;
};

inline RawFile scan(const std::vector<uint8_t> &b) {
    RawFile r;
    if (b.size() < 64 || std::memcmp(b.data(), MT_FORMAT_MAGIC, 8) != 0) return r;
    r.header_ok = codec::get_le32(b.data() + 60) == codec::crc32c_update(0, b.data(), 60);
    r.flags = codec::get_le32(b.data() + 32);
    std::memcpy(&r.sample_interval, b.data() + 24, 8);
    size_t at = 64;
    while (at < b.size()) {
        if (b.size() - at < 16 || codec::get_le32(&b[at]) != MT_CHUNK_MAGIC) { r.chunks_ok = false; break; }
        uint16_t type = codec::get_le16(&b[at + 4]);
        uint32_t size = codec::get_le32(&b[at + 8]);
        uint32_t crc = codec::get_le32(&b[at + 12]);
        if (b.size() - at - 16 < size || codec::chunk_crc(type, 0, size, &b[at + 16]) != crc) {
            r.chunks_ok = false;
            break;
        }
        r.chunks.push_back({type, std::vector<uint8_t>(b.begin() + at + 16, b.begin() + at + 16 + size)});
        at += 16 + size;
    }
    return r;
}

struct Cur {
    const uint8_t *p, *end;
    bool ok = true;
    explicit Cur(const std::vector<uint8_t> &v) : p(v.data()), end(v.data() + v.size()) {}
    uint64_t u() {
        uint64_t v = 0;
        if (!codec::get_varint(&p, end, &v)) ok = false;
        return v;
    }
    int64_t s() { return codec::unzigzag(u()); }
    std::string str() {
        uint64_t n = u();
        if (static_cast<uint64_t>(end - p) < n) { ok = false; return {}; }
        std::string s(reinterpret_cast<const char *>(p), n);
        p += n;
        return s;
    }
    bool done() const { return ok && p == end; }
};

}  // namespace mt::test
