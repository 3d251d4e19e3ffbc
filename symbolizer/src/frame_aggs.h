// frame_aggs.h — one frame's allocations summed per (class, stack, allocating thread): the
// per-event step of an ingest (120M events in a session-sized run, ~85 keys per frame). An
// open-addressing table with linear probing that keeps its memory between frames;
// std::unordered_map's node per key and pointer chase per event were a tenth of a whole ingest
// (docs/benchmarks.md, issue 22's third session; the lookup inline since the fourth).
#ifndef MEMTRACER_SYM_FRAME_AGGS_H
#define MEMTRACER_SYM_FRAME_AGGS_H

#include <algorithm>
#include <compare>
#include <cstdint>
#include <vector>

#include "memtracer/reader.h"

namespace mt::sym {

class Lifetimes;

// (class, stack, allocating thread); thread -1: not split. Ordered as allocs' primary key.
struct AggKey {
    uint32_t class_id, stack_id;
    int64_t thread;
    auto operator<=>(const AggKey &) const = default;
};

// The high bits of a multiplicative hash: every bit of class, stack and thread reaches them.
struct AggKeyHash {
    size_t operator()(const AggKey &k) const {
        uint64_t h = (static_cast<uint64_t>(k.class_id) << 32 | k.stack_id) ^ static_cast<uint64_t>(k.thread) * 0xC2B2AE3D27D4EB4Full;
        return static_cast<size_t>((h * 0x9E3779B97F4A7C15ull) >> 32);
    }
};

// Weighted sums (sampled runs weight each event by 1/p; rounded when written).
struct Agg {
    double count = 0, requested = 0, gc = 0;
};
// An unsampled run's sums: every weight is 1, so whole numbers, summed as such (no conversion to
// double per event; the same figures as Agg's below 2^53, and exact above it).
struct ExactAgg {
    uint64_t count = 0, requested = 0, gc = 0;
};

// One allocs row's figures: a frame's sums for a key, rounded to whole allocations and bytes.
struct AllocRow {
    AggKey key;
    uint64_t count = 0, requested = 0, gc = 0;
};
using AllocRows = std::vector<AllocRow>;  // a frame's rows, in key order
void sort_rows(AllocRows &rows);  // into key order

// AggKey -> V: the values in a dense array in first-use order and an open-addressing table (linear
// probing) of 4-byte indexes into it: both stay in L1 while a frame's 48-byte events stream past
// (a table of whole slots missed it). The per-event lookup is inline; growing is not.
template <class V>
class AggTable {
public:
    AggTable() : index_(kInitial, -1) {}

    // The position of k's value in entries(), added (V{}) when k is new.
    uint32_t find_or_add(const AggKey &k) {
        size_t mask = index_.size() - 1;
        for (size_t i = AggKeyHash{}(k) & mask;; i = (i + 1) & mask) {
            int32_t e = index_[i];
            if (e < 0) return add(k, i);
            if (entries_[static_cast<size_t>(e)].first == k) return static_cast<uint32_t>(e);
        }
    }
    V &operator[](const AggKey &k) { return entries_[find_or_add(k)].second; }
    std::vector<std::pair<AggKey, V>> &entries() { return entries_; }
    const std::vector<std::pair<AggKey, V>> &entries() const { return entries_; }
    // Empties the table, keeping its memory.
    void clear() {
        if (entries_.empty()) return;  // index_ is all -1 already (a frame may use the other table)
        entries_.clear();
        std::fill(index_.begin(), index_.end(), -1);
    }

private:
    static constexpr size_t kInitial = 1024;
    [[gnu::noinline]] uint32_t add(const AggKey &k, size_t slot) {
        if ((entries_.size() + 1) * 2 > index_.size()) {
            grow();
            return find_or_add(k);
        }
        index_[slot] = static_cast<int32_t>(entries_.size());
        entries_.emplace_back(k, V{});
        return static_cast<uint32_t>(entries_.size() - 1);
    }
    void grow() {
        index_.assign(index_.size() * 2, -1);
        size_t mask = index_.size() - 1;
        for (size_t e = 0; e < entries_.size(); ++e) {
            size_t i = AggKeyHash{}(entries_[e].first) & mask;
            while (index_[i] >= 0) i = (i + 1) & mask;
            index_[i] = static_cast<int32_t>(e);
        }
    }

    std::vector<int32_t> index_;  // -1: empty, else a position in entries_
    std::vector<std::pair<AggKey, V>> entries_;
};

// One frame's sums, weighted (Agg) or whole (ExactAgg): a frame uses one of the two tables. The
// tables' memory is kept from frame to frame.
class FrameAggs {
public:
    Agg &operator[](const AggKey &k) { return table_[k]; }
    ExactAgg &exact(const AggKey &k) { return exact_[k]; }
    // The frame's sums, rounded, into `out` (in key order, allocs' primary key order, when
    // `sorted`; else in first-use order: sort_rows sorts them); then empty tables.
    void drain(AllocRows &out, bool sorted);

private:
    AggTable<Agg> table_;
    AggTable<ExactAgg> exact_;
};

// A frame with its events summed: all the frame tables need of it. Made on the reading thread
// of an ingest (run_ingest_pipe.cpp), so the 48-byte events never cross threads. The rows are
// not sorted: the database thread sorts them (FrameWriter::add), which evens out the two
// threads' work (docs/benchmarks.md, issue 22 fifth session: the reading thread was the longer).
struct FrameDigest {
    mt::reader::Frame frame;  // event_list and aggregates left empty
    uint64_t records = 0;     // the events (aggregate mode: aggregate records) the frame held
    AllocRows rows;           // in no particular order
};

// The per-event step: sums a frame's events (sampled runs weighted, docs in frame_writer.h).
class FrameDigester {
public:
    FrameDigester(const mt::reader::Header &h, bool split_threads);
    bool split() const { return split_; }
    // Sums f's events into `rows` (in key order unless `sorted` is false); `lifetimes` (a
    // lifetimes run, split by thread) also sees each event, in file order.
    void sum(const mt::reader::Frame &f, AllocRows &rows, Lifetimes *lifetimes, bool sorted = true);
    // The whole digest, the frame's other data copied; its rows unsorted.
    void digest(const mt::reader::Frame &f, FrameDigest &out);

private:
    double sample_interval_;
    bool aggregate_mode_;
    bool split_;
    FrameAggs aggs_;
};

}  // namespace mt::sym

#endif
