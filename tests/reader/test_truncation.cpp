// A kill leaves a prefix of the file. Every prefix must read back exactly the frames whose FRAME
// chunk is complete, and say where and why it stopped.
#include "trace_fixture.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace mt;

TEST_CASE("reader: a run cut at every byte offset keeps exactly its committed frames", "[reader][truncation]") {
    for (bool aggregate : {false, true}) {
        test::Sample s = test::make_sample({.aggregate = aggregate});
        test::ChunkMap map = test::map_chunks(s.bytes);
        REQUIRE(map.frame_ends == s.frame_ends);
        for (size_t len = 0; len <= s.bytes.size(); ++len) test::check_prefix(s.bytes, map, s.expected, len);
    }
}

TEST_CASE("reader: a cut inside a chunk header and inside a payload are told apart", "[reader][truncation]") {
    test::Sample s = test::make_sample();
    uint64_t frame0 = s.frame_ends[0];
    uint64_t frame0_start = *std::prev(std::lower_bound(s.boundaries.begin(), s.boundaries.end(), frame0));
    reader::Run in_header = reader::load_buffer(s.bytes.data(), frame0_start + 7);
    CHECK(in_header.result.stop_reason == "the file ends inside a chunk header at offset " +
                                              std::to_string(frame0_start) + ": 7 of 16 bytes present");
    reader::Run in_payload = reader::load_buffer(s.bytes.data(), frame0 - 1);
    CHECK_THAT(in_payload.result.stop_reason,
               Catch::StartsWith("the file ends inside the payload of the FRAME chunk at offset " +
                                 std::to_string(frame0_start)) &&
                   Catch::EndsWith("bytes, " + std::to_string(frame0 - 1 - frame0_start - 16) + " are present"));
    CHECK(in_payload.frames.empty());
    CHECK(in_payload.result.uncommitted_events == 8);  // frame 0's two EVENTS chunks, never committed
}
