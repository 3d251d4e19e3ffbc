// lifetimes.h — what the DEATHS chunks of a MT_FLAG_LIFETIMES run turn into: deaths per frame
// and class, the live traced bytes at the end of each frame, and the survivors (allocations that
// never died) per (class, stack) with the frame of the oldest one.
//
// Bookkeeping is per (class, stack, allocation frame): allocations add, deaths subtract (a death
// names its allocation frame), so no per-object table is kept. With sampling, allocations are
// the weighted estimates while deaths are the sampled objects themselves, so survivor counts are
// estimates too (clamped at zero).
#ifndef MEMTRACER_SYM_LIFETIMES_H
#define MEMTRACER_SYM_LIFETIMES_H

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "memtracer/reader.h"

namespace mt::sym {

class Lifetimes {
public:
    void on_alloc(uint32_t class_id, uint32_t stack_id, uint64_t seq, uint64_t count, uint64_t gc_bytes);
    void on_death(const mt::reader::Death &d);
    int64_t live_bytes() const { return live_bytes_; }

    struct Survivor {
        uint32_t class_id, stack_id;
        uint64_t count, gc_bytes, first_seq;
        uint64_t frames;  // allocation frames before `last_gc_seq` with objects alive (leak ranking)
    };
    // `last_gc_seq`: the last frame in which deaths were found (objects of earlier frames that
    // are still alive survived a collection).
    std::vector<Survivor> survivors(uint64_t last_gc_seq) const;

private:
    struct Key {
        uint32_t class_id, stack_id;
        uint64_t seq;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key &k) const {
            uint64_t h = (static_cast<uint64_t>(k.class_id) << 32 | k.stack_id) * 0x9E3779B97F4A7C15ull;
            return static_cast<size_t>(h ^ (k.seq * 0xC2B2AE3D27D4EB4Full));
        }
    };
    struct Net {
        int64_t count = 0, gc_bytes = 0;
    };
    std::unordered_map<Key, Net, KeyHash> net_;
    int64_t live_bytes_ = 0;
};

}  // namespace mt::sym

#endif
