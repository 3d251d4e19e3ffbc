// Files of format versions 1, 2 and 3 are still read: committed files the older encoders wrote.
// Version 2 (EVENTS entries without flags, STACKS without shapes) and version 1 were copied from
// the corpus before version 3; version 3 (STACK_PREDICTED meant the previous event's stack, not
// its successor) was written by main's build before version 4 (reader-make-samples and
// reader-make-real-runs at 4301501). The fixture's complete sample of an older version decodes
// to the same frames the current encoder's sample decodes to; a real capture's figures add up.
#include "trace_fixture.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

using namespace mt;

TEST_CASE("reader: a version 2 file reads to the same frames as its version 4 twin", "[reader][version]") {
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

TEST_CASE("reader: a version 3 file reads to the same frames as its version 4 twin", "[reader][version]") {
    std::vector<uint8_t> v3 = test::read_all(std::string(MT_READER_CORPUS) + "/v3-complete.mt");
    REQUIRE(v3.size() > sizeof(mt_file_header));
    reader::Run old = reader::load_buffer(v3.data(), v3.size());
    CHECK(old.header.version == 3);
    CHECK(old.result.stop == reader::Stop::End);
    test::Sample now = test::make_sample();
    CHECK(now.bytes != v3);  // the version differs at least
    reader::Run cur = reader::load_buffer(now.bytes.data(), now.bytes.size());
    REQUIRE(old.frames.size() == cur.frames.size());
    CHECK(old.frames == cur.frames);
    CHECK(old.classes == cur.classes);
    CHECK(old.stacks == cur.stacks);
}

TEST_CASE("reader: real version 1 and version 3 captures still read whole", "[reader][version]") {
    for (uint32_t version : {1u, 3u}) {
        INFO("version " << version);
        std::vector<uint8_t> bytes =
            test::read_all(std::string(MT_READER_CORPUS) + "/v" + std::to_string(version) + "-real-events.mt");
        reader::Run run = reader::load_buffer(bytes.data(), bytes.size());
        CHECK(run.header.version == version);
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
}
