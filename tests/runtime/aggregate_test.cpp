// Aggregate mode against raw mode on the same deterministic workload, and sampling weights
// (1 / (1 - exp(-size/N))) checked for unbiasedness on a large seeded workload.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

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

namespace {

// Runs of one call site (5 allocations each) and a frame end every 31 allocations, 400 frames:
// runs cross frame ends, and the writer's 256 frame slots are each used again. The writer answers
// a repeated (class, stack) from the frame's last aggregate entry (issue 22, fifth session), which
// must start afresh with every frame the slot holds (in 116 of the 144 reused slots the last
// call site of the slot's earlier frame is the first of its new one).
__attribute__((noinline)) void run_workload(int n) {
    mtt::FakeClass *ks[] = {&mtt::kString, &mtt::kPlayer, &mtt::kIntArray};
    for (int i = 0; i < n; ++i) {
        int site = (i / 5) % 3;
        mtt::alloc_at_depth(1 + site, reinterpret_cast<void *>(0x200000 + static_cast<uint64_t>(i) * 16), ks[site],
                            static_cast<size_t>(16 + i % 97));
        if (i % 31 == 30) {
            mt_frame_end(static_cast<uint64_t>(i));
            // Every 40 frame ends, wait for the writer to commit all but a few: the frame-end
            // queue (64) never fills, so no frame ends are merged and every one of the 400
            // frames is committed on its own, whatever the machine's load. The bound (two
            // minutes) only turns a writer that stopped committing into a clear failure.
            uint64_t ends = static_cast<uint64_t>(i / 31 + 1);
            if (ends % 40 == 0) {
                for (int tries = 0; tries < 240000 && mtt::counters().frames_written + 8 < ends; ++tries) usleep(500);
                INFO("frame ends " << ends << ", frames written " << mtt::counters().frames_written);
                REQUIRE(mtt::counters().frames_written + 8 >= ends);
            }
        }
    }
    asm volatile("" ::: "memory");
}

// run_workload(12400) in a blocking capture of `mode`: 400 frame ends and the final frame.
auto run_400_frames(const char *name, mt_mode mode) {
    std::string path = mtt::temp_path(name);
    mt_config c = mtt::make_config(path);
    c.mode = mode;
    c.on_full = MT_ON_FULL_BLOCK;
    c.max_stack_depth = 3;
    c.drain_interval_us = 200;
    mtt::start(c);
    run_workload(12400);
    auto run = mtt::stop_and_load(path);
    CHECK(run.result.clean());
    REQUIRE(run.frames.size() == 401);  // 400 frame ends and the final frame
    return run;
}

}  // namespace

// Each frame's aggregates against the same frame's FRAME totals (counted apart from the
// aggregate entries): independent of how the writer's timing merges frame ends.
TEST_CASE("aggregate mode: runs of one call site across frame ends add up to each frame's totals", "[aggregate]") {
    auto run = run_400_frames("aggrun", MT_MODE_AGGREGATE);
    uint64_t samples = 0;
    for (const auto &f : run.frames) {
        uint64_t count = 0, requested = 0, gc = 0;
        for (const auto &a : f.aggregates) {
            count += a.count;
            requested += a.requested_bytes;
            gc += a.gc_bytes;
            samples += a.samples;
        }
        INFO("frame " << f.seq);
        CHECK(count == f.events);
        CHECK(requested == f.requested_bytes);
        CHECK(gc == f.gc_bytes);
    }
    CHECK(samples == 12400);
}

// Events mode over 400 frames: the writer's 256 frame objects are a pool handed out most recently
// committed first (issue 22, ninth session), so frames reuse objects out of seq order while a few
// frames wait ended and uncommitted. Each frame must hold exactly its own allocations, in order,
// with its own totals: a staging list or prediction state carried from another frame would show
// here (the EVENTS entries predict from the frame's earlier ones).
TEST_CASE("events mode: 400 frames through reused frame objects each hold exactly their own allocations", "[capture]") {
    auto run = run_400_frames("evreuse", MT_MODE_EVENTS);
    uint64_t i = 0;
    for (const auto &f : run.frames) {
        INFO("frame " << f.seq);
        CHECK(f.events == f.event_list.size());
        CHECK(f.event_list.size() == (f.seq < 400 ? 31u : 0u));  // a frame end after every 31st allocation
        uint64_t requested = 0;
        for (const auto &e : f.event_list) {
            CHECK(e.address == 0x200000 + i * 16);
            CHECK(e.size == 16 + i % 97);
            requested += e.size;
            ++i;
        }
        CHECK(requested == f.requested_bytes);
    }
    CHECK(i == 12400);
}

