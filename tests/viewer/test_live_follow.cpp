// The live viewer's hand-off to its `memtracer-symbolize --follow` child (issue 21, item 1): a
// stop asked while the child is still starting (the game died at once) must finish the run as
// cut off with every whole frame of the file, never kill the child before its handler exists.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "live_follow.h"
#include "memtracer/format.h"
#include "memtracer/store/db.h"

namespace {

std::string slurp(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

uint32_t le32(const std::string &b, size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
    return v;
}

// The offset of the END chunk (the file minus it is what a game killed before mt_stop leaves)
// and the FRAME chunks before it.
size_t end_offset(const std::string &bytes, int64_t &frames) {
    size_t at = sizeof(mt_file_header);
    frames = 0;
    while (at + sizeof(mt_chunk_header) <= bytes.size()) {
        uint16_t type = static_cast<uint16_t>(le32(bytes, at + 4) & 0xffff);
        if (type == MT_CHUNK_END) return at;
        if (type == MT_CHUNK_FRAME) ++frames;
        at += sizeof(mt_chunk_header) + le32(bytes, at + 8);
    }
    return bytes.size();
}

}  // namespace

TEST_CASE("live follow: a stop asked before the follower is ready ends the run as cut off with every frame",
          "[live]") {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("mt-live-follow-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::string game = (dir / "game.mt").string(), cut = (dir / "cut.mt").string(), db = (dir / "live.db").string();
    std::string cmd = std::string(MT_SAMPLE_GAME_EXE) + " --frames 50 --quiet --out " + game + " > /dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::string bytes = slurp(game);
    int64_t frames = 0;
    size_t end = end_offset(bytes, frames);
    REQUIRE(end < bytes.size());
    REQUIRE(frames == 51);  // 50 frame ends and the FINAL frame
    std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(end));

    // finish() before run(): run() sends SIGTERM the instant the child exists, long before it
    // could have installed its handler. Before the fix this was exit 143 and no run.
    mt::viewer::FollowIngest ingest;
    ingest.finish();
    std::vector<mt::viewer::FollowLine> lines;
    std::string error;
    int rc = ingest.run(mt::viewer::follow_argv(MT_SYMBOLIZE_EXE, cut, db, {}),
                        [&](const mt::viewer::FollowLine &l) { lines.push_back(l); }, error);
    INFO(error);
    CHECK(rc == 0);
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.back().state == "cut_off");
    CHECK(lines.back().frames == static_cast<uint64_t>(frames));
    mt::store::Db h = mt::store::Db::open_readonly(db, 10000);
    mt::store::Stmt st = h.prepare("SELECT live_state, frame_count FROM runs");
    REQUIRE(st.step());
    CHECK(st.str(0) == "cut_off");
    CHECK(st.i64(1) == frames);
    std::filesystem::remove_all(dir);
}
