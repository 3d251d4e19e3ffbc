// decode_events.cpp — EVENTS entries: versions 3 and 4 (format.h MT_EVENT_FIELDS, a flags byte and
// the fields it does not predict; event_predict.h keeps the same state as the encoder; the two
// differ only in what STACK_PREDICTED predicts) and versions 1 and 2 (MT_EVENT_FIELDS_V2). A flag
// that claims a prediction the chunk cannot make (no earlier event of that thread, stack or GC
// size, no shape for the stack) is damage, refused with the entry's place.
#include "decode_fields.h"
#include "memtracer/event_predict.h"

#include <algorithm>
#include <cstdio>

namespace mt::reader::detail {
namespace {

// Version 1 and 2 entries: the common table macros of decode_fields.h.
inline void decode_v2(Cursor &c, EntryContext &x, Event &out) { MT_EVENT_FIELDS_V2(MT_DEC_FIELD) }

[[noreturn]] void unpredictable(Cursor &c, const char *what) {
    c.fail(std::string("flags say ") + what +
           " is predicted, but nothing before it in this chunk (or the stack's entry) predicts it");
}

std::string hex(uint64_t v) {
    char b[24];
    snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
    return b;
}

uint64_t read_flags(Cursor &c, const char *label) {
    uint64_t flags = c.u(label);
    if (flags & ~static_cast<uint64_t>(MT_EVENT_FLAGS_ALL)) [[unlikely]]
        c.fail("flags 0x" + hex(flags) + " has bits this reader does not know (it knows 0x" + hex(MT_EVENT_FLAGS_ALL) + ")");
    if ((flags & MT_EVENT_SAME_SIZE) && (flags & MT_EVENT_NO_GC_EXTRA)) [[unlikely]]
        c.fail("flags 0x" + hex(flags) + " set both SAME_SIZE and NO_GC_EXTRA");
    return flags;
}

// SAME_CLASS / SAME_SIZE: the stack's last event in this chunk, else its STACKS entry's shape.
codec::EventShape predicted_shape(Cursor &c, const DictSizes &d, const codec::EventPredict &p, uint32_t stack) {
    if (const codec::EventShape *s = p.last_shape(stack)) return *s;
    if (stack >= d.stack_shapes.size() || d.stack_shapes[stack].class_id >= d.classes) [[unlikely]]
        unpredictable(c, "the class or size of this stack");
    const StackShape &s = d.stack_shapes[stack];
    return codec::EventShape{s.class_id, s.size, s.gc_size};
}

constexpr uint64_t kShapeFlags = MT_EVENT_SAME_CLASS | MT_EVENT_SAME_SIZE;

#define MT_DEV_FLAGS(m, label) flags = read_flags(c, label);
#define MT_DEV_THREAD_NEW(m, label)                                                      \
    if (!(flags & MT_EVENT_SAME_THREAD)) out.m = c.ref(label, x.dicts->threads, "threads"); \
    else if (p.thread_plus1 == 0) [[unlikely]] unpredictable(c, "the thread");            \
    else out.m = static_cast<uint32_t>(p.thread_plus1 - 1);
#define MT_DEV_DELTA(m, label) out.m = x.prev.m += static_cast<uint64_t>(c.s(label));
#define MT_DEV_STACK_NEW(m, label)                                                            \
    if (!(flags & MT_EVENT_STACK_PREDICTED)) out.m = c.ref(label, x.dicts->stacks, "stacks"); \
    else if (uint64_t pred1_ = p.predict_stack_plus1(successor); pred1_ == 0) [[unlikely]]     \
        unpredictable(c, "the stack");                                                         \
    else out.m = static_cast<uint32_t>(pred1_ - 1);                                            \
    if (flags & kShapeFlags) shape = predicted_shape(c, *x.dicts, p, out.m);
#define MT_DEV_CLASS_NEW(m, label) \
    out.m = (flags & MT_EVENT_SAME_CLASS) ? static_cast<uint32_t>(shape.class_id) : c.ref(label, x.dicts->classes, "classes");
#define MT_DEV_U_NEW(m, label) out.m = (flags & MT_EVENT_SAME_SIZE) ? shape.m : c.u(label);
#define MT_DEV_GC_EXTRA_NEW(m, label)                                                 \
    out.m = (flags & MT_EVENT_SAME_SIZE) ? shape.m                                     \
            : (flags & MT_EVENT_NO_GC_EXTRA) ? out.size                                \
                                             : out.size + static_cast<uint64_t>(c.s(label));
#define MT_DEV_ADDR(m, label)                                                                      \
    {                                                                                              \
        uint64_t base_ = x.prev.m;                                                                 \
        bool known_ = p.predict_addr(out.thread, out.gc_size, &base_);                             \
        if (!(flags & MT_EVENT_ADDR_PREDICTED)) out.m = base_ + static_cast<uint64_t>(c.s(label)); \
        else if (!known_) [[unlikely]] unpredictable(c, "the address");                            \
        else out.m = base_;                                                                        \
        x.prev.m = out.m;                                                                          \
    }
#define MT_DEV_FIELD(kind, m, label) MT_DEV_##kind(m, label)

// `successor`: version 4's STACK_PREDICTED (the previous stack's successor), else version 3's.
inline void decode_v3(Cursor &c, EntryContext &x, codec::EventPredict &p, bool successor, Event &out) {
    uint64_t flags = 0;
    codec::EventShape shape{0, 0, 0};
    MT_EVENT_FIELDS(MT_DEV_FIELD)
    p.learn(out.thread, out.stack_id, codec::EventShape{out.class_id, out.size, out.gc_size}, out.address);
}

}  // namespace

void decode_events(Cursor &c, const DictSizes &d, uint32_t version, std::vector<Event> &out) {
    bool v3 = version >= 3, successor = version >= 4;
    uint64_t n = c.count("count", v3 ? MT_FIELD_MIN(MT_EVENT_FIELDS) : MT_FIELD_MIN(MT_EVENT_FIELDS_V2));
    size_t want = out.size() + static_cast<size_t>(n);  // several chunks can feed one frame
    if (want > out.capacity()) out.reserve(std::max(want, out.capacity() * 2));
    EntryContext x;
    x.dicts = &d;
    codec::EventPredict p;
    if (v3) p.reset();
    for (uint64_t i = 0; i < n; ++i) {
        c.record("event", i);
        Event e;
        if (v3) decode_v3(c, x, p, successor, e);
        else decode_v2(c, x, e);
        out.push_back(e);
    }
}

}  // namespace mt::reader::detail
