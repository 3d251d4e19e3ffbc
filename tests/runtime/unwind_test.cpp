// Unwinders: the frame-pointer walker on a synthetic stack (every stop rule), and both
// unwinders on a real noinline call chain compared with __builtin_return_address.
#include <catch2/catch.hpp>

#include <cstring>

#include "support.h"
#include "unwind.h"

using mt::rt::fp_walk;

TEST_CASE("fp walker follows records and stops on each bad link", "[unwind]") {
    alignas(16) uintptr_t stack[64] = {};
    uintptr_t lo = reinterpret_cast<uintptr_t>(stack), hi = lo + sizeof stack;
    auto at = [&](int i) { return reinterpret_cast<uintptr_t>(&stack[i]); };
    // Records at slots 4 -> 10 -> 20 -> 30, each [fp] = next fp, [fp+8] = return address.
    stack[4] = at(10), stack[5] = 0x1111;
    stack[10] = at(20), stack[11] = 0x2222;
    stack[20] = at(30), stack[21] = 0x3333;
    stack[30] = 0, stack[31] = 0x4444;  // next fp 0: not increasing, walk ends after this frame
    uint64_t out[16];
    SECTION("whole chain") {
        uint32_t n = fp_walk(0x9999, at(4), lo, hi, out, 16);
        REQUIRE(n == 5);
        CHECK(out[0] == 0x9999);
        CHECK(out[1] == 0x1111);
        CHECK(out[2] == 0x2222);
        CHECK(out[3] == 0x3333);
        CHECK(out[4] == 0x4444);
    }
    SECTION("max depth") { CHECK(fp_walk(0x9999, at(4), lo, hi, out, 3) == 3); }
    SECTION("misaligned fp") {
        stack[10] = at(20) + 4;
        CHECK(fp_walk(0x9999, at(4), lo, hi, out, 16) == 3);
    }
    SECTION("fp going down the stack") {
        stack[10] = at(6);
        CHECK(fp_walk(0x9999, at(4), lo, hi, out, 16) == 3);
    }
    SECTION("fp leaving the stack bounds") {
        stack[10] = hi + 64;
        CHECK(fp_walk(0x9999, at(4), lo, hi, out, 16) == 3);
    }
    SECTION("zero return address") {
        stack[21] = 0;
        CHECK(fp_walk(0x9999, at(4), lo, hi, out, 16) == 3);
    }
    SECTION("start outside bounds records only the call site") {
        CHECK(fp_walk(0x9999, hi + 16, lo, hi, out, 16) == 1);
    }
}

TEST_CASE("fp walker's key is the dedup key of its frames and mixes to their hash", "[unwind]") {
    alignas(16) uintptr_t stack[32] = {};
    uintptr_t lo = reinterpret_cast<uintptr_t>(stack), hi = lo + sizeof stack;
    auto at = [&](int i) { return reinterpret_cast<uintptr_t>(&stack[i]); };
    stack[2] = at(8), stack[3] = 0x1111;
    stack[8] = 0, stack[9] = 0x2222;
    uint64_t out[8], key = 0;
    uint32_t n = fp_walk(0x9999, at(2), lo, hi, out, 8, &key);
    REQUIRE(n == 3);
    // The hot path decides "already sent" on the key and writes the mixed hash into the record:
    // both must describe the same frames as hash_frames does.
    CHECK(key == mt::rt::hash_frames_key(out, n));
    CHECK(mt::rt::stack_hash_mix(key) == mt::rt::hash_frames(out, n));
    CHECK((mt::rt::hash_frames(out, n) & 1) == 1);
    // Another return address or another depth is another key.
    uint64_t key2 = 0;
    stack[9] = 0x2223;
    CHECK(fp_walk(0x9999, at(2), lo, hi, out, 8, &key2) == 3);
    CHECK(key2 != key);
    uint64_t key3 = 0;
    CHECK(fp_walk(0x9999, at(2), lo, hi, out, 2, &key3) == 2);
    CHECK(key3 != key2);
    CHECK(key3 >> 56 != key2 >> 56);  // the dedup index is the key's top byte: spread here too
}

