// AddressIndex, the address cache's file address -> row map (open addressing): the same answers
// as std::unordered_map over many inserts, repeats and growth, including address 0 and
// addresses that differ only in their high bits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
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

// SortedAddressIndex, the lookup over the rows a warm run loads (sorted by file address): every
// loaded address found at its row, every other address absent, whatever the spread (dense,
// clustered at both ends of the 64-bit range, one row, none).
TEST_CASE("symbolizer: SortedAddressIndex finds each loaded row and nothing else", "[cache]") {
    using mt::sym::CachedAddress;
    using mt::sym::SortedAddressIndex;
    std::mt19937_64 rng(5);
    auto check = [&](std::vector<uint64_t> addresses) {
        std::sort(addresses.begin(), addresses.end());
        addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
        std::vector<CachedAddress> rows;
        for (uint64_t a : addresses) rows.push_back(CachedAddress{.file_address = a});
        rows.push_back(CachedAddress{.file_address = 42});  // a row new in this run: past the loaded ones
        SortedAddressIndex index;
        index.build(rows, addresses.size());
        for (size_t i = 0; i < addresses.size(); ++i) REQUIRE(index.find(rows, addresses[i]) == i);
        std::set<uint64_t> known(addresses.begin(), addresses.end());
        for (int k = 0; k < 20000; ++k) {
            uint64_t probe = k % 2 ? rng() : (addresses.empty() ? rng() : addresses[rng() % addresses.size()] + 1 + rng() % 3);
            if (!known.contains(probe)) REQUIRE(index.find(rows, probe) == SortedAddressIndex::kAbsent);
        }
    };
    std::vector<uint64_t> dense, clustered, one = {0x1234}, none;
    for (int i = 0; i < 50000; ++i) dense.push_back(0x400000 + (rng() % 0x2000000) * 4);
    for (int i = 0; i < 30000; ++i) clustered.push_back(i % 3 ? rng() % 64 : UINT64_MAX - rng() % 100000);
    clustered.push_back(0);
    clustered.push_back(UINT64_MAX);
    check(dense);
    check(clustered);
    check(one);
    check(none);
}
