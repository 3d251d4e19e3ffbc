// event_encode.h — one EVENTS entry (EventRecord) and its version 4 encoding (format.h
// MT_EVENT_FIELDS, event_predict.h): a flags byte says which fields the chunk's earlier entries
// (and the stack's STACKS entry) predict exactly, and those are left out. Inline, so that the
// runtime's writer thread, which encodes one entry per traced allocation, pays no call and builds
// no record in memory (docs/benchmarks.md, issue 22 third session, has the figures). Included by
// trace_writer.h; use ListEncoder::add(const EventRecord &).
#ifndef MEMTRACER_EVENT_ENCODE_H
#define MEMTRACER_EVENT_ENCODE_H

#include <stdint.h>

#include "memtracer/buf.h"
#include "memtracer/codec.h"
#include "memtracer/event_predict.h"
#include "memtracer/format.h"

// Forces the inlining the hot path needs (GCC and Clang; other compilers get a plain inline).
#if defined(__GNUC__) || defined(__clang__)
#define MT_EVENT_INLINE __attribute__((always_inline)) inline
#else
#define MT_EVENT_INLINE inline
#endif

namespace mt::trace {

struct EventRecord {
    uint32_t thread;
    uint64_t tick;  // absolute
    uint32_t class_id, stack_id;
    uint64_t size, gc_size, address;
    // The shape written in this stack's STACKS entry, when the caller knows it (the runtime's
    // writer does): lets the first event of a stack in a chunk leave its class and sizes out too.
    // A pointer, read only when the chunk has no event of this stack yet (not copied per event).
    const codec::EventShape *stack_shape = nullptr;
};

// The previous entry's values of the DELTA fields (format.h), named as those fields.
struct EventDeltas {
    uint64_t tick = 0, address = 0;
};

namespace event_encode {

// A varint (codec::put_varint's bytes), with the one- and two-byte cases (most fields of most
// entries; dt is often two) as plain stores.
inline uint8_t *put_v(uint8_t *p, uint64_t v) {
    if (v < 0x80) {
        *p = static_cast<uint8_t>(v);
        return p + 1;
    }
    if (v < 0x4000) {
        p[0] = static_cast<uint8_t>(v) | 0x80;
        p[1] = static_cast<uint8_t>(v >> 7);
        return p + 2;
    }
    return p + codec::put_varint(p, v);
}

// Each field of MT_EVENT_FIELDS sets its flag when the prediction holds and writes itself
// otherwise, in the format's order; the flags byte (the first field, always one byte: every flag
// is below 0x80) is filled in at the end.
static_assert(MT_EVENT_FLAGS_ALL < 0x80, "the flags of an EVENTS entry fit one varint byte");
#define MT_EV_FLAGS(m) uint8_t *flags_at = o++;
#define MT_EV_THREAD_NEW(m)                                           \
    if (p.thread_plus1 == static_cast<uint64_t>(r.m) + 1) flags |= MT_EVENT_SAME_THREAD; \
    else o = put_v(o, r.m);
#define MT_EV_DELTA(m)                                                     \
    o = put_v(o, codec::zigzag(static_cast<int64_t>(r.m - prev.m))); \
    prev.m = r.m;
#define MT_EV_STACK_NEW(m)                                   \
    if (stack_pred1 == stack1) flags |= MT_EVENT_STACK_PREDICTED; \
    else o = put_v(o, r.m);
#define MT_EV_CLASS_NEW(m)                                                  \
    if (shape && shape->class_id == r.m) flags |= MT_EVENT_SAME_CLASS; \
    else o = put_v(o, r.m);
#define MT_EV_U_NEW(m)                                                                             \
    if (shape && shape->size == r.m && shape->gc_size == r.gc_size) flags |= MT_EVENT_SAME_SIZE; \
    else {                                                                                          \
        o = put_v(o, r.m);                                                                          \
        if (r.gc_size == r.size) flags |= MT_EVENT_NO_GC_EXTRA;                                     \
    }
#define MT_EV_GC_EXTRA_NEW(m) \
    if (!(flags & (MT_EVENT_SAME_SIZE | MT_EVENT_NO_GC_EXTRA))) o = put_v(o, codec::zigzag(static_cast<int64_t>(r.m - r.size)));
#define MT_EV_ADDR(m)                                                               \
    if (addr_known && addr_base == r.m) flags |= MT_EVENT_ADDR_PREDICTED;         \
    else o = put_v(o, codec::zigzag(static_cast<int64_t>(r.m - addr_base))); \
    prev.m = r.m;
#define MT_EV_FIELD(kind, m, label) MT_EV_##kind(m)

// One pass: each prediction slot is found once, read for the flags and then updated as
// EventPredict::learn() does (the decoder calls learn(); both leave the same state).
MT_EVENT_INLINE void encode_event(Buf &buf, const EventRecord &r, EventDeltas &prev, codec::EventPredict &p) {
    uint8_t *w = buf.reserve(MT_FIELD_COUNT(MT_EVENT_FIELDS) * codec::kMaxVarint);
    if (!w) return;
    const uint64_t stack1 = static_cast<uint64_t>(r.stack_id) + 1;
    codec::EventPredict::ShapeSlot &prev_slot = p.prev_slot();
    const uint64_t stack_pred1 = p.predict_stack_plus1(prev_slot);
    // The shape SAME_CLASS/SAME_SIZE predict: this stack's last event in the chunk, else the
    // stack's STACKS entry.
    codec::EventPredict::ShapeSlot &slot = p.shape[r.stack_id % MT_EVENT_SHAPE_SLOTS];
    const bool owned = slot.stack_plus1 == stack1;  // kept in a register across the field writes
    const codec::EventShape *shape = owned ? &slot.shape : r.stack_shape;
    // An unpredicted address is written against the prediction where there is one (a free list
    // that skipped a live object lands a few objects off it), else against the previous address.
    codec::EventPredict::AddrSlot &a = p.addr_of(r.thread, r.gc_size);
    const bool addr_known = a.thread_plus1 == static_cast<uint64_t>(r.thread) + 1 && a.gc_size == r.gc_size;
    const uint64_t addr_base = addr_known ? a.address + a.stride : prev.address;
    uint32_t flags = 0;
    uint8_t *o = w;
    MT_EVENT_FIELDS(MT_EV_FIELD)
    *flags_at = static_cast<uint8_t>(flags);
    buf.commit(static_cast<size_t>(o - w));
    p.thread_plus1 = static_cast<uint64_t>(r.thread) + 1;
    p.stack_plus1 = stack1;
    codec::EventPredict::learn_stack(prev_slot, slot, owned, stack1, codec::EventShape{r.class_id, r.size, r.gc_size});
    codec::EventPredict::learn_addr(a, r.thread, r.gc_size, r.address);
}

#undef MT_EV_FLAGS
#undef MT_EV_THREAD_NEW
#undef MT_EV_DELTA
#undef MT_EV_STACK_NEW
#undef MT_EV_CLASS_NEW
#undef MT_EV_U_NEW
#undef MT_EV_GC_EXTRA_NEW
#undef MT_EV_ADDR
#undef MT_EV_FIELD

}  // namespace event_encode

}  // namespace mt::trace

#endif
