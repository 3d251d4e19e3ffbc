// Aggregate mode against raw mode on the same deterministic workload, and sampling weights
// (1 / (1 - exp(-size/N))) checked for unbiasedness on a large seeded workload.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <tuple>

#include "support.h"

namespace {

using Key = std::tuple<std::string, std::vector<uint64_t>>;  // class name, stack frames
struct Totals {
    double count = 0, requested = 0, gc = 0;
    uint64_t samples = 0;
};

// One call site per (i % 3) through alloc_at_depth; sizes from a fixed recurrence.
__attribute__((noinline)) void aggregate_workload(int n) {
    mtt::FakeClass *ks[] = {&mtt::kString, &mtt::kPlayer, &mtt::kIntArray};
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t size = 16 + (x % 8192);
        mtt::alloc_at_depth(1 + i % 3, reinterpret_cast<void *>(0x100000 + static_cast<uint64_t>(i) * 16), ks[i % 3], size);
        if (i % 5000 == 4999) mt_frame_end(static_cast<uint64_t>(i));
    }
    asm volatile("" ::: "memory");
}

std::map<Key, Totals> capture(mt_mode mode, uint64_t interval, int n, uint64_t *true_bytes, mt_counters *ctr) {
    std::string path = mtt::temp_path(mode == MT_MODE_AGGREGATE ? "agg" : "raw");
    mt_config c = mtt::make_config(path);
    c.mode = mode;
    c.sample_interval_bytes = interval;
    c.on_full = MT_ON_FULL_BLOCK;
    c.random_seed = 424242;
    c.max_stack_depth = 3;  // the frames inside the workload: the same in every capture
    mtt::start(c);
    aggregate_workload(n);
    auto run = mtt::stop_and_load(path);
    *ctr = mtt::counters();
    CHECK(run.result.clean());
    std::map<Key, Totals> out;
    *true_bytes = 0;
    for (const auto &f : run.frames) {
        for (const auto &e : f.event_list) {
            Totals &t = out[{run.classes.at(e.class_id).name, run.stacks.at(e.stack_id).frames}];
            double p = interval ? 1 - std::exp(-static_cast<double>(e.size) / static_cast<double>(interval)) : 1;
            t.count += 1 / p;
            t.requested += static_cast<double>(e.size) / p;
            t.gc += static_cast<double>(e.gc_size) / p;
            ++t.samples;
        }
        for (const auto &a : f.aggregates) {
            Totals &t = out[{run.classes.at(a.class_id).name, run.stacks.at(a.stack_id).frames}];
            t.count += static_cast<double>(a.count);
            t.requested += static_cast<double>(a.requested_bytes);
            t.gc += static_cast<double>(a.gc_bytes);
            t.samples += a.samples;
        }
    }
    if (mode == MT_MODE_AGGREGATE) CHECK((run.header.flags & MT_FILE_FLAG_AGGREGATE) != 0);
    return out;
}

}  // namespace

TEST_CASE("aggregate mode totals equal raw mode totals for the same workload", "[aggregate]") {
    uint64_t ignored;
    mt_counters cr, ca;
    auto raw = capture(MT_MODE_EVENTS, 0, 30000, &ignored, &cr);
    auto agg = capture(MT_MODE_AGGREGATE, 0, 30000, &ignored, &ca);
    REQUIRE(raw.size() == 3);
    REQUIRE(agg.size() == raw.size());
    for (const auto &[k, t] : raw) {
        REQUIRE(agg.count(k) == 1);
        const Totals &a = agg.at(k);
        CHECK(a.count == t.count);
        CHECK(a.requested == t.requested);
        CHECK(a.gc == t.gc);
        CHECK(a.samples == t.samples);
    }
    CHECK(cr.events_written == 30000);
    CHECK(ca.events_written == 30000);
}

TEST_CASE("sampling: recorded weights estimate the true totals without bias", "[aggregate][sampling]") {
    constexpr int kN = 200000;
    constexpr uint64_t kInterval = 64 * 1024;
    // True totals of the workload (same recurrence as aggregate_workload).
    double true_count = kN, true_bytes = 0, var_bytes = 0, var_count = 0;
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < kN; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double s = static_cast<double>(16 + (x % 8192));
        double p = 1 - std::exp(-s / kInterval);
        true_bytes += s;
        var_bytes += s * s * (1 - p) / p;  // variance of the Horvitz-Thompson estimate
        var_count += (1 - p) / p;
    }
    for (mt_mode mode : {MT_MODE_EVENTS, MT_MODE_AGGREGATE}) {
        INFO("mode " << mode);
        uint64_t ignored;
        mt_counters ctr;
        auto got = capture(mode, kInterval, kN, &ignored, &ctr);
        double est_bytes = 0, est_count = 0;
        uint64_t samples = 0;
        for (const auto &[k, t] : got) {
            est_bytes += t.requested;
            est_count += t.count;
            samples += t.samples;
        }
        CHECK(ctr.allocations_seen == static_cast<uint64_t>(kN));
        CHECK(ctr.events_recorded + ctr.events_sampled_out == static_cast<uint64_t>(kN));
        CHECK(samples == ctr.events_recorded);
        // A small fraction is recorded (about true_bytes / interval allocations).
        CHECK(samples < static_cast<uint64_t>(kN / 4));
        CHECK(std::abs(est_bytes - true_bytes) < 4 * std::sqrt(var_bytes));
        CHECK(std::abs(est_count - true_count) < 4 * std::sqrt(var_count));
    }
}
