// rt_math.h — the little arithmetic the runtime needs without libm: a xorshift PRNG, exponential
// draws for Poisson sampling, and 1 - exp(-x) for sampling weights. The runtime may only link
// libc/libpthread/libdl, and log()/exp() live in libm on several of its targets.
#ifndef MEMTRACER_RT_MATH_H
#define MEMTRACER_RT_MATH_H

#include <stdint.h>
#include <string.h>

namespace mt::rt {

inline uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// xorshift64*: state must be non-zero.
inline uint64_t xorshift_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

// Natural log for x > 0, relative error below 1e-12: x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
// ln m = 2 atanh(z), z = (m-1)/(m+1), |z| < 0.172, series to z^23.
inline double mt_log(double x) {
    uint64_t bits;
    memcpy(&bits, &x, 8);
    int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
    double m;
    memcpy(&m, &bits, 8);
    if (m > 1.4142135623730951) {
        m *= 0.5;
        ++e;
    }
    double z = (m - 1) / (m + 1), z2 = z * z, term = z, sum = 0;
    for (int k = 1; k <= 23; k += 2) {
        sum += term / k;
        term *= z2;
    }
    return 2 * sum + e * 0.6931471805599453;
}

// exp(x) for x <= 0 (what the sampling weight needs); x = k ln2 + r, |r| <= ln2/2, Taylor to r^14.
inline double mt_exp_neg(double x) {
    if (x < -700) return 0;
    int k = static_cast<int>(x / 0.6931471805599453 - 0.5);
    double r = x - k * 0.6931471805599453, term = 1, sum = 1;
    for (int i = 1; i <= 14; ++i) {
        term *= r / i;
        sum += term;
    }
    uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
    double scale;
    memcpy(&scale, &bits, 8);
    return sum * scale;
}

// Probability that an allocation of `size` bytes is sampled at mean interval `interval`:
// 1 - exp(-size/interval), with the series near 0 where the subtraction would cancel.
inline double sample_probability(uint64_t size, uint64_t interval) {
    if (interval == 0) return 1;
    double x = static_cast<double>(size) / static_cast<double>(interval);
    if (x < 1e-4) return x * (1 - x / 2 * (1 - x / 3));
    return 1 - mt_exp_neg(-x);
}

// Exponential draw with the given mean, from 53 uniform bits in (0, 1].
inline double exp_draw(uint64_t *rng, double mean) {
    double u = static_cast<double>((xorshift_next(rng) >> 11) + 1) * (1.0 / 9007199254740992.0);
    return -mean * mt_log(u);
}

}  // namespace mt::rt

#endif  // MEMTRACER_RT_MATH_H
