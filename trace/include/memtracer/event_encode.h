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

// A varint (codec::put_varint's bytes), with the one- to three-byte cases (most fields of most
// entries; dt is two or three) as plain stores.
MT_EVENT_INLINE uint8_t *put_v(uint8_t *p, uint64_t v) {
    if (v < 0x80) {
        *p = static_cast<uint8_t>(v);
        return p + 1;
    }
    if (v < 0x4000) {
        p[0] = static_cast<uint8_t>(v) | 0x80;
        p[1] = static_cast<uint8_t>(v >> 7);
        return p + 2;
    }
    if (v < 0x200000) {
        p[0] = static_cast<uint8_t>(v) | 0x80;
        p[1] = static_cast<uint8_t>(v >> 7) | 0x80;
        p[2] = static_cast<uint8_t>(v >> 14);
        return p + 3;
    }
    return p + codec::put_varint(p, v);
}

static_assert(MT_EVENT_FLAGS_ALL < 0x80, "the flags of an EVENTS entry fit one varint byte");

// The most bytes one entry takes: every field a full varint.
constexpr size_t kMaxEventBytes = MT_FIELD_COUNT(MT_EVENT_FIELDS) * codec::kMaxVarint;

// One entry, MT_EVENT_FIELDS in the format's order (format.h: FLAGS, THREAD_NEW, DELTA tick,
// STACK_NEW, CLASS_NEW, U_NEW size, GC_EXTRA_NEW, ADDR; a static_assert below pins the table).
// Written in three steps so that every value stays in a register (issue 22, seventh session):
// first every prediction is read and compared (loads only), then the prediction state learns
// the entry as EventPredict::learn() does (the decoder calls learn(); both leave the same state),
// then the bytes are written. A byte store may alias anything, so a load after one is a reload;
// here none follows. stack_shape() gives the stack's STACKS shape (or nullptr) and is called
// only when the chunk has no event of this stack in its slot.
template <class StackShape>
MT_EVENT_INLINE void encode_event(Buf &buf, const EventRecord &r, EventDeltas &prev, codec::EventPredict &p,
                                  StackShape &&stack_shape) {
    uint8_t *w = buf.room(kMaxEventBytes);
    if (__builtin_expect(!w, 0)) {
        w = buf.reserve(kMaxEventBytes);  // grows, or the buffer has failed
        if (!w) return;
    }
    using Slot = codec::EventPredict::ShapeSlot;
    const uint64_t thread1 = static_cast<uint64_t>(r.thread) + 1;
    const uint64_t stack1 = static_cast<uint64_t>(r.stack_id) + 1;
    // STACK_PREDICTED: the previous event's stack's successor, else that stack (event_predict.h).
    const uint64_t last_stack1 = p.stack_plus1;
    Slot &prev_slot = p.shape[(last_stack1 - 1) % MT_EVENT_SHAPE_SLOTS];
    const uint64_t succ1 = prev_slot.next_plus1;
    const bool stack_predicted = (succ1 ? succ1 : last_stack1) == stack1;
    // SAME_CLASS / SAME_SIZE: this stack's last event in the chunk, else its STACKS entry.
    Slot &slot = p.shape[r.stack_id % MT_EVENT_SHAPE_SLOTS];
    const bool owned = slot.stack_plus1 == stack1;
    const codec::EventShape *shape = owned ? &slot.shape : stack_shape();
    const bool same_class = shape && shape->class_id == r.class_id;
    const bool same_size = shape && shape->size == r.size && shape->gc_size == r.gc_size;
    // ADDR: against the slot's prediction where it holds this thread and GC size, else against
    // the previous address (a free list that skipped a live object lands a few objects off it).
    codec::EventPredict::AddrSlot &a = p.addr_of(r.thread, r.gc_size);
    const bool addr_known = a.thread_plus1 == thread1 && a.gc_size == r.gc_size;
    const uint64_t a_address = a.address, a_step = a.step;
    const uint64_t addr_base = addr_known ? a_address + a.stride : prev.address;
    const bool same_thread = p.thread_plus1 == thread1;
    const uint64_t dt = codec::zigzag(static_cast<int64_t>(r.tick - prev.tick));

    // Learn (the order of learn_stack: the two slots may be one).
    p.thread_plus1 = thread1;
    p.stack_plus1 = stack1;
    prev_slot.next_plus1 = stack1;
    if (!owned) {
        slot.next_plus1 = 0;
        slot.stack_plus1 = stack1;
    }
    slot.shape = codec::EventShape{r.class_id, r.size, r.gc_size};  // unconditional: cheaper than the test
    if (addr_known) {
        // The same step twice is the free list's stride (EventPredict::learn_addr). As a mask,
        // not a branch: in a game's allocations whether the step repeats is close to a coin
        // flip that no history predicts (0.39 of valgrind's 1.8 mispredictions per record in the
        // writer on a replayed capture; natively 0.93x the encoder's time on that stream, the
        // benchmark's periodic one unchanged: docs/benchmarks.md, issue 22 tenth session).
        const uint64_t step = r.address - a_address;
        const uint64_t repeat = 0 - static_cast<uint64_t>(step == a_step);
        a.stride = (a.stride & ~repeat) | (step & repeat);
        a.step = step;
        a.address = r.address;
    } else {
        a = codec::EventPredict::AddrSlot{thread1, r.gc_size, r.address, 0 - r.gc_size, 0};
    }
    prev.tick = r.tick;
    prev.address = r.address;

    // Write: each field its prediction does not leave out, then the flags byte at w[0] (always
    // one byte: every flag is below 0x80).
    uint32_t flags = 0;
    uint8_t *o = w + 1;
    if (same_thread) flags |= MT_EVENT_SAME_THREAD;
    else o = put_v(o, r.thread);
    o = put_v(o, dt);
    if (stack_predicted) flags |= MT_EVENT_STACK_PREDICTED;
    else o = put_v(o, r.stack_id);
    if (same_class) flags |= MT_EVENT_SAME_CLASS;
    else o = put_v(o, r.class_id);
    if (same_size) {
        flags |= MT_EVENT_SAME_SIZE;
    } else {
        o = put_v(o, r.size);
        if (r.gc_size == r.size) flags |= MT_EVENT_NO_GC_EXTRA;
        else o = put_v(o, codec::zigzag(static_cast<int64_t>(r.gc_size - r.size)));
    }
    if (addr_known && addr_base == r.address) flags |= MT_EVENT_ADDR_PREDICTED;
    else o = put_v(o, codec::zigzag(static_cast<int64_t>(r.address - addr_base)));
    *w = static_cast<uint8_t>(flags);
    buf.commit(static_cast<size_t>(o - w));
}

// The same, with the shape the record carries (EventRecord::stack_shape).
MT_EVENT_INLINE void encode_event(Buf &buf, const EventRecord &r, EventDeltas &prev, codec::EventPredict &p) {
    encode_event(buf, r, prev, p, [&r] { return r.stack_shape; });
}

// The field order encode_event() writes: a change to MT_EVENT_FIELDS must change it too
// (checked where the compiler evaluates __builtin_strcmp in a constant expression).
#if defined(__GNUC__) || defined(__clang__)
#define MT_EV_ORDER_(kind, m, label) #kind ":" #m " "
static_assert(__builtin_strcmp(MT_EVENT_FIELDS(MT_EV_ORDER_),
                               "FLAGS:flags THREAD_NEW:thread DELTA:tick STACK_NEW:stack_id CLASS_NEW:class_id "
                               "U_NEW:size GC_EXTRA_NEW:gc_size ADDR:address ") == 0,
              "encode_event() writes MT_EVENT_FIELDS in this order");
#undef MT_EV_ORDER_
#endif

}  // namespace event_encode

}  // namespace mt::trace

#endif
