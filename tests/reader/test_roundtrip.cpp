// Round trips through the runtime's own encoder: what the writer wrote is what the reader gives.
#include "trace_fixture.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

#include <cstdio>
#include <unistd.h>

using namespace mt;
using reader::Stop;

namespace {

void require_same_run(const reader::Run &got, const reader::Run &want) {
    const reader::Header &g = got.header, &w = want.header;
    CHECK(g.version == w.version);
    CHECK(g.start_unix_ns == w.start_unix_ns);
    CHECK(g.flags == w.flags);
    CHECK(g.pid == w.pid);
    CHECK(g.pointer_size == w.pointer_size);
    CHECK(g.max_stack_depth == w.max_stack_depth);
    CHECK(g.arch == w.arch);
    CHECK(g.info == w.info);
    CHECK(g.tick_hz == w.tick_hz);
    CHECK(got.modules == want.modules);
    CHECK(got.threads == want.threads);
    CHECK(got.classes == want.classes);
    CHECK(got.stacks == want.stacks);
    REQUIRE(got.frames.size() == want.frames.size());
    for (size_t i = 0; i < got.frames.size(); ++i) {
        INFO("frame " << i);
        CHECK(got.frames[i].event_list == want.frames[i].event_list);
        CHECK(got.frames[i] == want.frames[i]);
    }
    const reader::ReadResult &r = got.result, &x = want.result;
    CHECK(r.stop == x.stop);
    CHECK(r.stop_offset == x.stop_offset);
    CHECK(r.frames == x.frames);
    CHECK(r.uncommitted_events == 0);
    CHECK(r.has_counters == x.has_counters);
    CHECK(r.counters == x.counters);
    CHECK(r.end_reason == x.end_reason);
    CHECK(r.end_message == x.end_message);
}

// Records the order of callbacks, to check what the streaming contract promises.
struct OrderLog : reader::Visitor {
    std::vector<std::string> log;
    void on_header(const reader::Header &) override { log.push_back("header"); }
    void on_module(const reader::Module &m) override { log.push_back("module " + std::to_string(m.id)); }
    void on_thread(const reader::Thread &t) override { log.push_back("thread " + std::to_string(t.id) + " " + t.name); }
    void on_class(const reader::Class &c) override { log.push_back("class " + std::to_string(c.id)); }
    void on_stack(const reader::Stack &s) override { log.push_back("stack " + std::to_string(s.id)); }
    void on_frame(const reader::Frame &f) override { log.push_back("frame " + std::to_string(f.seq)); }
};

}  // namespace

TEST_CASE("reader: a complete events-mode run reads back exactly as the writer wrote it", "[reader][roundtrip]") {
    test::Sample s = test::make_sample();
    reader::Run run = reader::load_buffer(s.bytes.data(), s.bytes.size());
    require_same_run(run, s.expected);
    CHECK(run.result.clean());
    CHECK(run.result.stop_reason == "END chunk at offset " + std::to_string(s.boundaries[s.boundaries.size() - 2]) +
                                        ": stopped (mt_stop)");
    CHECK(run.header.info_value("process") == "SampleGame");
    CHECK(run.header.info_value("no such key").empty());
}

TEST_CASE("reader: a complete aggregate-mode run reads back exactly", "[reader][roundtrip]") {
    test::Sample s = test::make_sample({.aggregate = true});
    reader::Run run = reader::load_buffer(s.bytes.data(), s.bytes.size());
    require_same_run(run, s.expected);
    REQUIRE(run.frames.size() == 6);
    CHECK(run.frames[0].aggregates.size() == 4);
    CHECK(run.frames[0].event_list.empty());
}

TEST_CASE("reader: the writer's flush points are chunk boundaries the reader agrees with", "[reader][roundtrip]") {
    test::Sample s = test::make_sample();
    REQUIRE(s.boundaries.front() == 64);
    REQUIRE(s.boundaries.back() == s.bytes.size());
    for (uint64_t end : s.frame_ends)
        CHECK(std::find(s.boundaries.begin(), s.boundaries.end(), end) != s.boundaries.end());
}

TEST_CASE("reader: a run without END stops at Eof on the last chunk boundary", "[reader][roundtrip]") {
    test::Sample s = test::make_sample({.with_end = false});
    reader::Run run = reader::load_buffer(s.bytes.data(), s.bytes.size());
    require_same_run(run, s.expected);
    CHECK(run.result.stop == Stop::Eof);
    CHECK(run.result.usable());
    CHECK_FALSE(run.result.clean());
    CHECK_THAT(run.result.stop_reason, Catch::Contains("offset " + std::to_string(s.bytes.size())) &&
                                           Catch::Contains("without an END chunk"));
}

TEST_CASE("reader: bytes after the END chunk are ignored and said so", "[reader][roundtrip]") {
    test::Sample s = test::make_sample();
    uint64_t end = s.bytes.size();
    s.bytes.insert(s.bytes.end(), {1, 2, 3});
    reader::Run run = reader::load_buffer(s.bytes.data(), s.bytes.size());
    CHECK(run.result.stop == Stop::End);
    CHECK(run.result.stop_offset == end);
    CHECK_THAT(run.result.stop_reason, Catch::Contains("3 bytes after it were ignored"));
    CHECK(run.frames.size() == 6);
}

TEST_CASE("reader: the visitor sees the header first, each dictionary before its use, frames in order",
          "[reader][roundtrip]") {
    test::Sample s = test::make_sample();
    OrderLog v;
    reader::ReadResult r = reader::read_buffer(s.bytes.data(), s.bytes.size(), v);
    CHECK(r.frames == 6);
    std::vector<std::string> want = {"header",   "module 0", "module 1",  "thread 0 main", "thread 1 worker",
                                     "class 0",  "class 1",  "class 2",   "stack 0",       "stack 1",
                                     "stack 2",  "stack 3",  "frame 0",   "frame 1",       "thread 1 worker-renamed",
                                     "thread 2 loader\xff", "frame 2", "module 2", "class 3", "frame 3",
                                     "frame 4",  "frame 5"};
    CHECK(v.log == want);
}

TEST_CASE("reader: read_file maps a file on disk and reads the same as read_buffer", "[reader][roundtrip]") {
    test::Sample s = test::make_sample();
    std::string path = "reader_roundtrip_" + std::to_string(getpid()) + ".mt";
    test::write_all(path, s.bytes);
    reader::Run run = reader::load_file(path);
    std::remove(path.c_str());
    require_same_run(run, s.expected);
}

TEST_CASE("reader: stop_name names every stop", "[reader]") {
    CHECK(std::string(reader::stop_name(Stop::End)) == "end");
    CHECK(std::string(reader::stop_name(Stop::Eof)) == "eof");
    CHECK(std::string(reader::stop_name(Stop::Truncated)) == "truncated");
    CHECK(std::string(reader::stop_name(Stop::Corrupt)) == "corrupt");
}