namespace {

// A call site per id: kSiteLevels noinline levels, each calling one of two functions by the id's
// bit there, so ids below 2^kSiteLevels are distinct frame-pointer stacks.
constexpr int kSiteLevels = 10;
void site_level1(int d, unsigned id, void *obj, mtt::FakeClass *k, size_t size);
__attribute__((noinline)) void site_level0(int d, unsigned id, void *obj, mtt::FakeClass *k, size_t size) {
    if (d == kSiteLevels) mt_on_alloc(obj, k, size);
    else if ((id >> d) & 1) site_level1(d + 1, id, obj, k, size);
    else site_level0(d + 1, id, obj, k, size);
    asm volatile("" ::: "memory");
}
__attribute__((noinline)) void site_level1(int d, unsigned id, void *obj, mtt::FakeClass *k, size_t size) {
    if (d == kSiteLevels) mt_on_alloc(obj, k, size);
    else if ((id >> d) & 1) site_level1(d + 1, id, obj, k, size);
    else site_level0(d + 1, id, obj, k, size);
    asm volatile("" ::: "memory");
}

}  // namespace

// The writer answers a record's class and stack from small direct-mapped caches before its hash
// tables (issue 22, tenth session): with more classes (700) and call sites (700) than cache
// entries (256 and 512), interleaved at random as a game's threads interleave them, every event
// must still carry its own class and stack: a stale or colliding entry would show as an event
// under another class's name or a call site whose id maps to two stacks.
TEST_CASE("events mode: 700 classes and 700 call sites interleaved keep each event's class and stack", "[capture]") {
    constexpr unsigned kKinds = 700, kAllocs = 30000;
    std::vector<std::string> names(kKinds);
    std::vector<mtt::FakeClass> classes(kKinds);
    for (unsigned i = 0; i < kKinds; ++i) {
        names[i] = "Kind" + std::to_string(i);
        classes[i] = mtt::FakeClass{names[i].c_str(), "Test", false, 0, 0};
    }
    std::string path = mtt::temp_path("manykinds");
    mt_config c = mtt::make_config(path);
    c.mode = MT_MODE_EVENTS;
    c.on_full = MT_ON_FULL_BLOCK;
    c.max_stack_depth = kSiteLevels + 1;  // the chain and its caller: the same in every run
    mtt::start(c);
    std::vector<std::pair<unsigned, unsigned>> want;  // (class, site) of each allocation
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (unsigned i = 0; i < kAllocs; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // Runs of a few events of one class or site now and then, as a game's loops make them.
        const unsigned k = (x & 3) ? static_cast<unsigned>(x >> 8) % kKinds : (want.empty() ? 0 : want.back().first);
        const unsigned s = (x & 12) ? static_cast<unsigned>(x >> 32) % kKinds : (want.empty() ? 0 : want.back().second);
        want.emplace_back(k, s);
        site_level0(0, s, reinterpret_cast<void *>(0x400000 + uint64_t{i} * 16), &classes[k], 16 + i % 97);
        if (i % 3000 == 2999) mt_frame_end(i);
    }
    auto run = mtt::stop_and_load(path);
    CHECK(run.result.clean());
    std::map<unsigned, uint32_t> stack_of_site;
    std::map<uint32_t, unsigned> site_of_stack;
    size_t i = 0;
    for (const auto &f : run.frames) {
        for (const auto &e : f.event_list) {
            REQUIRE(i < want.size());
            INFO("allocation " << i);
            REQUIRE(e.class_id < run.classes.size());
            CHECK(run.classes[e.class_id].name == names[want[i].first]);
            CHECK(stack_of_site.emplace(want[i].second, e.stack_id).first->second == e.stack_id);
            CHECK(site_of_stack.emplace(e.stack_id, want[i].second).first->second == want[i].second);
            CHECK(e.address == 0x400000 + i * 16);
            ++i;
        }
    }
    CHECK(i == kAllocs);
    CHECK(stack_of_site.size() == kKinds);
    CHECK(run.classes.size() == kKinds);
}
