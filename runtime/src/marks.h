// marks.h — mt_mark's queue: a fixed lock-free multi-producer queue of labels, drained by the
// writer into the frame each mark was called in. Internal to the runtime.
#ifndef MEMTRACER_RT_MARKS_H
#define MEMTRACER_RT_MARKS_H

#include <stdint.h>

#include "memtracer/memtracer.h"

namespace mt::rt {

struct PendingMark {
    uint64_t gen;    // capture the mark was called in (a stale one is dropped by the next writer)
    uint64_t epoch;  // frame open at the call
    uint64_t tick;
    uint32_t len;
    char label[MT_MAX_MARK_LABEL + 1];
};

// Writer: takes up to `max` marks in call order; returns how many. Stops at a mark whose producer
// is still copying it (taken at the next drain).
uint32_t marks_pop(PendingMark *out, uint32_t max);
bool marks_queued();  // writer: a mark is ready to pop

// Bytes of `label` mt_mark keeps: at most MT_MAX_MARK_LABEL, cut back to a UTF-8 character start.
uint32_t mark_label_len(const char *label);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_MARKS_H
