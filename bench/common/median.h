// median.h — the statistic every benchmark under bench/ prints: the middle of its repetitions
// (robust to the outliers a loaded machine produces). Header-only: each benchmark is one binary.
#ifndef MEMTRACER_BENCH_MEDIAN_H
#define MEMTRACER_BENCH_MEDIAN_H

#include <algorithm>
#include <vector>

namespace mt::bench {

// The middle element, the upper one of the two for an even count; `v` must not be empty.
// (bench/symbolizer/bench_util.h has the averaging median its figures were first made with.)
inline double upper_median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace mt::bench

#endif
