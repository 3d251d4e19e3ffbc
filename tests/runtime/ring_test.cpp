// The per-thread ring's producer side (ring.h): reserve_fast, the hot path's common case, and
// reserve with its limit (at most the last tail read plus cap, ring.h) against a plain reference that reads the
// consumer's tail every time: same positions, same WRAP markers, same "full".
#include <catch2/catch.hpp>

#include <cstring>

#include "ring.h"

using mt::rt::AllocRec;
using mt::rt::Ring;

namespace {

// The ring's placement rule written out plainly: a record that would cross the end is preceded by
// a WRAP marker and starts at 0; full when the bytes from tail to the new head exceed cap.
struct ReferenceRing {
    uint64_t head = 0, tail = 0, cap = 0;
    // Returns the record's offset, or -1 if full; *wrap_at: the WRAP marker's offset or -1.
    int64_t reserve(uint32_t n, int64_t *wrap_at) {
        const uint64_t pos = head % cap;
        const uint64_t skip = pos + n > cap ? cap - pos : 0;
        *wrap_at = -1;
        if (head + skip + n - tail > cap) return -1;
        if (skip) *wrap_at = static_cast<int64_t>(pos);
        head += skip + n;
        return static_cast<int64_t>((head - n) % cap);
    }
};

}  // namespace

TEST_CASE("ring: reserve_fast and reserve place records as the plain reference does, full included", "[ring]") {
    constexpr uint64_t kCap = 1024;
    alignas(64) static uint8_t mem[kCap];
    Ring ring;
    ring.reset(mem, kCap);
    ReferenceRing ref;
    ref.cap = kCap;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    auto rnd = [&] {  // xorshift64
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    uint32_t fast = 0, slow = 0, full = 0, wraps = 0;
    for (int step = 0; step < 200000; ++step) {
        if (rnd() % 8 == 0) {  // the consumer takes everything so far
            const uint64_t records = ring.drain([](const AllocRec &) {});
            (void)records;
            ref.tail = ref.head;
            REQUIRE(ring.tail.load() == ref.tail);
            continue;
        }
        const uint32_t n = 8 * (1 + static_cast<uint32_t>(rnd() % (kCap / 16)));  // 8 .. cap / 2
        int64_t wrap_at = -1;
        const int64_t want = ref.reserve(n, &wrap_at);
        if (wrap_at >= 0) mem[wrap_at + offsetof(AllocRec, kind)] = 0;  // free space: the marker must appear
        uint8_t *w = nullptr;
        uint64_t next = 0;
        const uint64_t head = ring.head.load(), limit = ring.limit;
        const bool was_fast = ring.reserve_fast(n, &w, &next);
        // Fast exactly where no marker is needed and the last tail read leaves room.
        REQUIRE(was_fast == ((head % kCap) + n <= kCap && head + n <= limit));
        if (was_fast) {
            ++fast;
            REQUIRE(wrap_at == -1);  // the fast path never needs a marker
        } else {
            w = ring.reserve(n, &next);
            w ? ++slow : ++full;
        }
        INFO("step " << step << ", n " << n);
        REQUIRE((w == nullptr) == (want < 0));
        if (!w) continue;
        REQUIRE(w - mem == want);
        REQUIRE(next == ref.head);
        if (wrap_at >= 0) {
            ++wraps;
            REQUIRE(mem[wrap_at + offsetof(AllocRec, kind)] == mt::rt::REC_WRAP);
        }
        AllocRec r{};
        r.len = static_cast<uint16_t>(n);
        r.kind = mt::rt::REC_ALLOC_SHORT;
        memcpy(w, &r, sizeof r < n ? sizeof r : n);
        ring.publish(next);
    }
    // Every path was taken many times.
    CHECK(fast > 10000);
    CHECK(slow > 1000);
    CHECK(full > 1000);
    CHECK(wraps > 1000);
}
