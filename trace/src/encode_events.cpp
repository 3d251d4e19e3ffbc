// encode_events.cpp — EVENTS entries, version 3 (format.h MT_EVENT_FIELDS, event_predict.h): a
// flags byte says which fields the chunk's earlier entries (and the stack's STACKS entry) predict
// exactly, and those are left out. One reserve per entry, written through a bare cursor: the
// writer thread encodes one entry per traced allocation (docs/benchmarks.md has the figures).
#include "memtracer/trace_writer.h"

#include <stdlib.h>

namespace mt::trace {

namespace {

struct VarOut {
    uint8_t *p;
    void put_u(uint64_t v) { p += codec::put_varint(p, v); }
    void put_s(int64_t v) { put_u(codec::zigzag(v)); }
};

// One field of MT_EVENT_FIELDS; `flags` is the entry's mt_event_flags, computed first.
#define MT_EV_FLAGS(m) out.put_u(flags);
#define MT_EV_THREAD_NEW(m) \
    if (!(flags & MT_EVENT_SAME_THREAD)) out.put_u(r.m);
#define MT_EV_DELTA(m)                             \
    out.put_s(static_cast<int64_t>(r.m - prev.m)); \
    prev.m = r.m;
#define MT_EV_STACK_NEW(m) \
    if (!(flags & MT_EVENT_SAME_STACK)) out.put_u(r.m);
#define MT_EV_CLASS_NEW(m) \
    if (!(flags & MT_EVENT_SAME_CLASS)) out.put_u(r.m);
#define MT_EV_U_NEW(m) \
    if (!(flags & MT_EVENT_SAME_SIZE)) out.put_u(r.m);
#define MT_EV_GC_EXTRA_NEW(m) \
    if (!(flags & (MT_EVENT_SAME_SIZE | MT_EVENT_NO_GC_EXTRA))) out.put_s(static_cast<int64_t>(r.m - r.size));
#define MT_EV_ADDR(m)                                                                          \
    if (!(flags & MT_EVENT_ADDR_PREDICTED)) out.put_s(static_cast<int64_t>(r.m - addr_base)); \
    prev.m = r.m;
#define MT_EV_FIELD(kind, m, label) MT_EV_##kind(m)

// The entry's flags, and the address an unpredicted address is written against (the prediction
// where there is one: a free list that skipped a live object lands a few objects off it).
uint32_t event_flags(const EventRecord &r, codec::EventPredict &p, uint64_t prev_address, uint64_t *addr_base) {
    uint32_t flags = 0;
    if (p.thread_plus1 == static_cast<uint64_t>(r.thread) + 1) flags |= MT_EVENT_SAME_THREAD;
    if (p.stack_plus1 == static_cast<uint64_t>(r.stack_id) + 1) flags |= MT_EVENT_SAME_STACK;
    const codec::EventShape *s = p.last_shape(r.stack_id);
    codec::EventShape dict{r.stack_class, r.stack_size, r.stack_gc_size};
    if (!s && r.knows_stack_shape) s = &dict;
    if (s && s->class_id == r.class_id) flags |= MT_EVENT_SAME_CLASS;
    if (s && s->size == r.size && s->gc_size == r.gc_size) flags |= MT_EVENT_SAME_SIZE;
    else if (r.gc_size == r.size) flags |= MT_EVENT_NO_GC_EXTRA;
    *addr_base = prev_address;
    if (p.predict_addr(r.thread, r.gc_size, addr_base) && *addr_base == r.address) flags |= MT_EVENT_ADDR_PREDICTED;
    return flags;
}

void encode_event(Buf &buf, const EventRecord &r, ListEncoder::Deltas &prev, codec::EventPredict &p) {
    uint8_t *w = buf.reserve(MT_FIELD_COUNT(MT_EVENT_FIELDS) * codec::kMaxVarint);
    if (!w) return;
    uint64_t addr_base;
    uint32_t flags = event_flags(r, p, prev.address, &addr_base);
    VarOut out{w};
    MT_EVENT_FIELDS(MT_EV_FIELD)
    buf.commit(static_cast<size_t>(out.p - w));
    p.learn(r.thread, r.stack_id, codec::EventShape{r.class_id, r.size, r.gc_size}, r.address);
}

}  // namespace

void ListEncoder::add(const EventRecord &e) {
    if (!predict_) {
        predict_ = static_cast<codec::EventPredict *>(malloc(sizeof(codec::EventPredict)));
        if (!predict_) {
            body_.set_failed();  // the entry is lost: list_chunk() reports the failure
            return;
        }
        predict_->reset();
    }
    encode_event(body_, e, prev_, *predict_);
    ++count_;
}

}  // namespace mt::trace
