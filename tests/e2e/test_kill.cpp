// Kills at any instant: the sample game is SIGKILLed at random moments (iOS's jetsam does the same
// to a game out of memory). Every file must stay readable, every frame committed before the kill
// must come back identical to the same frame of an uninterrupted run with the same seed, and the
// symbolizer must ingest every file.
#include "run_compare.h"
#include "subprocess.h"

#include <memtracer/format.h>

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <random>
#include <thread>

using namespace std::chrono;

namespace {

constexpr int kKills = 50;

// Frames are compared for equality, so nothing may be dropped: a loaded machine starves the
// writer and a full ring would drop events in one run and not the other. The game blocks instead.
std::vector<std::string> game_args(const std::string &out) {
    return {MEMTRACER_SAMPLE_GAME, "--frames", "400", "--workers", "3", "--seed", "11", "--out", out, "--quiet",
            "--block-when-full"};
}

}  // namespace

TEST_CASE("SIGKILL at random instants leaves every committed frame intact") {
    const std::string dir = e2e::make_temp_dir("kill");
    const std::string ref_path = dir + "/reference.mt";

    auto t0 = steady_clock::now();
    REQUIRE(e2e::run(game_args(ref_path)) == 0);
    const auto ref_duration = duration_cast<microseconds>(steady_clock::now() - t0);
    const mt::reader::Run ref = mt::reader::load_file(ref_path);
    REQUIRE(ref.result.stop == mt::reader::Stop::End);
    REQUIRE(ref.frames.size() > 100);

    // Frames are matched by the game's own frame index. A frame flagged MT_FRAME_MERGED holds
    // several game frames (the writer fell more than 64 frame ends behind, which a game running
    // at thousands of frames per second on a loaded machine can cause): it has no counterpart and
    // is skipped, in the reference and in the killed runs alike.
    const auto comparable = [](const mt::reader::Frame &f) { return !(f.flags & (MT_FRAME_FINAL | MT_FRAME_MERGED)); };
    std::map<uint64_t, e2e::FrameContent> expected;
    for (const auto &f : ref.frames)
        if (comparable(f)) expected.emplace(f.index, e2e::frame_content(ref, f));

    std::mt19937_64 rng(20261121);
    std::uniform_int_distribution<int64_t> when(0, ref_duration.count() * 11 / 10);
    int outcomes[4] = {0, 0, 0, 0};  // by mt::reader::Stop
    uint64_t frames_checked = 0, frames_merged = 0;
    std::vector<std::string> files;

    for (int i = 0; i < kKills; ++i) {
        const std::string path = dir + "/killed-" + std::to_string(i) + ".mt";
        e2e::Child child = e2e::spawn(game_args(path));
        std::this_thread::sleep_for(microseconds(when(rng)));
        kill(child.pid, SIGKILL);
        child.wait();

        struct stat st {};
        if (stat(path.c_str(), &st) != 0 || st.st_size == 0) {
            ++outcomes[static_cast<int>(mt::reader::Stop::Truncated)];  // killed before mt_start wrote
            continue;
        }
        mt::reader::Run run;
        try {
            run = mt::reader::load_file(path);
        } catch (const mt::reader::FormatError &e) {
            // Only acceptable when the kill landed inside the 64-byte header write.
            INFO(path << ": " << e.what());
            CHECK(st.st_size < 64);
            continue;
        }
        INFO(path << " stopped: " << run.result.stop_reason);
        CHECK(run.result.usable());
        ++outcomes[static_cast<int>(run.result.stop)];
        for (const auto &f : run.frames) {
            CHECK(e2e::gc_covers_requested(f));
            auto want = expected.find(f.index);
            if (!comparable(f) || want == expected.end()) {
                frames_merged += (f.flags & MT_FRAME_MERGED) != 0;
                continue;
            }
            INFO("frame seq " << f.seq << ", game frame " << f.index);
            CHECK(e2e::diff(want->second, e2e::frame_content(run, f)) == "");
            ++frames_checked;
        }
        files.push_back(path);
    }
    WARN("kills: " << kKills << ", ended cleanly " << outcomes[0] << ", at a chunk boundary " << outcomes[1]
                   << ", inside a chunk " << outcomes[2] << "; frames compared " << frames_checked
                   << ", merged frames skipped " << frames_merged);
    CHECK(frames_checked > 0);

    // One database for every killed file: the symbolizer must take each of them.
    const std::string db = dir + "/kills.db";
    for (const auto &path : files) {
        INFO("symbolizing " << path);
        CHECK(e2e::run({MEMTRACER_SYMBOLIZE, path, "--elf", MEMTRACER_SAMPLE_GAME, "--elf", MEMTRACER_GAME_LIB, "-o", db,
                         "--no-progress"}) == 0);
    }
    e2e::remove_tree(dir);
}
