// The disk fills up mid-capture (RLIMIT_FSIZE makes write(2) fail with EFBIG at a chosen size,
// like a full volume): the runtime disables itself, says why, the game keeps running, and the
// file stays readable up to its last complete chunk with an END(DISABLED) saying why.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <memory>

#include "support.h"

TEST_CASE("write failure mid-capture disables cleanly and leaves a readable file", "[failure]") {
    std::string path = mtt::temp_path("full");
    constexpr rlim_t kLimit = 48 * 1024;
    auto disk = std::make_unique<mtt::FileSizeLimit>(kLimit);

    mt_config c = mtt::make_config(path);
    mtt::start(c);
    uint64_t frame = mtt::frames_until_disabled(0);
    mt_counters mid = mtt::counters();
    CHECK(mid.disabled == 1);
    CHECK(mt_frame_end(frame) == MT_ERR_DISABLED);
    CHECK(mt_pause() == MT_ERR_DISABLED);
    uint64_t seen = mid.allocations_seen;
    mtt::alloc_same_site(10, &mtt::kPlayer, 0x1000, 8);  // the game goes on; nothing is counted
    CHECK(mtt::counters().allocations_seen == seen);
    std::string why = mt_last_error();
    CHECK(why.find("File too large") != std::string::npos);
    CHECK(why.find(path) != std::string::npos);

    auto run = mtt::stop_and_load(path, MT_ERR_DISABLED);
    disk.reset();
    INFO("reader: " << run.result.stop_reason);
    CHECK(run.result.stop_offset <= kLimit);
    if (run.result.stop == mt::reader::Stop::End) {
        CHECK(run.result.end_reason == MT_END_DISABLED);
        CHECK(run.result.end_message.find("File too large") != std::string::npos);
    } else {
        // Not even the short END (32 bytes) fitted: the file still ends on a chunk boundary.
        CHECK(run.result.stop == mt::reader::Stop::Eof);
        CHECK(run.result.stop_offset + 32 > kLimit);
    }
    CHECK(!run.frames.empty());
    CHECK(run.frames.size() == mid.frames_written);
    for (size_t i = 0; i < run.frames.size(); ++i) CHECK(run.frames[i].seq == i);
    CHECK(mtt::counters().disabled == 1);
    CHECK(mtt::counters().running == 0);

    // A new capture after a disabled one starts clean.
    std::string again = mtt::temp_path("after_full");
    mtt::start(mtt::make_config(again));
    mtt::alloc_same_site(5, &mtt::kString, 0x2000, 8);
    auto run2 = mtt::stop_and_load(again);
    CHECK(run2.result.clean());
    CHECK(mtt::all_events(run2).size() == 5);
    CHECK(mtt::counters().disabled == 0);
}
