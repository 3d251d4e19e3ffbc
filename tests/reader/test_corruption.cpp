// Damage anywhere after the header: the reader stops at the damaged chunk with a sentence, keeps
// every frame committed before it, and never delivers a wrong one.
#include "trace_fixture.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

#include <algorithm>

using namespace mt;
using reader::Stop;

TEST_CASE("reader: a flipped byte anywhere in the chunk area is caught, frames before it kept", "[reader][corruption]") {
    test::Sample s = test::make_sample();
    test::ChunkMap map = test::map_chunks(s.bytes);
    for (uint8_t mask : {0x01, 0x80, 0xff})
        for (size_t pos = sizeof(mt_file_header); pos < s.bytes.size(); ++pos)
            test::check_flip(s.bytes, map, s.expected, pos, mask);
}

TEST_CASE("reader: damage in the middle is Corrupt, in the last chunk a torn write", "[reader][corruption]") {
    test::Sample s = test::make_sample();
    uint64_t last = s.boundaries[s.boundaries.size() - 2];  // the END chunk
    std::vector<uint8_t> mid = s.bytes;
    mid[s.frame_ends[2] + 20] ^= 0x40;  // payload of the chunk after frame 2's commit
    reader::Run a = reader::load_buffer(mid.data(), mid.size());
    CHECK(a.result.stop == Stop::Corrupt);
    CHECK(a.result.stop_offset == s.frame_ends[2]);
    CHECK_THAT(a.result.stop_reason, Catch::StartsWith("CRC mismatch in the MODULES chunk at offset " +
                                                       std::to_string(s.frame_ends[2])) &&
                                         Catch::Contains("expected CRC 0x") && Catch::Contains("computed 0x"));
    CHECK(a.frames.size() == 3);

    std::vector<uint8_t> torn = s.bytes;
    torn.back() ^= 0x01;
    reader::Run b = reader::load_buffer(torn.data(), torn.size());
    CHECK(b.result.stop == Stop::Truncated);
    CHECK(b.result.stop_offset == last);
    CHECK_THAT(b.result.stop_reason, Catch::Contains("the last chunk, END chunk at offset " + std::to_string(last)) &&
                                         Catch::Contains("torn final write"));
    CHECK(b.frames.size() == 6);
    CHECK(b.result.has_counters);
}

TEST_CASE("reader: a bad chunk magic and an oversized chunk are Corrupt", "[reader][corruption]") {
    test::Sample s = test::make_sample();
    std::vector<uint8_t> bad = s.bytes;
    uint64_t at = s.frame_ends[0];
    bad[at] = 'X';
    reader::Run a = reader::load_buffer(bad.data(), bad.size());
    CHECK(a.result.stop == Stop::Corrupt);
    CHECK(a.result.stop_reason == "bad chunk magic at offset " + std::to_string(at) + ": expected 'MTCK', found 'XTCK'");
    CHECK(a.frames.size() == 1);

    bad = s.bytes;
    bad[at + 11] = 0x7f;  // size field: ~2 GB
    reader::Run b = reader::load_buffer(bad.data(), bad.size());
    CHECK(b.result.stop == Stop::Corrupt);
    CHECK_THAT(b.result.stop_reason, Catch::Contains("-byte payload, above the 67108864-byte limit"));
}
