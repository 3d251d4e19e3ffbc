#include "address_blob.h"

#include <algorithm>
#include <cstring>

namespace mt::sym {

namespace {

constexpr char kMagic[4] = {'M', 'T', 'A', '1'};
constexpr uint64_t kMaxQuality = static_cast<uint64_t>(Quality::DebugInfo);

void put_varint(std::string &s, uint64_t v) {
    while (v >= 0x80) {
        s.push_back(static_cast<char>(v | 0x80));
        v >>= 7;
    }
    s.push_back(static_cast<char>(v));
}

void put_u64(std::string &s, uint64_t v) {
    for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
}

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// A bounds-checked reader: every read fails (ok() false) rather than run past the end.
class Reader {
public:
    explicit Reader(std::string_view s) : p_(reinterpret_cast<const uint8_t *>(s.data())), end_(p_ + s.size()) {}
    bool ok() const { return ok_; }
    bool at_end() const { return p_ == end_; }
    // A row's id delta and state are one byte each almost always: that case without the loop
    // (decode_address_blob is a warm run's whole cache load, 240k rows, docs/benchmarks.md,
    // issue 22, twelfth session).
    uint64_t varint() {
        if (p_ != end_ && *p_ < 0x80) return *p_++;
        return varint_long();
    }
    uint64_t varint_long() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p_ == end_) break;
            uint8_t b = *p_++;
            v |= static_cast<uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        ok_ = false;
        return 0;
    }
    uint64_t u64() {
        if (end_ - p_ < 8) {
            ok_ = false;
            return 0;
        }
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(p_[i]) << (8 * i);
        p_ += 8;
        return v;
    }
    bool magic() {
        if (end_ - p_ < 4 || std::memcmp(p_, kMagic, 4) != 0) return ok_ = false;
        p_ += 4;
        return true;
    }

private:
    const uint8_t *p_, *end_;
    bool ok_ = true;
};

}  // namespace

std::string encode_address_blob(const std::vector<CachedAddress> &rows, std::span<const uint32_t> order) {
    // answered_by is a file's 64-bit hash, the same for most rows of a build: a small table of the
    // distinct values, and a row names its value's index.
    // Runs of one value are entered once (a build's rows mostly share one), then sorted.
    std::vector<uint64_t> answered;
    for (uint32_t i : order)
        if (answered.empty() || answered.back() != rows[i].answered_by) answered.push_back(rows[i].answered_by);
    std::sort(answered.begin(), answered.end());
    answered.erase(std::unique(answered.begin(), answered.end()), answered.end());
    std::string s(kMagic, sizeof kMagic);
    s.reserve(16 + 8 * answered.size() + 6 * order.size());
    put_varint(s, order.size());
    put_varint(s, answered.size());
    for (uint64_t a : answered) put_u64(s, a);
    uint64_t prev_address = 0;
    int64_t prev_id = 0;
    size_t last = 0;  // index of the previous row's answered_by
    for (uint32_t i : order) {
        const CachedAddress &r = rows[i];
        put_varint(s, r.file_address - prev_address);
        put_varint(s, zigzag(r.addr_id - prev_id));
        if (r.answered_by != answered[last])  // the previous row's value, else a search
            last = static_cast<size_t>(std::lower_bound(answered.begin(), answered.end(), r.answered_by) - answered.begin());
        const uint64_t index = last;
        // A quality outside 0-2 (a foreign row's) must not reach the index bits: it becomes 3,
        // which the decoder refuses (the cache does not store such a blob: AddressCache::flush).
        const auto q = static_cast<int64_t>(r.quality);
        const uint64_t quality = q >= 0 && q <= static_cast<int64_t>(kMaxQuality) ? static_cast<uint64_t>(q) : 3;
        put_varint(s, (r.symbolized ? 1u : 0u) | quality << 1 | index << 3);
        prev_address = r.file_address;
        prev_id = r.addr_id;
    }
    return s;
}

bool decode_address_blob(std::string_view blob, uint64_t expected_rows, std::vector<CachedAddress> &out) {
    Reader in(blob);
    if (!in.magic()) return false;
    const uint64_t n = in.varint(), k = in.varint();
    // Each row takes at least 3 bytes and each value 8: a count the blob cannot hold is damage.
    if (!in.ok() || n != expected_rows || n > blob.size() / 3 || k > blob.size() / 8) return false;
    std::vector<uint64_t> answered(k);
    for (uint64_t &a : answered) a = in.u64();
    const size_t before = out.size();
    out.reserve(before + n);
    uint64_t address = 0;
    int64_t id = 0;
    for (uint64_t r = 0; r < n && in.ok(); ++r) {
        uint64_t delta = in.varint();
        id += unzigzag(in.varint());
        uint64_t state = in.varint();
        // Strictly ascending addresses (distinct rows), ids > 0, known quality and value index.
        if ((r > 0 && delta == 0) || address + delta < address || id <= 0 || (state >> 1 & 3) > kMaxQuality || (state >> 3) >= k) {
            out.resize(before);
            return false;
        }
        address += delta;
        CachedAddress a;
        a.addr_id = id;
        a.file_address = address;
        a.symbolized = state & 1;
        a.quality = static_cast<Quality>(state >> 1 & 3);
        a.answered_by = answered[static_cast<size_t>(state >> 3)];
        out.push_back(a);
    }
    if (!in.ok() || !in.at_end()) {
        out.resize(before);
        return false;
    }
    return true;
}

}  // namespace mt::sym
