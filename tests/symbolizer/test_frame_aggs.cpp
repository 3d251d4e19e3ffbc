// A frame's events summed per (class, stack, thread) (frame_aggs.h): the rows must be exactly
// what a plain ordered map summing in file order gives, rounded the same way, for unsampled and
// sampled (weighted, non-integer) runs, split per thread and not, through the table's growth.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>

#include "frame_aggs.h"
#include "memtracer/format.h"

using mt::sym::AggKey;
using mt::sym::AggTable;
using mt::sym::AllocRows;
using mt::sym::FrameDigester;

namespace {

mt::reader::Frame random_frame(uint32_t keys, size_t events, uint32_t seed) {
    std::mt19937 rng(seed);
    mt::reader::Frame f;
    f.seq = 7;
    for (size_t i = 0; i < events; ++i) {
        uint32_t k = rng() % keys;
        mt::reader::Event e;
        e.class_id = k % 37;
        e.stack_id = k / 37;
        e.thread = rng() % 5;
        e.size = 16 + rng() % 5000;
        e.gc_size = (e.size + 15) & ~15ull;
        e.address = 0x10000 + i * 64;
        f.event_list.push_back(e);
    }
    return f;
}

// The definition: a sum per key in file order (each event weighted 1/p when sampled), rounded.
AllocRows reference(const mt::reader::Frame &f, double interval, bool split) {
    struct Sum {
        double count = 0, requested = 0, gc = 0;
    };
    std::map<AggKey, Sum> sums;
    for (const auto &e : f.event_list) {
        double w = 1;
        if (interval > 0) {
            double p = -std::expm1(-static_cast<double>(e.size) / interval);
            w = p > 0 ? 1 / p : 1;
        }
        Sum &s = sums[AggKey{e.class_id, e.stack_id, split ? static_cast<int64_t>(e.thread) : -1}];
        s.count += w;
        s.requested += w * static_cast<double>(e.size);
        s.gc += w * static_cast<double>(e.gc_size);
    }
    auto r = [](double v) { return v <= 0 ? uint64_t{0} : static_cast<uint64_t>(std::llround(v)); };
    AllocRows rows;
    for (const auto &[k, s] : sums) rows.push_back({k, r(s.count), r(s.requested), r(s.gc)});
    return rows;
}

bool same(const AllocRows &a, const AllocRows &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!(a[i].key == b[i].key) || a[i].count != b[i].count || a[i].requested != b[i].requested || a[i].gc != b[i].gc)
            return false;
    return true;
}

}  // namespace

TEST_CASE("symbolizer: a frame's sums equal a per-key sum in file order - sampled or not, split or not", "[ingest][frame_aggs]") {
    for (uint64_t interval : {uint64_t{0}, uint64_t{4096}})
        for (bool split : {true, false}) {
            mt::reader::Header h;
            h.sample_interval_bytes = interval;
            FrameDigester dig(h, split);
            // 3000 keys: several times the table's first size (it grows mid-frame); then a small
            // frame on the same digester (the table is emptied between frames).
            for (auto [keys, events, seed] : {std::tuple{3000u, size_t{40000}, 1u}, std::tuple{20u, size_t{500}, 2u}}) {
                mt::reader::Frame f = random_frame(keys, events, seed);
                AllocRows rows;
                dig.sum(f, rows, nullptr);
                INFO("interval " << interval << ", split " << split << ", keys " << keys);
                CHECK(same(rows, reference(f, static_cast<double>(interval), split)));
            }
        }
}

TEST_CASE("symbolizer: AggTable keeps each key's value at the position it was first given", "[ingest][frame_aggs]") {
    AggTable<int> t;
    for (uint32_t i = 0; i < 5000; ++i) {
        AggKey k{i % 13, i, static_cast<int64_t>(i % 3) - 1};
        CHECK(t.find_or_add(k) == i);  // new: the next position
        t[k] = static_cast<int>(i);
    }
    for (uint32_t i = 0; i < 5000; ++i) CHECK(t.entries()[t.find_or_add(AggKey{i % 13, i, static_cast<int64_t>(i % 3) - 1})].second == static_cast<int>(i));
    CHECK(t.entries().size() == 5000);
    t.clear();
    CHECK(t.entries().empty());
    CHECK(t.find_or_add(AggKey{1, 2, 3}) == 0);
}

// An unsampled run's sums are whole numbers and summed as such: exact where a double is not
// (past 2^53 a double drops the odd unit). Fails with the sums kept in doubles.
TEST_CASE("symbolizer: an unsampled frame's sums are exact integers, past 2^53 too", "[ingest][frame_aggs]") {
    mt::reader::Header h;  // sample_interval_bytes 0: every event counts once
    FrameDigester dig(h, false);
    mt::reader::Frame f;
    mt::reader::Event big;
    big.size = big.gc_size = uint64_t{1} << 53;
    mt::reader::Event one = big;
    one.size = one.gc_size = 1;
    f.event_list = {big, one, one};
    AllocRows rows;
    dig.sum(f, rows, nullptr);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].count == 3);
    CHECK(rows[0].requested == (uint64_t{1} << 53) + 2);
    CHECK(rows[0].gc == (uint64_t{1} << 53) + 2);
}

// The pipelined ingest's digest leaves the rows unsorted (the database thread sorts them): once
// sorted they are exactly sum()'s rows, sampled or not.
TEST_CASE("symbolizer: a digest's rows, sorted, are the frame's sums in key order", "[ingest][frame_aggs]") {
    for (uint64_t interval : {uint64_t{0}, uint64_t{4096}}) {
        mt::reader::Header h;
        h.sample_interval_bytes = interval;
        FrameDigester a(h, true), b(h, true);
        mt::reader::Frame f = random_frame(3000, 40000, 3);
        AllocRows sorted;
        a.sum(f, sorted, nullptr);
        mt::sym::FrameDigest d;
        b.digest(f, d);
        CHECK(d.records == f.event_list.size());
        mt::sym::sort_rows(d.rows);
        CHECK(same(d.rows, sorted));
    }
}
