// event_encode.h — one EVENTS entry (EventRecord) and its version 4 encoding (format.h
// MT_EVENT_FIELDS, event_predict.h): a flags byte says which fields the chunk's earlier entries
// (and the stack's STACKS entry) predict exactly, and those are left out. Inline, so that the
// runtime's writer thread, which encodes one entry per traced allocation, pays no call and builds
// no record in memory (docs/benchmarks.md, issue 22 third session, has the figures). Included by
// trace_writer.h; use ListEncoder::add(const EventRecord &).
#ifndef MEMTRACER_EVENT_ENCODE_H
#define MEMTRACER_EVENT_ENCODE_H

#include <stdint.h>
#include <string.h>

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

// Varints without a branch on their length (issue 22, ninth session): the writer's events vary
// in size, tick and address from one allocation to the next, so a branch per varint length and
// per optional field mispredicts (valgrind's branch simulation: 1.55 per events-mode record, all
// in this file). A value below 2^28 (every field of nearly every entry) is spread into the four
// LEB128 bytes with shifts and masks, its continuation bits set from the bytes above, and written
// as one 4-byte store; the pointer advances by its length, or by 0 for a field the entry leaves
// out, so absent fields are written too and overwritten by the next one. The 4-byte store may
// write up to 3 bytes past the entry's end: encode_event reserves kMaxEventBytes (80), and an
// entry with its last store takes at most 1 + 7 * 10 + 3.
constexpr uint64_t kFastVarintLimit = 1ull << 28;

// The LEB128 length of v < 2^28 from its bit width: ceil(bits / 7), with 147 / 1024 standing in
// for 1 / 7 (exact for 1 <= bits <= 28).
MT_EVENT_INLINE uint32_t varint_len(uint32_t v) {
    const uint32_t bits = 32u - static_cast<uint32_t>(__builtin_clz(v | 1u));
    return ((bits + 6u) * 147u) >> 10;
}

// v < 2^28 as its LEB128 bytes of length len, little-endian in a word (byte i of the varint is
// bits 8i..8i+7): the 7-bit groups spread in two steps (14-bit halves, then bytes), the
// continuation bits of every byte but the last from a table.
inline constexpr uint32_t kVarintCont[5] = {0, 0, 0x80u, 0x8080u, 0x808080u};
MT_EVENT_INLINE uint32_t varint_word(uint32_t v, uint32_t len) {
    uint32_t t = (v & 0x3fffu) | ((v << 2) & 0x3fff0000u);
    t = (t & 0x007f007fu) | ((t << 1) & 0x7f007f00u);
    return t | kVarintCont[len];
}

MT_EVENT_INLINE void store_le32(uint8_t *p, uint32_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    memcpy(p, &w, 4);  // unaligned: memcpy, which the compiler makes one store
}

// Writes v at p when present; returns p advanced by the bytes written (0 when absent). p needs
// kMaxVarint bytes of room either way.
MT_EVENT_INLINE uint8_t *put_v_if(uint8_t *p, bool present, uint64_t v) {
    if (__builtin_expect(v >= kFastVarintLimit, 0)) return present ? p + codec::put_varint(p, v) : p;
    const uint32_t x = static_cast<uint32_t>(v), len = varint_len(x);
    store_le32(p, varint_word(x, len));
    return p + (len & (0u - static_cast<uint32_t>(present)));
}

MT_EVENT_INLINE uint8_t *put_v(uint8_t *p, uint64_t v) { return put_v_if(p, true, v); }

// A flag's bit when set, as arithmetic (a setcc and a shift, no branch).
MT_EVENT_INLINE uint32_t flag_if(bool set, uint32_t flag) { return static_cast<uint32_t>(set) * flag; }

// What encode_event compares when a stack has no shape (its result is masked off then).
inline constexpr codec::EventShape kNoShape{};

static_assert(MT_EVENT_FLAGS_ALL < 0x80, "the flags of an EVENTS entry fit one varint byte");

// The most bytes one entry takes: every field a full varint.
constexpr size_t kMaxEventBytes = MT_FIELD_COUNT(MT_EVENT_FIELDS) * codec::kMaxVarint;
static_assert(kMaxEventBytes >= 1 + (MT_FIELD_COUNT(MT_EVENT_FIELDS) - 1) * codec::kMaxVarint + 3,
              "put_v_if's 4-byte store past the last field stays inside the room encode_event reserves");

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
    // Compared through a stand-in when there is none, with & rather than && (no branch per test).
    const codec::EventShape &sh = shape ? *shape : kNoShape;
    const bool has_shape = shape != nullptr;
    const bool same_class = has_shape & (sh.class_id == r.class_id);
    const bool same_size = has_shape & (sh.size == r.size) & (sh.gc_size == r.gc_size);
    // ADDR: against the slot's prediction where it holds this thread and GC size, else against
    // the previous address (a free list that skipped a live object lands a few objects off it).
    codec::EventPredict::AddrSlot &a = p.addr_of(r.thread, r.gc_size);
    const bool addr_known = (a.thread_plus1 == thread1) & (a.gc_size == r.gc_size);
    const uint64_t a_address = a.address, a_step = a.step, a_stride = a.stride;
    const uint64_t addr_base = addr_known ? a_address + a_stride : prev.address;
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
    // EventPredict::learn_addr as selects, every field stored (no branch on the data): a known
    // slot takes the step as its stride when it repeats (the free list's stride); a new one
    // starts at minus the GC size.
    const uint64_t step = r.address - a_address;
    const uint64_t known_stride = step == a_step ? step : a_stride;
    a.thread_plus1 = thread1;
    a.gc_size = r.gc_size;
    a.address = r.address;
    a.stride = addr_known ? known_stride : 0 - r.gc_size;
    a.step = addr_known ? step : 0;
    prev.tick = r.tick;
    prev.address = r.address;

    // Write: every field, each advancing the position only when its prediction does not leave it
    // out (put_v_if); the flags by arithmetic. Then the flags byte at w[0] (always one byte: every
    // flag is below 0x80).
    const bool no_gc_extra = r.gc_size == r.size;
    const bool addr_predicted = addr_known & (addr_base == r.address);
    const uint32_t flags = flag_if(same_thread, MT_EVENT_SAME_THREAD) | flag_if(stack_predicted, MT_EVENT_STACK_PREDICTED) |
                           flag_if(same_class, MT_EVENT_SAME_CLASS) | flag_if(same_size, MT_EVENT_SAME_SIZE) |
                           flag_if(!same_size & no_gc_extra, MT_EVENT_NO_GC_EXTRA) |
                           flag_if(addr_predicted, MT_EVENT_ADDR_PREDICTED);
    uint8_t *o = w + 1;
    o = put_v_if(o, !same_thread, r.thread);
    o = put_v(o, dt);
    o = put_v_if(o, !stack_predicted, r.stack_id);
    o = put_v_if(o, !same_class, r.class_id);
    o = put_v_if(o, !same_size, r.size);
    o = put_v_if(o, !same_size & !no_gc_extra, codec::zigzag(static_cast<int64_t>(r.gc_size - r.size)));
    o = put_v_if(o, !addr_predicted, codec::zigzag(static_cast<int64_t>(r.address - addr_base)));
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
