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

TEST_CASE("reader: version 2 and 3 files read to the same frames as their current twin", "[reader][version]") {
    test::Sample now = test::make_sample();
    reader::Run cur = reader::load_buffer(now.bytes.data(), now.bytes.size());
    CHECK(cur.header.version == MT_FORMAT_VERSION);
    for (uint32_t version : {2u, 3u}) {
        INFO("version " << version);
        std::vector<uint8_t> bytes =
            test::read_all(std::string(MT_READER_CORPUS) + "/v" + std::to_string(version) + "-complete.mt");
        REQUIRE(bytes.size() > sizeof(mt_file_header));
        reader::Run old = reader::load_buffer(bytes.data(), bytes.size());
        CHECK(old.header.version == version);
        CHECK(old.result.stop == reader::Stop::End);
        REQUIRE(old.frames.size() == cur.frames.size());
        CHECK(old.frames == cur.frames);
        CHECK(old.classes == cur.classes);
        REQUIRE(old.stacks.size() == cur.stacks.size());
        for (size_t i = 0; i < old.stacks.size(); ++i) {
            CHECK(old.stacks[i].frames == cur.stacks[i].frames);
            if (version >= 3) CHECK(old.stacks[i] == cur.stacks[i]);  // shapes from version 3 on
        }
    }
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
