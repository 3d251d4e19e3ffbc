// py_random.h — Python's random.Random, draw for draw (CPython's _randommodule.c and random.py):
// MT19937 seeded by init_by_array from the seed's 32-bit words, random() from two draws (53
// bits), getrandbits(k <= 32), _randbelow and sample(). The fixture's numbers were first drawn by
// a Python generator and the tests' literal figures come from them; keeping the same stream
// keeps those figures true.
#ifndef MT_TESTS_PY_RANDOM_H
#define MT_TESTS_PY_RANDOM_H

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

namespace mt::fixture {

class PyRandom {
public:
    explicit PyRandom(uint32_t seed) {
        uint32_t key[1] = {seed};  // a seed below 2**32 is one word
        init_by_array(key, 1);
    }

    uint32_t genrand() {
        constexpr uint32_t kMatrixA = 0x9908b0dfU, kUpper = 0x80000000U, kLower = 0x7fffffffU;
        constexpr int kM = 397;
        static constexpr uint32_t mag01[2] = {0, kMatrixA};
        if (mti_ >= kN) {
            int kk = 0;
            uint32_t y;
            for (; kk < kN - kM; ++kk) {
                y = (mt_[kk] & kUpper) | (mt_[kk + 1] & kLower);
                mt_[kk] = mt_[kk + kM] ^ (y >> 1) ^ mag01[y & 1];
            }
            for (; kk < kN - 1; ++kk) {
                y = (mt_[kk] & kUpper) | (mt_[kk + 1] & kLower);
                mt_[kk] = mt_[kk + (kM - kN)] ^ (y >> 1) ^ mag01[y & 1];
            }
            y = (mt_[kN - 1] & kUpper) | (mt_[0] & kLower);
            mt_[kN - 1] = mt_[kM - 1] ^ (y >> 1) ^ mag01[y & 1];
            mti_ = 0;
        }
        uint32_t y = mt_[mti_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        return y;
    }

    double random() {
        uint32_t a = genrand() >> 5, b = genrand() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }
    double uniform(double a, double b) { return a + (b - a) * random(); }
    uint32_t getrandbits(int k) { return genrand() >> (32 - k); }  // 0 < k <= 32
    uint32_t randbelow(uint32_t n) {
        int k = std::bit_width(n);
        uint32_t r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return r;
    }
    // random.sample(population, k): indexes into a population of n, in the order drawn.
    std::vector<size_t> sample(size_t n, size_t k) {
        std::vector<size_t> out(k);
        size_t setsize = 21;
        if (k > 5) setsize += static_cast<size_t>(std::pow(4.0, std::ceil(std::log(static_cast<double>(k * 3)) / std::log(4.0))));
        if (n <= setsize) {
            std::vector<size_t> pool(n);
            for (size_t i = 0; i < n; ++i) pool[i] = i;
            for (size_t i = 0; i < k; ++i) {
                size_t j = randbelow(static_cast<uint32_t>(n - i));
                out[i] = pool[j];
                pool[j] = pool[n - i - 1];
            }
            return out;
        }
        std::set<size_t> selected;
        for (size_t i = 0; i < k; ++i) {
            size_t j = randbelow(static_cast<uint32_t>(n));
            while (selected.count(j)) j = randbelow(static_cast<uint32_t>(n));
            selected.insert(j);
            out[i] = j;
        }
        return out;
    }

private:
    static constexpr int kN = 624;
    std::array<uint32_t, kN> mt_{};
    int mti_ = kN + 1;

    void init_genrand(uint32_t s) {
        mt_[0] = s;
        for (int i = 1; i < kN; ++i) mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
        mti_ = kN;
    }
    void init_by_array(const uint32_t *key, size_t len) {
        init_genrand(19650218U);
        size_t i = 1, j = 0;
        for (size_t k = (kN > len ? kN : len); k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
            ++i, ++j;
            if (i >= kN) mt_[0] = mt_[kN - 1], i = 1;
            if (j >= len) j = 0;
        }
        for (size_t k = kN - 1; k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
            ++i;
            if (i >= kN) mt_[0] = mt_[kN - 1], i = 1;
        }
        mt_[0] = 0x80000000U;
    }
};

}  // namespace mt::fixture

#endif
