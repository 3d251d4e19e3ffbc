// lifetimes.h — what the DEATHS chunks of a MT_FLAG_LIFETIMES run turn into: deaths per frame
// and class, the live traced bytes at the end of each frame, and the survivors (allocations that
// never died) per (class, stack) with the frame of the oldest one.
//
// Bookkeeping is per (class, stack, allocation frame): allocations add, deaths subtract (a death
// names its allocation frame), so no per-object table is kept. With sampling, allocations are
// the weighted estimates while deaths are the sampled objects themselves, so survivor counts are
// estimates too (clamped at zero).
//
// Per allocating thread too (schema version 2): a DEATHS record carries no thread, so the thread
// of each live traced object is kept by address from its allocation event until its death
// (on_event / death_thread). Without thread splitting every thread is -1 and no address is kept.
#ifndef MEMTRACER_SYM_LIFETIMES_H
#define MEMTRACER_SYM_LIFETIMES_H

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "memtracer/reader.h"

namespace mt::sym {

class Lifetimes {
public:
    void on_alloc(uint32_t class_id, uint32_t stack_id, int64_t thread, uint64_t seq, uint64_t count, uint64_t gc_bytes);
    // A traced object allocated by `thread` in frame `seq`, remembered until its death.
    void on_event(uint64_t address, uint64_t seq, uint32_t thread, uint32_t class_id, uint32_t stack_id);
    // The thread that allocated the object `d` reports (forgotten then); -1 if no event had it
    // (a dropped event, or a run without thread splitting). Counted in unmatched_deaths().
    int64_t death_thread(const mt::reader::Death &d);
    void on_death(const mt::reader::Death &d, int64_t thread);
    uint64_t unmatched_deaths() const { return unmatched_; }
    int64_t live_bytes() const { return live_bytes_; }

    struct Survivor {
        uint32_t class_id, stack_id;
        int64_t thread;
        uint64_t count, gc_bytes, first_seq;
        uint64_t frames;  // allocation frames before `last_gc_seq` with objects alive (leak ranking)
        uint64_t all_frames;  // the same over every thread of (class_id, stack_id)
    };
    // `last_gc_seq`: the last frame in which deaths were found (objects of earlier frames that
    // are still alive survived a collection).
    std::vector<Survivor> survivors(uint64_t last_gc_seq) const;

private:
    struct Key {
        uint32_t class_id, stack_id;
        uint64_t seq;
        int64_t thread;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key &k) const {
            uint64_t h = (static_cast<uint64_t>(k.class_id) << 32 | k.stack_id) * 0x9E3779B97F4A7C15ull;
            return static_cast<size_t>(h ^ (k.seq * 0xC2B2AE3D27D4EB4Full) ^ static_cast<uint64_t>(k.thread) * 0x165667B19E3779F9ull);
        }
    };
    struct Net {
        int64_t count = 0, gc_bytes = 0;
    };
    std::unordered_map<Key, Net, KeyHash> net_;
    int64_t live_bytes_ = 0;
    struct Born {
        uint64_t seq, order;
        uint32_t thread, class_id, stack_id;
    };
    // Live traced objects by address; a multimap: an address freed and reused before the death
    // of its first object is reported holds two, even of one frame. A death takes the oldest of
    // its allocation frame, class and stack (the first object died first), `order` saying which.
    std::unordered_multimap<uint64_t, Born> born_;
    uint64_t unmatched_ = 0, born_count_ = 0;
};

}  // namespace mt::sym

#endif
