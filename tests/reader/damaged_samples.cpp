#include "damaged_samples.h"

#include "memtracer/codec.h"
#include "trace_fixture.h"

#include <memtracer/format.h>

#include <stdexcept>

namespace mt::test {

uint64_t find_chunk(const std::vector<uint8_t> &bytes, uint16_t type, uint64_t from, size_t n) {
    for (uint64_t at = sizeof(mt_file_header); at + sizeof(mt_chunk_header) <= bytes.size();) {
        if (at >= from && codec::get_le16(bytes.data() + at + 4) == type && n-- == 0) return at;
        at += sizeof(mt_chunk_header) + codec::get_le32(bytes.data() + at + 8);
    }
    throw std::logic_error("no such chunk in the sample");
}

namespace {

uint64_t chunk_len(const std::vector<uint8_t> &bytes, uint64_t at) {
    return sizeof(mt_chunk_header) + codec::get_le32(bytes.data() + at + 8);
}

// The chunk at `at` written a second time right after itself: what a writer that re-sends a
// batch after a short write, or a careless file splice, leaves.
std::vector<uint8_t> duplicate_chunk(const std::vector<uint8_t> &bytes, uint64_t at) {
    std::vector<uint8_t> out = bytes;
    auto first = bytes.begin() + static_cast<long>(at);
    uint64_t len = chunk_len(bytes, at);
    out.insert(out.begin() + static_cast<long>(at + len), first, first + static_cast<long>(len));
    return out;
}

std::vector<uint8_t> with_flags(std::vector<uint8_t> bytes, uint32_t flags) {
    codec::put_le32(bytes.data() + offsetof(mt_file_header, flags), flags);
    fix_header_crc(bytes);
    return bytes;
}

uint32_t flags_of(const std::vector<uint8_t> &bytes) {
    return codec::get_le32(bytes.data() + offsetof(mt_file_header, flags));
}

Damaged duplicated(const std::string &name, bool aggregate, uint16_t type, const std::string &reason) {
    Sample s = make_sample({.aggregate = aggregate});
    // Frame 2's first data chunk, sent twice; frames 0 and 1 are committed before it.
    std::vector<uint8_t> bytes = duplicate_chunk(s.bytes, find_chunk(s.bytes, type, s.frame_ends[1]));
    return {name, bytes, aggregate, find_chunk(bytes, MT_CHUNK_FRAME, 64, 2), "FRAME", 2, reason};
}

}  // namespace

std::vector<Damaged> damaged_samples() {
    std::vector<Damaged> out;
    // Frame 2 has two EVENTS chunks of 4 events; the copy adds 4 more.
    out.push_back(duplicated("dup-events.mt", false, MT_CHUNK_EVENTS,
                             "frame_seq 2 (frame index 104) commits 8 events, but its EVENTS chunks hold 12"));
    // Frame 2's aggregate rows record 12 + 1 allocations per chunk (their samples).
    out.push_back(duplicated("dup-aggregates.mt", true, MT_CHUNK_AGGREGATES,
                             "frame_seq 2 (frame index 104) commits 26 allocations, but its AGGREGATES chunks "
                             "record 39"));

    Sample ev = make_sample(), agg = make_sample({.aggregate = true});
    std::vector<uint8_t> b = with_flags(ev.bytes, flags_of(ev.bytes) | MT_FILE_FLAG_AGGREGATE);
    out.push_back({"mode-aggregate-with-events.mt", b, false, find_chunk(b, MT_CHUNK_EVENTS), "EVENTS", 0,
                   "the file header says aggregate mode (flag 0x1 set), whose frames carry AGGREGATES chunks"});
    b = with_flags(agg.bytes, flags_of(agg.bytes) & ~MT_FILE_FLAG_AGGREGATE);
    out.push_back({"mode-events-with-aggregates.mt", b, true, find_chunk(b, MT_CHUNK_AGGREGATES), "AGGREGATES", 0,
                   "the file header says events mode (flag 0x1 clear), whose frames carry EVENTS chunks"});
    // The first GC chunk is frame 2's, the only DEATHS chunk frame 4's.
    b = with_flags(ev.bytes, flags_of(ev.bytes) & ~MT_FILE_FLAG_GC_EVENTS);
    out.push_back({"gc-without-flag.mt", b, false, find_chunk(b, MT_CHUNK_GC), "GC", 2,
                   "the file header does not set GC events (flag 0x10), so no GC chunk may appear"});
    b = with_flags(ev.bytes, flags_of(ev.bytes) & ~MT_FILE_FLAG_LIFETIMES);
    out.push_back({"deaths-without-flag.mt", b, false, find_chunk(b, MT_CHUNK_DEATHS), "DEATHS", 4,
                   "the file header does not set lifetimes (flag 0x8), so no DEATHS chunk may appear"});
    return out;
}

}  // namespace mt::test