namespace {

// The walk as one plain loop with one hash chain per lane, written out step by step: the
// reference the unrolled walk (two frames an iteration, one per hash lane) must equal.
uint32_t reference_walk(uintptr_t ra0, uintptr_t fp, uintptr_t lo, uintptr_t hi, uint64_t *out, uint32_t max) {
    uint32_t n = 0;
    out[n++] = ra0;
    while (n < max) {
        if ((fp & 7) != 0 || fp < lo || fp > hi - 16) break;
        const uintptr_t *rec = reinterpret_cast<const uintptr_t *>(fp);
        if (rec[1] == 0) break;
        out[n++] = rec[1];
        if (rec[0] <= fp) break;
        fp = rec[0];
    }
    return n;
}

}  // namespace

TEST_CASE("unrolled fp walk equals the plain loop on random chains, every depth and stop rule", "[unwind]") {
    // 256 slots walked; 16 more, always zero, so bounds moved above the array stay readable.
    alignas(16) uintptr_t stack[256 + 16] = {};
    const uintptr_t lo = reinterpret_cast<uintptr_t>(stack), hi = lo + 256 * sizeof(uintptr_t);
    uint64_t seed = 0x243F6A8885A308D3ull;
    auto rnd = [&] {  // xorshift64
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    for (int trial = 0; trial < 4000; ++trial) {
        memset(stack, 0, sizeof stack);
        // A chain of records going up the stack, 1 to 40 of them, then one bad link of a kind
        // picked at random (or none: the chain ends at the stack's top).
        uint32_t slot = static_cast<uint32_t>(rnd() % 8) * 2;
        const uint32_t records = 1 + static_cast<uint32_t>(rnd() % 40);
        uintptr_t first = lo + slot * 8;
        for (uint32_t r = 0; r < records && slot + 2 < 256; ++r) {
            uint32_t next = slot + 2 + static_cast<uint32_t>(rnd() % 3) * 2;
            uintptr_t next_fp = next + 1 < 256 ? lo + next * 8 : 0;
            stack[slot] = next_fp;
            stack[slot + 1] = 0x400000 + rnd() % 0x100000;
            if (next + 1 >= 256) break;
            slot = next;
        }
        switch (rnd() % 6) {  // spoil one link somewhere in the chain
        case 0: stack[slot] += 4; break;                // misaligned
        case 1: stack[slot] = lo + (slot / 2) * 8; break;  // going down (or equal)
        case 2: stack[slot + 1] = 0; break;            // zero return address
        case 3: stack[slot] = hi + 64; break;           // outside the bounds
        default: break;
        }
        if (rnd() % 16 == 0) first = hi + 8;  // starts outside the bounds
        // Bounds as given, or moved by up to 40 bytes either way: unaligned, cutting the chain,
        // or less than a frame record apart.
        uintptr_t b_lo = lo, b_hi = hi;
        if (rnd() % 4 == 0) b_lo = lo + rnd() % 81 - 40;
        if (rnd() % 4 == 0) b_hi = hi + rnd() % 81 - 40;
        if (rnd() % 32 == 0) b_hi = b_lo + rnd() % 24;
        const uint32_t max = 1 + static_cast<uint32_t>(rnd() % 48);
        uint64_t want[64], got[64], key = 0;
        const uint32_t n_want = reference_walk(0x9999, first, b_lo, b_hi, want, max);
        const uint32_t n_got = fp_walk(0x9999, first, b_lo, b_hi, got, max, &key);
        REQUIRE(n_got == n_want);
        REQUIRE(memcmp(got, want, n_got * 8) == 0);
        REQUIRE(key == mt::rt::hash_frames_key(want, n_want));
        // The walk without a key (bench_runtime's bare walk) stops at the same frame.
        REQUIRE(fp_walk(0x9999, first, b_lo, b_hi, got, max) == n_want);
    }
}

// The walk checks a caller's fp and "it increases" in one compare and max depth once per pair of
// frames (unwind.h): each kind of bad link at every position of the chain (so in either hash lane,
// in the pair loop and in the odd frame after it), under every max depth around it, against the
// plain loop, with aligned and unaligned bounds.
TEST_CASE("fp walk equals the plain loop with each bad link at every position and every max depth", "[unwind]") {
    alignas(16) uintptr_t stack[128 + 16] = {};
    const uintptr_t lo = reinterpret_cast<uintptr_t>(stack), hi = lo + 128 * sizeof(uintptr_t);
    constexpr uint32_t kRecords = 24;  // records 4 words apart: slots 0, 4, ..., 92
    const char *kinds[] = {"none", "misaligned", "equal", "going down", "zero ra", "above top (aligned)",
                           "above top (misaligned)", "one word above the last record"};
    for (uint32_t kind = 0; kind < 8; ++kind) {
        for (uint32_t at = 0; at < kRecords; ++at) {
            memset(stack, 0, sizeof stack);
            for (uint32_t r = 0; r < kRecords; ++r) {
                stack[r * 4] = r + 1 < kRecords ? lo + (r + 1) * 32 : 0;
                stack[r * 4 + 1] = 0x500000 + r * 0x10;
            }
            uintptr_t &link = stack[at * 4];
            switch (kind) {
            case 1: link += 4; break;
            case 2: link = lo + at * 32; break;
            case 3: link = at ? lo + (at - 1) * 32 : lo - 32; break;
            case 4: stack[at * 4 + 1] = 0; break;
            case 5: link = hi + 32; break;
            case 6: link = hi + 36; break;
            case 7: link = hi - 8; break;  // aligned, inside [lo, hi) but above hi - 16
            default: break;
            }
            for (uintptr_t b_hi : {hi, hi - 3, lo + (at + 1) * 32 + 16, lo + (at + 1) * 32 + 15}) {
                for (uint32_t max = 1; max <= kRecords + 3; ++max) {
                    INFO("bad link: " << kinds[kind] << " at record " << at << ", max " << max << ", hi - "
                                      << (hi - b_hi));
                    uint64_t want[32], got[32], key = 0;
                    const uint32_t n_want = reference_walk(0x9999, lo, lo, b_hi, want, max);
                    const uint32_t n_got = fp_walk(0x9999, lo, lo, b_hi, got, max, &key);
                    REQUIRE(n_got == n_want);
                    REQUIRE(memcmp(got, want, n_got * 8) == 0);
                    REQUIRE(key == mt::rt::hash_frames_key(want, n_want));
                    REQUIRE(fp_walk(0x9999, lo, lo, b_hi, got, max) == n_want);
                }
            }
        }
    }
}

TEST_CASE("stack key: frames in another order or in the other lane are another key", "[unwind]") {
    const uint64_t f[4] = {0x1111, 0x2222, 0x3333, 0x4444};
    const uint64_t swapped_lanes[4] = {0x2222, 0x1111, 0x4444, 0x3333};
    const uint64_t swapped_in_lane[4] = {0x3333, 0x2222, 0x1111, 0x4444};
    const uint64_t k = mt::rt::hash_frames_key(f, 4);
    CHECK(k != mt::rt::hash_frames_key(swapped_lanes, 4));
    CHECK(k != mt::rt::hash_frames_key(swapped_in_lane, 4));
    CHECK(k != mt::rt::hash_frames_key(f, 3));
    CHECK(mt::rt::hash_frames_key(f, 1) != mt::rt::hash_frames_key(swapped_lanes, 1));
    // The last frame of each lane changed by the same xor difference: another key (the join
    // multiplies lane a before it meets lane b).
    const uint64_t same_delta[4] = {0x1111, 0x2222, 0x3333 ^ 0x40, 0x4444 ^ 0x40};
    CHECK(k != mt::rt::hash_frames_key(same_delta, 4));
    // A repeated frame at both lanes (recursion) does not cancel out.
    const uint64_t same2[2] = {0x5555, 0x5555}, other2[2] = {0x6666, 0x6666};
    CHECK(mt::rt::hash_frames_key(same2, 2) != mt::rt::hash_frames_key(other2, 2));
}

namespace {

uintptr_t g_ra[4];  // return addresses each level saw: into its caller

}  // namespace

extern "C" {
__attribute__((noinline)) void unwind_level3(void *obj) {
    g_ra[3] = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    mt_on_alloc(obj, &mtt::kPlayer, 64);
    asm volatile("" ::: "memory");
}
__attribute__((noinline)) void unwind_level2(void *obj) {
    g_ra[2] = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    unwind_level3(obj);
    asm volatile("" ::: "memory");
}
__attribute__((noinline)) void unwind_level1(void *obj) {
    g_ra[1] = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    unwind_level2(obj);
    asm volatile("" ::: "memory");
}
}

__attribute__((noinline)) std::vector<uint64_t> capture_chain(mt_unwinder u) {
    std::string path = mtt::temp_path("unwind");
    mt_config c = mtt::make_config(path);
    c.unwinder = u;
    mtt::start(c);
    unwind_level1(reinterpret_cast<void *>(0x5000));
    auto run = mtt::stop_and_load(path);
    auto ev = mtt::all_events(run);
    REQUIRE(ev.size() == 1);
    CHECK(((run.header.flags & MT_FILE_FLAG_LIBUNWIND) != 0) == (u == MT_UNWIND_LIBUNWIND));
    return run.stacks.at(ev[0].stack_id).frames;
}

TEST_CASE("frame-pointer unwinder returns the exact call chain", "[unwind]") {
    auto st = capture_chain(MT_UNWIND_FRAME_POINTER);
    REQUIRE(st.size() >= 5);
    CHECK(mtt::symbol_of(st[0]) == "unwind_level3");  // the call site of mt_on_alloc
    CHECK(st[1] == g_ra[3]);                          // into unwind_level2
    CHECK(st[2] == g_ra[2]);                          // into unwind_level1
    CHECK(st[3] == g_ra[1]);                          // into capture_chain
    CHECK(mtt::symbol_of(st[3]).find("capture_chain") != std::string::npos);
    for (uint64_t pc : st) CHECK(mtt::symbol_of(pc).find("mt_") != 0);  // no tracer frame
}

TEST_CASE("libunwind unwinder agrees with the frame-pointer chain", "[unwind]") {
#if !defined(MT_TEST_HAVE_LIBUNWIND)
    mt_config c = mtt::make_config(mtt::temp_path("nolibunwind"));
    c.unwinder = MT_UNWIND_LIBUNWIND;
    CHECK(mt_start(&c) == MT_ERR_UNWINDER);
    CHECK(std::string(mt_last_error()).find("libunwind") != std::string::npos);
    return;
#endif
    auto st = capture_chain(MT_UNWIND_LIBUNWIND);
    REQUIRE(st.size() >= 4);
    CHECK(mtt::symbol_of(st[0]) == "unwind_level3");
    CHECK(st[1] == g_ra[3]);
    CHECK(st[2] == g_ra[2]);
    CHECK(st[3] == g_ra[1]);
}

TEST_CASE("max_stack_depth caps the recorded depth", "[unwind]") {
    std::string path = mtt::temp_path("depth");
    mt_config c = mtt::make_config(path);
    c.max_stack_depth = 5;
    mtt::start(c);
    mtt::alloc_at_depth(40, reinterpret_cast<void *>(0x6000), &mtt::kString, 8);
    auto run = mtt::stop_and_load(path);
    REQUIRE(run.stacks.size() == 1);
    CHECK(run.stacks[0].frames.size() == 5);
    CHECK(run.header.max_stack_depth == 5);
}
