// Frame data chunks: EVENTS, AGGREGATES, GC, DEATHS and the FRAME chunk that commits them.
// These carry nearly all of a file's bytes, so the loops stay plain: inline varint reads into
// vectors grown geometrically, no per-record allocation.
#include "decode_fields.h"

#include <algorithm>

namespace mt::reader::detail {
namespace {

// Several chunks can feed one frame; reserving exactly per chunk would copy quadratically.
template <class T>
void make_room(std::vector<T> &v, uint64_t more) {
    size_t want = v.size() + static_cast<size_t>(more);
    if (want > v.capacity()) v.reserve(std::max(want, v.capacity() * 2));
}

// A frame-scoped list after its frame_seq: count, then count entries appended to `out`. The
// DELTA fields restart per chunk (EVENTS tick from the frame start, addresses from 0).
template <class T>
void decode_list(Cursor &c, const DictSizes *d, const char *kind, std::vector<T> &out) {
    uint64_t n = c.count("count", kFieldCount<T>);
    make_room(out, n);
    EntryContext x;
    x.dicts = d;
    for (uint64_t i = 0; i < n; ++i) {
        c.record(kind, i);
        T e;
        decode_entry(c, x, e);
        out.push_back(e);
    }
}

}  // namespace

void decode_aggregates(Cursor &c, const DictSizes &d, std::vector<Aggregate> &out) {
    decode_list(c, &d, "aggregate", out);
}

void decode_gcs(Cursor &c, std::vector<GcEvent> &out) { decode_list(c, nullptr, "collection", out); }

void decode_deaths(Cursor &c, const DictSizes &d, std::vector<Death> &out) { decode_list(c, &d, "death", out); }

void decode_marks(Cursor &c, std::vector<Mark> &out) { decode_list(c, nullptr, "mark", out); }

void decode_frame_fields(Cursor &c, Frame &f) {
    EntryContext x;
    decode_entry(c, x, f);
}

}  // namespace mt::reader::detail
