// compare.h — two runs side by side per class or per allocation site, normalized per frame so
// runs of different lengths compare; and the CI gate over the same numbers (gate.cpp).
#ifndef MEMTRACER_REPORT_COMPARE_H
#define MEMTRACER_REPORT_COMPARE_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "commands.h"

namespace mt::report {

struct Sums {
    int64_t count = 0, requested_bytes = 0, gc_bytes = 0;
};

// One run's totals per class (by full name) or per site (function and file: a site's line moves
// between builds, so two sites of one function in one file are one row), over q's frame range.
struct Side {
    std::string label;
    int64_t frames = 0;  // game frames in the range (merged frames count each): the per-frame denominator
    Sums total;
    std::map<std::string, Sums> groups;
};
Side load_side(Source &s, const Query &q);

enum class Metric { BytesPerFrame, GcBytesPerFrame, AllocsPerFrame };
const std::vector<std::pair<std::string, Metric>> &metric_names();
double per_frame(const Side &s, const Sums &v, Metric m);
// Relative change new/base - 1 as a percentage; +inf when base is 0 and new is not.
double change_pct(double base, double now);

Table compare(Source &a, Source &b, const Query &q);

struct GateLimits {
    std::vector<std::pair<Metric, double>> max_growth_pct;  // in the order given
};
// "bytes_per_frame=5%,allocs_per_frame=10%"; throws std::invalid_argument naming the bad part.
GateLimits parse_limits(const std::string &spec);

struct GateResult {
    Table table;
    bool failed = false;
};
// A group is over its limit when it grew by more than the limit and by at least `min_share`
// percent of the base run's total in that metric (so a class going from 1 to 2 objects is not
// a regression); the run's total is over when it grew by more than the limit.
GateResult gate(Source &base, Source &now, const Query &q, const GateLimits &limits, double min_share_pct);
GateResult gate_sides(const Side &base, const Side &now, const Query &q, const GateLimits &limits, double min_share_pct);

}  // namespace mt::report

#endif
