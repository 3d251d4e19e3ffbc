// Files of format versions 1 and 2 (EVENTS entries without flags, STACKS without shapes) are
// still read: two committed files the older encoders wrote (the fixture's complete sample,
// version 2, and a real runtime capture, version 1, both copied from the corpus before version
// 3): the first decodes to the same frames the version 3 encoder's sample decodes to, the
// second's figures add up.
#include "trace_fixture.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

using namespace mt;

TEST_CASE("reader: a version 2 file reads to the same frames as its version 3 twin", "[reader][version]") {
    std::vector<uint8_t> v2 = test::read_all(std::string(MT_READER_CORPUS) + "/v2-complete.mt");
    REQUIRE(v2.size() > sizeof(mt_file_header));
    reader::Run old = reader::load_buffer(v2.data(), v2.size());
    CHECK(old.header.version == 2);
    CHECK(old.result.stop == reader::Stop::End);
    test::Sample now = test::make_sample();
    reader::Run cur = reader::load_buffer(now.bytes.data(), now.bytes.size());
    CHECK(cur.header.version == MT_FORMAT_VERSION);
    REQUIRE(old.frames.size() == cur.frames.size());
    CHECK(old.frames == cur.frames);
    CHECK(old.classes == cur.classes);
    REQUIRE(old.stacks.size() == cur.stacks.size());
    for (size_t i = 0; i < old.stacks.size(); ++i) CHECK(old.stacks[i].frames == cur.stacks[i].frames);
}

TEST_CASE("reader: a real version 1 capture still reads whole", "[reader][version]") {
    std::vector<uint8_t> v1 = test::read_all(std::string(MT_READER_CORPUS) + "/v1-real-events.mt");
    reader::Run run = reader::load_buffer(v1.data(), v1.size());
    CHECK(run.header.version == 1);
    CHECK(run.result.stop == reader::Stop::End);
    REQUIRE(!run.frames.empty());
    uint64_t events = 0;
    for (const auto &f : run.frames) {
        CHECK(f.event_list.size() == f.events);
        uint64_t requested = 0;
        for (const auto &e : f.event_list) requested += e.size;
        CHECK(requested == f.requested_bytes);
        events += f.event_list.size();
    }
    CHECK(events > 0);
}
