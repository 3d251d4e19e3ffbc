// AddressIndex, the address cache's file address -> row map (open addressing): the same answers
// as std::unordered_map over many inserts, repeats and growth, including address 0 and
// addresses that differ only in their high bits.
#include <catch2/catch.hpp>

#include <random>
#include <unordered_map>

#include "address_cache.h"

using mt::sym::AddressIndex;

TEST_CASE("symbolizer: AddressIndex maps each address to the row it was first given", "[cache]") {
    std::mt19937_64 rng(3);
    for (size_t reserve : {size_t(0), size_t(1000), size_t(50000)}) {
        AddressIndex index;
        index.reserve(reserve);
        std::unordered_map<uint64_t, uint32_t> expected;
        std::vector<uint64_t> seen;
        for (uint32_t i = 0; i < 60000; ++i) {
            uint64_t a;
            switch (i % 4) {
            case 0: a = rng() & 0xffffff; break;                                    // dense, small
            case 1: a = (rng() & 0xff) << 48; break;                                // high bits only
            case 2: a = seen.empty() ? 0 : seen[rng() % seen.size()]; break;        // a repeat (0 first)
            default: a = 0x7f0000000000ull + (rng() % 4096) * 16; break;            // aligned, clustered
            }
            auto [row, fresh] = index.try_emplace(a, i);
            auto [it, want_fresh] = expected.try_emplace(a, i);
            REQUIRE(fresh == want_fresh);
            REQUIRE(row == it->second);
            if (fresh) seen.push_back(a);
        }
        CHECK(index.size() == expected.size());
        for (const auto &[a, row] : expected) CHECK(index.try_emplace(a, 0).first == row);
    }
}
