// Frame data chunks: EVENTS, AGGREGATES, GC, DEATHS and the FRAME chunk that commits them.
// These carry nearly all of a file's bytes, so the loops stay plain: inline varint reads into
// vectors grown geometrically, no per-record allocation.
#include "decode.h"

#include <algorithm>

namespace mt::reader::detail {
namespace {

// Several chunks can feed one frame; reserving exactly per chunk would copy quadratically.
template <class T>
void make_room(std::vector<T> &v, uint64_t more) {
    size_t want = v.size() + static_cast<size_t>(more);
    if (want > v.capacity()) v.reserve(std::max(want, v.capacity() * 2));
}

}  // namespace

void decode_events(Cursor &c, const DictSizes &d, std::vector<Event> &out) {
    uint64_t n = c.count("count", 7);
    make_room(out, n);
    uint64_t tick = 0, addr = 0;  // both restart per chunk: tick from the frame start, addr from 0
    for (uint64_t i = 0; i < n; ++i) {
        c.record("event", i);
        Event e;
        e.thread = c.ref("thread", d.threads, "threads");
        e.tick = tick += static_cast<uint64_t>(c.s("dt"));
        e.class_id = c.ref("class", d.classes, "classes");
        e.stack_id = c.ref("stack", d.stacks, "stacks");
        e.size = c.u("size");
        e.gc_size = e.size + static_cast<uint64_t>(c.s("gc_extra"));
        e.address = addr += static_cast<uint64_t>(c.s("addr"));
        out.push_back(e);
    }
}

void decode_aggregates(Cursor &c, const DictSizes &d, std::vector<Aggregate> &out) {
    uint64_t n = c.count("count", 6);
    make_room(out, n);
    for (uint64_t i = 0; i < n; ++i) {
        c.record("aggregate", i);
        Aggregate a;
        a.class_id = c.ref("class", d.classes, "classes");
        a.stack_id = c.ref("stack", d.stacks, "stacks");
        a.count = c.u("count");
        a.requested_bytes = c.u("requested_bytes");
        a.gc_bytes = c.u("gc_bytes");
        a.samples = c.u("samples");
        out.push_back(a);
    }
}

void decode_gcs(Cursor &c, std::vector<GcEvent> &out) {
    uint64_t n = c.count("count", 6);
    make_room(out, n);
    for (uint64_t i = 0; i < n; ++i) {
        c.record("collection", i);
        GcEvent g;
        g.start_tick = c.u("start_tick");
        g.end_tick = c.u("end_tick");
        g.heap_size = c.u("heap_size");
        g.free_bytes = c.u("free_bytes");
        g.reclaimed_bytes = c.u("reclaimed_bytes");
        g.gc_no = c.u("gc_no");
        out.push_back(g);
    }
}

void decode_deaths(Cursor &c, const DictSizes &d, std::vector<Death> &out) {
    uint64_t n = c.count("count", 5);
    make_room(out, n);
    uint64_t addr = 0;
    for (uint64_t i = 0; i < n; ++i) {
        c.record("death", i);
        Death x;
        x.address = addr += static_cast<uint64_t>(c.s("addr"));
        x.alloc_frame_seq = c.u("alloc_frame_seq");
        x.class_id = c.ref("class", d.classes, "classes");
        x.stack_id = c.ref("stack", d.stacks, "stacks");
        x.gc_size = c.u("gc_size");
        out.push_back(x);
    }
}

void decode_frame_fields(Cursor &c, Frame &f) {
    f.seq = c.u("frame_seq");
    f.index = c.u("frame_index");
    f.start_tick = c.u("start_tick");
    f.end_tick = c.u("end_tick");
    f.events = c.u("events");
    f.requested_bytes = c.u("requested_bytes");
    f.gc_bytes = c.u("gc_bytes");
    f.dropped = c.u("dropped");
    f.heap_size = c.u("heap_size");
    f.free_bytes = c.u("free_bytes");
    f.flags = static_cast<uint32_t>(c.u("flags"));
}

}  // namespace mt::reader::detail
