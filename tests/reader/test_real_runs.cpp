// Captures made by the real runtime (mt_start .. mt_stop, in a child process: reader-make-real-runs)
// read back allocation for allocation; a capture killed with SIGKILL keeps its committed frames.
#include "real_runs.h"
#include "trace_fixture.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mt;
namespace real = mt::test::real;
using reader::Stop;

namespace {

// The generator's command line for /bin/sh (behind the emulator in a cross build).
std::string generator(const std::string &args) {
    return std::string("exec ") + MT_EMULATOR + " '" + MT_REAL_RUNS_BIN + "' " + args;
}

// The captures, made once per test process in a directory removed at exit.
struct WorkDir {
    std::string path = std::filesystem::temp_directory_path() / ("mt_reader_real_" + std::to_string(getpid()));
    WorkDir() {
        std::filesystem::create_directories(path);
        REQUIRE(std::system(generator("'" + path + "'").c_str()) == 0);
    }
    ~WorkDir() { std::filesystem::remove_all(path); }
};

std::string work_dir() {
    static WorkDir dir;
    return dir.path;
}

// Every event must be one the generator made: its address says frame, thread and index, and
// size and class must follow. Frames the writer did not merge hold exactly their own frame's.
void check_events(const reader::Run &run) {
    for (const reader::Frame &f : run.frames) {
        INFO("frame seq " << f.seq << " index " << f.index << " flags " << f.flags);
        CHECK(f.events == f.event_list.size());
        for (const reader::Event &e : f.event_list) {
            uint64_t i = real::index_of(e.address);
            REQUIRE(i < real::kPerThread);
            CHECK(e.size == real::size_of(i));
            CHECK(run.classes.at(e.class_id).name == real::kClassNames[real::class_of(i)]);
            CHECK_FALSE(run.stacks.at(e.stack_id).frames.empty());
            CHECK(e.tick >= f.start_tick);
            CHECK(e.tick <= f.end_tick);
            if (!(f.flags & (MT_FRAME_MERGED | MT_FRAME_FINAL))) CHECK(real::frame_of(e.address) + real::kFirstIndex == f.index);
        }
    }
}

uint64_t event_count(const reader::Run &run) {
    uint64_t n = 0;
    for (const reader::Frame &f : run.frames) n += f.event_list.size();
    return n;
}

}  // namespace

TEST_CASE("reader: a real events capture reads back every allocation", "[reader][real]") {
    reader::Run run = reader::load_file(work_dir() + "/real-events.mt");
    INFO(run.result.stop_reason);
    REQUIRE(run.result.stop == Stop::End);
    CHECK(run.result.end_reason == MT_END_STOPPED);
    CHECK(run.header.info_value("session_label") == "reader real run");
    CHECK(run.header.pid != 0);
    REQUIRE(run.result.has_counters);
    CHECK(run.result.counters.events_dropped == 0);
    CHECK(event_count(run) == uint64_t{real::kFrames} * real::kThreads * real::kPerThread);
    CHECK(run.result.counters.events_written == event_count(run));
    CHECK(run.result.counters.frames_written == run.frames.size());
    bool has_worker = false;
    for (const reader::Thread &t : run.threads) has_worker |= t.name == "worker";
    CHECK(has_worker);
    check_events(run);
}

TEST_CASE("reader: a real aggregate capture sums to every allocation", "[reader][real]") {
    reader::Run run = reader::load_file(work_dir() + "/real-aggregate.mt");
    INFO(run.result.stop_reason);
    REQUIRE(run.result.stop == Stop::End);
    CHECK(run.header.flags & MT_FILE_FLAG_AGGREGATE);
    uint64_t count = 0, requested = 0;
    for (const reader::Frame &f : run.frames) {
        CHECK(f.event_list.empty());
        for (const reader::Aggregate &a : f.aggregates) {
            count += a.count;
            requested += a.requested_bytes;
            CHECK(a.samples == a.count);  // unsampled
        }
    }
    uint64_t per_frame_bytes = 0;
    for (uint64_t i = 0; i < real::kPerThread; ++i) per_frame_bytes += real::size_of(i);
    CHECK(count == uint64_t{real::kFrames} * real::kThreads * real::kPerThread);
    CHECK(requested == uint64_t{real::kFrames} * real::kThreads * per_frame_bytes);
}

TEST_CASE("reader: a real capture cut at every byte offset keeps exactly its committed frames", "[reader][real]") {
    for (const char *name : {"/real-events.mt", "/real-aggregate.mt"}) {
        std::vector<uint8_t> bytes = test::read_all(work_dir() + name);
        reader::Run full = reader::load_buffer(bytes.data(), bytes.size());
        REQUIRE(full.result.stop == Stop::End);
        test::ChunkMap map = test::map_chunks(bytes);
        REQUIRE(map.frame_ends.size() == full.frames.size());
        for (size_t len = 0; len <= bytes.size(); ++len) test::check_prefix(bytes, map, full, len);
    }
}

TEST_CASE("reader: a flipped byte anywhere in a real capture is caught, frames before it kept", "[reader][real]") {
    std::vector<uint8_t> bytes = test::read_all(work_dir() + "/real-events.mt");
    reader::Run full = reader::load_buffer(bytes.data(), bytes.size());
    test::ChunkMap map = test::map_chunks(bytes);
    for (size_t pos = sizeof(mt_file_header); pos < bytes.size(); ++pos) test::check_flip(bytes, map, full, pos, 0xff);
}

TEST_CASE("reader: a real capture killed with SIGKILL keeps every committed frame", "[reader][real]") {
    std::string path = work_dir() + "/killed.mt";
    int out[2];
    REQUIRE(pipe(out) == 0);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        std::string cmd = generator("--until-killed '" + path + "'");
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char *>(nullptr));
        _exit(127);
    }
    close(out[1]);
    char ready[6] = {};
    pollfd pfd{out[0], POLLIN, 0};
    // Blocks until 3 frames are in the file; the bound only keeps a hung runtime from hanging CI.
    ssize_t got = poll(&pfd, 1, 120000) == 1 ? read(out[0], ready, 5) : -1;
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    close(out[0]);
    REQUIRE(got == 5);
    REQUIRE(std::string(ready) == "ready");
    REQUIRE(WIFSIGNALED(status));

    reader::Run run = reader::load_file(path);
    INFO(run.result.stop_reason);
    CHECK((run.result.stop == Stop::Eof || run.result.stop == Stop::Truncated));
    CHECK(run.frames.size() >= 3);
    CHECK_FALSE(run.result.has_counters);  // COUNTERS come with END, which a kill never writes
    check_events(run);
}
