// FollowReader (memtracer-symbolize --follow): a file read while it grows, one poll per growth
// step, must deliver exactly what one read of the final file delivers, each item once, and
// after each poll exactly the frames whose FRAME chunk is complete.
#include "trace_fixture.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memtracer/format.h>

using namespace mt;

namespace {

struct Collected : reader::Visitor {
    reader::Run run;
    int headers = 0;
    void on_header(const reader::Header &h) override {
        run.header = h;
        ++headers;
    }
    void on_module(const reader::Module &m) override { run.modules.push_back(m); }
    void on_thread(const reader::Thread &t) override {
        if (t.id < run.threads.size()) run.threads[t.id] = t;
        else run.threads.push_back(t);
    }
    void on_class(const reader::Class &c) override { run.classes.push_back(c); }
    void on_stack(const reader::Stack &s) override { run.stacks.push_back(s); }
    void on_frame(const reader::Frame &f) override { run.frames.push_back(f); }
};

void check_same(const reader::Run &got, const reader::Run &want) {
    CHECK(got.header.info == want.header.info);
    CHECK(got.header.flags == want.header.flags);
    CHECK(got.modules == want.modules);
    CHECK(got.threads == want.threads);
    CHECK(got.classes == want.classes);
    CHECK(got.stacks == want.stacks);
    CHECK(got.frames == want.frames);
}

}  // namespace

TEST_CASE("reader: FollowReader polled at every byte of a growing file reads it exactly once", "[reader][follow]") {
    for (bool aggregate : {false, true}) {
        test::Sample s = test::make_sample({.aggregate = aggregate});
        reader::Run whole = reader::load_buffer(s.bytes.data(), s.bytes.size());
        REQUIRE(whole.result.stop == reader::Stop::End);
        Collected c;
        reader::FollowReader follow(c);
        for (size_t len = 0; len <= s.bytes.size(); ++len) {
            INFO("aggregate " << aggregate << ", " << len << " bytes");
            bool read = follow.poll(s.bytes.data(), len);
            REQUIRE(read == (len >= sizeof(mt_file_header)));
            if (!read) continue;
            size_t committed = std::count_if(s.frame_ends.begin(), s.frame_ends.end(), [&](uint64_t e) { return e <= len; });
            REQUIRE(c.run.frames.size() == committed);
            REQUIRE(follow.result().frames == committed);
            uint64_t boundary = *std::prev(std::upper_bound(s.boundaries.begin(), s.boundaries.end(), len));
            CHECK(follow.offset() == boundary);
            if (len < s.bytes.size())
                REQUIRE((follow.result().stop == reader::Stop::Eof || follow.result().stop == reader::Stop::Truncated));
        }
        CHECK(follow.result().stop == reader::Stop::End);
        CHECK(follow.result().stop_reason == whole.result.stop_reason);
        CHECK(follow.result().counters == whole.result.counters);
        CHECK(c.headers == 1);
        check_same(c.run, whole);
    }
}

TEST_CASE("reader: FollowReader stops at a corrupt chunk and stays there", "[reader][follow]") {
    test::Sample s = test::make_sample();
    size_t k = s.boundaries.size() / 2;
    uint64_t bad = s.boundaries[k];  // the chunk starting here gets a damaged payload byte
    REQUIRE(s.boundaries[k + 1] > bad + 16);
    std::vector<uint8_t> damaged = s.bytes;
    damaged[bad + 16] ^= 0x5a;
    Collected c;
    reader::FollowReader follow(c);
    REQUIRE(follow.poll(damaged.data(), damaged.size()));
    CHECK(follow.result().stop == reader::Stop::Corrupt);
    CHECK(follow.result().stop_offset == bad);
    size_t before = c.run.frames.size();
    CHECK(before == static_cast<size_t>(std::count_if(s.frame_ends.begin(), s.frame_ends.end(), [&](uint64_t e) { return e <= bad; })));
    REQUIRE(follow.poll(damaged.data(), damaged.size()));  // polled again: nothing past the damage
    CHECK(follow.result().stop == reader::Stop::Corrupt);
    CHECK(c.run.frames.size() == before);
}

TEST_CASE("reader: FollowReader fed chunk by chunk (poll_at, only the new bytes) reads what one read does",
          "[reader][follow]") {
    // The live host's way (live/src/stream_check.cpp): the header, then each chunk alone, at its
    // file offset; no copy of the earlier bytes is kept.
    for (bool aggregate : {false, true}) {
        test::Sample s = test::make_sample({.aggregate = aggregate});
        reader::Run whole = reader::load_buffer(s.bytes.data(), s.bytes.size());
        Collected c;
        reader::FollowReader follow(c);
        CHECK_FALSE(follow.poll_at(s.bytes.data(), 64, 0));  // before the header: nothing read
        REQUIRE(follow.poll(s.bytes.data(), sizeof(mt_file_header)));
        for (size_t i = 1; i < s.boundaries.size(); ++i) {
            uint64_t from = s.boundaries[i - 1], to = s.boundaries[i];
            if (from < sizeof(mt_file_header)) continue;
            std::vector<uint8_t> piece(s.bytes.begin() + static_cast<long>(from), s.bytes.begin() + static_cast<long>(to));
            CHECK_FALSE(follow.poll_at(piece.data(), piece.size(), from + 1));  // not where it stands
            REQUIRE(follow.poll_at(piece.data(), piece.size(), from));
            REQUIRE(follow.offset() == to);
        }
        CHECK(follow.result().stop == reader::Stop::End);
        CHECK(follow.result().stop_reason == whole.result.stop_reason);
        check_same(c.run, whole);
    }
}
