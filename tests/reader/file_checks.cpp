// check_prefix and check_flip (trace_fixture.h): what reading a cut or damaged copy of a good
// file must give.
#include "trace_fixture.h"

#include "memtracer/codec.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

#include <algorithm>

namespace mt::test {
namespace {

// Events of frames not yet committed at `stop`, counted from the chunk headers of the full file
// (frame_seq and count are the first two varints of every frame data chunk).
uint64_t expected_uncommitted(const std::vector<uint8_t> &bytes, const ChunkMap &map, uint64_t stop,
                              uint64_t committed) {
    uint64_t n = 0;
    for (size_t i = 0; i + 1 < map.boundaries.size() && map.boundaries[i + 1] <= stop; ++i) {
        const uint8_t *h = bytes.data() + map.boundaries[i];
        uint16_t type = codec::get_le16(h + 4);
        if (type != MT_CHUNK_EVENTS && type != MT_CHUNK_AGGREGATES) continue;
        const uint8_t *p = h + 16, *end = p + codec::get_le32(h + 8);
        uint64_t seq = 0, count = 0;
        REQUIRE(codec::get_varint(&p, end, &seq));
        REQUIRE(codec::get_varint(&p, end, &count));
        if (seq >= committed) n += count;
    }
    return n;
}

}  // namespace

void check_prefix(const std::vector<uint8_t> &bytes, const ChunkMap &map, const reader::Run &full, size_t len) {
    INFO("prefix of " << len << " bytes of " << bytes.size());
    if (len < sizeof(mt_file_header)) {
        REQUIRE_THROWS_AS(reader::load_buffer(bytes.data(), len), reader::FormatError);
        return;
    }
    reader::Run run = reader::load_buffer(bytes.data(), len);
    size_t complete = static_cast<size_t>(
        std::count_if(map.frame_ends.begin(), map.frame_ends.end(), [&](uint64_t end) { return end <= len; }));
    REQUIRE(run.frames.size() == complete);
    for (size_t i = 0; i < complete; ++i) REQUIRE(run.frames[i] == full.frames[i]);
    REQUIRE(run.result.frames == complete);
    uint64_t boundary = *std::prev(std::upper_bound(map.boundaries.begin(), map.boundaries.end(), len));
    bool at_end = len == bytes.size() && full.result.stop == reader::Stop::End;
    reader::Stop want = at_end ? reader::Stop::End : boundary == len ? reader::Stop::Eof : reader::Stop::Truncated;
    REQUIRE(run.result.stop == want);
    REQUIRE(run.result.stop_offset == boundary);
    uint64_t reason_at = at_end ? map.boundaries[map.boundaries.size() - 2] : boundary;
    REQUIRE_THAT(run.result.stop_reason, Catch::Contains("offset " + std::to_string(reason_at)));
    REQUIRE(run.result.uncommitted_events == expected_uncommitted(bytes, map, boundary, complete));
}

void check_flip(const std::vector<uint8_t> &bytes, const ChunkMap &map, const reader::Run &full, size_t pos,
                uint8_t mask) {
    INFO("byte " << pos << " xor " << int(mask));
    std::vector<uint8_t> bad = bytes;
    bad[pos] ^= mask;
    reader::Run run = reader::load_buffer(bad.data(), bad.size());
    const reader::ReadResult &r = run.result;
    REQUIRE((r.stop == reader::Stop::Corrupt || r.stop == reader::Stop::Truncated));
    REQUIRE(r.stop_offset <= pos);
    REQUIRE(std::find(map.boundaries.begin(), map.boundaries.end(), r.stop_offset) != map.boundaries.end());
    REQUIRE_THAT(r.stop_reason, Catch::Contains("offset " + std::to_string(r.stop_offset)));
    size_t before = static_cast<size_t>(std::count_if(map.frame_ends.begin(), map.frame_ends.end(),
                                                      [&](uint64_t end) { return end <= r.stop_offset; }));
    REQUIRE(run.frames.size() == before);
    for (size_t i = 0; i < before; ++i) REQUIRE(run.frames[i] == full.frames[i]);
}

}  // namespace mt::test
