// Whole files whose every chunk is intact but whose content contradicts itself: a frame data
// chunk written twice, chunks of the other mode than the header says, GC or DEATHS chunks the
// header's flags rule out. Each is Corrupt at the chunk that contradicts, with what and where,
// and every frame committed before it is kept, identical.
#include "damaged_samples.h"
#include "trace_fixture.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

using namespace mt;
using Catch::Contains;
using Catch::StartsWith;
using reader::Stop;

TEST_CASE("reader: a duplicated frame data chunk, a mode contradiction or an unflagged chunk is Corrupt there",
          "[reader][damaged]") {
    test::Sample events = test::make_sample(), aggregate = test::make_sample({.aggregate = true});
    for (const test::Damaged &d : test::damaged_samples()) {
        INFO(d.name);
        reader::Run run = reader::load_buffer(d.bytes.data(), d.bytes.size());
        const reader::Run &good = d.aggregate ? aggregate.expected : events.expected;
        CHECK(run.result.stop == Stop::Corrupt);
        CHECK(run.result.stop_offset == d.stop_offset);
        CHECK_THAT(run.result.stop_reason,
                   StartsWith(d.stop_chunk + " chunk at offset " + std::to_string(d.stop_offset) + ": ") &&
                       Contains(d.reason));
        REQUIRE(run.frames.size() == d.frames_kept);
        CHECK(run.result.frames == d.frames_kept);
        for (size_t i = 0; i < d.frames_kept; ++i) CHECK(run.frames[i] == good.frames[i]);
        // The dictionaries before the damage were delivered too.
        CHECK(run.classes.size() >= 3);
        CHECK(run.stacks.size() == 4);
    }
}

TEST_CASE("reader: the seed corpus holds exactly the damaged files the fixture makes", "[reader][damaged]") {
    for (const test::Damaged &d : test::damaged_samples()) {
        INFO(d.name);
        CHECK(test::read_all(std::string(MT_READER_CORPUS) + "/" + d.name) == d.bytes);
    }
}

TEST_CASE("reader: the good samples satisfy every new check", "[reader][damaged]") {
    for (bool aggregate : {false, true}) {
        test::Sample s = test::make_sample({.aggregate = aggregate});
        reader::Run run = reader::load_buffer(s.bytes.data(), s.bytes.size());
        CHECK(run.result.stop == Stop::End);
        CHECK(run.frames == s.expected.frames);
    }
}
