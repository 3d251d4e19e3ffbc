// frame_aggs.h — one frame's allocations summed per (class, stack, allocating thread): the
// per-event step of an ingest (120M events in a session-sized run, ~85 keys per frame). An
// open-addressing table with linear probing that keeps its slots between frames and clears only
// the ones a frame used; std::unordered_map's node per key and pointer chase per event were a
// tenth of a whole ingest (docs/benchmarks.md, issue 22's third session).
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

struct AggKeyHash {
    size_t operator()(const AggKey &k) const {
        uint64_t h = (static_cast<uint64_t>(k.class_id) << 32 | k.stack_id) * 0x9E3779B97F4A7C15ull;
        h ^= static_cast<uint64_t>(k.thread) * 0xC2B2AE3D27D4EB4Full;
        return static_cast<size_t>(h ^ h >> 29);
    }
};

// Weighted sums (sampled runs weight each event by 1/p; rounded when written).
struct Agg {
    double count = 0, requested = 0, gc = 0;
};

class FrameAggs {
public:
    FrameAggs() { slots_.resize(kInitial); }

    Agg &operator[](const AggKey &k) {
        size_t mask = slots_.size() - 1;
        for (size_t i = AggKeyHash{}(k) & mask;; i = (i + 1) & mask) {
            Slot &s = slots_[i];
            if (s.used && s.key == k) return s.agg;
            if (!s.used) {
                if ((used_.size() + 1) * 2 > slots_.size()) {
                    grow();
                    return (*this)[k];
                }
                s = Slot{k, Agg{}, true};
                used_.push_back(static_cast<uint32_t>(i));
                return s.agg;
            }
        }
    }

    // The frame's sums in key order (allocs' primary key order), then an empty table.
    template <class Out>
    void drain_sorted(Out &out) {
        out.clear();
        for (uint32_t i : used_) {
            out.emplace_back(slots_[i].key, slots_[i].agg);
            slots_[i].used = false;
        }
        used_.clear();
        std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    }

private:
    static constexpr size_t kInitial = 1024;
    struct Slot {
        AggKey key{};
        Agg agg;
        bool used = false;
    };
    void grow() {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        std::vector<uint32_t> was;
        was.swap(used_);
        for (uint32_t i : was) (*this)[old[i].key] = old[i].agg;
    }

    std::vector<Slot> slots_;
    std::vector<uint32_t> used_;  // slots in use, in first-use order
};

using AggRows = std::vector<std::pair<AggKey, Agg>>;  // a frame's sums, in key order

// A frame with its events summed: all the frame tables need of it. Made on the reading thread
// of an ingest (run_ingest_pipe.cpp), so the 48-byte events never cross threads.
struct FrameDigest {
    mt::reader::Frame frame;  // event_list and aggregates left empty
    uint64_t records = 0;     // the events (aggregate mode: aggregate records) the frame held
    AggRows rows;
};

// The per-event step: sums a frame's events (sampled runs weighted, docs in frame_writer.h).
class FrameDigester {
public:
    FrameDigester(const mt::reader::Header &h, bool split_threads);
    bool split() const { return split_; }
    // Sums f's events into `rows`; `lifetimes` (a lifetimes run, split by thread) also sees each
    // event, in file order.
    void sum(const mt::reader::Frame &f, AggRows &rows, Lifetimes *lifetimes);
    // The whole digest, the frame's other data copied.
    void digest(const mt::reader::Frame &f, FrameDigest &out);

private:
    double sample_interval_;
    bool aggregate_mode_;
    bool split_;
    FrameAggs aggs_;
};

}  // namespace mt::sym

#endif
