// mt_mark: labels reach the file in the frame that was open at the call, from any thread, copied
// and cut to MT_MAX_MARK_LABEL bytes on a character boundary; without a capture nothing is queued.
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "support.h"

namespace {

std::vector<std::string> labels(const mt::reader::Frame &f) {
    std::vector<std::string> out;
    for (const auto &m : f.marks) out.push_back(m.label);
    return out;
}

}  // namespace

TEST_CASE("mt_mark without a capture or without a label is refused", "[marks]") {
    CHECK(mt_mark("too early") == MT_ERR_NOT_STARTED);
    CHECK(mt_mark(nullptr) == MT_ERR_ARGUMENT);
    CHECK(std::string(mt_last_error()).find("mt_mark needs a label") != std::string::npos);
}

TEST_CASE("mt_mark labels the frame open at the call, from any thread", "[marks]") {
    std::string path = mtt::temp_path("marks");
    mtt::start(mtt::make_config(path));
    std::string caller(MT_MAX_MARK_LABEL + 20, 'x');
    std::string utf8 = std::string(MT_MAX_MARK_LABEL - 1, 'a') + "\xc3\xa9";  // é straddles the limit
    REQUIRE(mt_mark("level loaded") == MT_OK);
    REQUIRE(mt_frame_end(10) == MT_OK);
    mt_status from_thread = MT_ERR_DISABLED;
    std::thread([&] { from_thread = mt_mark("boss spawned"); }).join();
    REQUIRE(from_thread == MT_OK);
    REQUIRE(mt_frame_end(11) == MT_OK);
    REQUIRE(mt_mark(caller.c_str()) == MT_OK);
    caller[0] = 'y';  // the runtime kept its own copy
    REQUIRE(mt_mark(utf8.c_str()) == MT_OK);
    REQUIRE(mt_mark("") == MT_OK);
    auto run = mtt::stop_and_load(path);
    REQUIRE(run.result.clean());
    REQUIRE(run.frames.size() == 3);
    CHECK(labels(run.frames[0]) == std::vector<std::string>{"level loaded"});
    CHECK(labels(run.frames[1]) == std::vector<std::string>{"boss spawned"});
    CHECK(labels(run.frames[2]) ==
          std::vector<std::string>{std::string(MT_MAX_MARK_LABEL, 'x'), std::string(MT_MAX_MARK_LABEL - 1, 'a'), ""});
    for (const auto &f : run.frames)
        for (const auto &m : f.marks) {
            CHECK(m.tick >= f.start_tick);
            CHECK(m.tick <= f.end_tick);
        }
    CHECK(mt_mark("after stop") == MT_ERR_NOT_STARTED);
}

TEST_CASE("mt_mark never waits: a full queue refuses, every accepted mark is in the file", "[marks]") {
    std::string path = mtt::temp_path("marks-full");
    mt_config c = mtt::make_config(path);
    c.drain_interval_us = 1000000;  // the writer drains rarely: the queue fills long before
    mtt::start(c);
    int accepted = 0, refused = 0;
    for (int i = 0; i < 100000 && refused == 0; ++i) {
        mt_status st = mt_mark(("m" + std::to_string(i)).c_str());
        REQUIRE((st == MT_OK || st == MT_ERR_MARKS_FULL));
        (st == MT_OK ? accepted : refused)++;
    }
    CHECK(refused == 1);
    CHECK(accepted >= MT_MAX_PENDING_MARKS);
    CHECK(std::string(mt_last_error()).find("'m" + std::to_string(accepted) + "' was dropped") != std::string::npos);
    auto run = mtt::stop_and_load(path);
    std::vector<std::string> got;
    for (const auto &f : run.frames)
        for (const auto &l : labels(f)) got.push_back(l);
    REQUIRE(got.size() == static_cast<size_t>(accepted));
    for (int i = 0; i < accepted; ++i) CHECK(got[static_cast<size_t>(i)] == "m" + std::to_string(i));
}
