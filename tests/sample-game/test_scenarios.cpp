// The sample game's scenarios for the analysis tools (issue 11): --alloc-scale F runs F times
// the game's work per traced frame, --leak-from N keeps one Single[] a frame forever from frame N.
// Checked against the game's own tally (--expect-json) and the run.mt.
#include "game_support.h"
#include "tree.h"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using namespace mt::test;

namespace {

const std::vector<std::string> kBase = {"--workers", "2", "--seed", "11", "--ring-bytes", "16777216",
                                        "--block-when-full"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string> &more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

Tally<std::string> tally_of(const GameRun &g) {
    INFO(g.result.output);
    REQUIRE(g.result.exit_code == 0);
    return expected_by_name(parse_json(read_file(g.expect)));
}

Cell frame_total(const std::map<std::string, Cell> &classes) {
    Cell t;
    for (const auto &[_, c] : classes) {
        t.count += c.count;
        t.bytes += c.bytes;
    }
    return t;
}

Cell sum(const Cell &a, const Cell &b) { return {a.count + b.count, a.bytes + b.bytes}; }

}  // namespace

TEST_CASE("sample game scenario alloc-scale 1.2: frames 0..n-1 run the game's first floor(1.2 n) ticks, traced as n frames") {
    fs::path dir = make_temp_dir("game-scale");
    // The game is deterministic per tick (seeded from the tick number), so 100 scaled frames are
    // the first 120 ticks of a plain run, four frames of one tick then one of two.
    auto plain = tally_of(run_game(dir, "plain", with(kBase, {"--frames", "120"})));
    GameRun sg = run_game(dir, "scaled", with(kBase, {"--frames", "100", "--alloc-scale", "1.2"}));
    auto scaled = tally_of(sg);
    REQUIRE(plain.size() == 120);
    REQUIRE(scaled.size() == 100);
    CHECK(scaled.at(0) == plain.at(0));
    CHECK(scaled.at(3) == plain.at(3));
    CHECK(frame_total(scaled.at(4)) == sum(frame_total(plain.at(4)), frame_total(plain.at(5))));
    CHECK(frame_total(scaled.at(99)) == sum(frame_total(plain.at(118)), frame_total(plain.at(119))));
    Cell all_plain, all_scaled;
    for (const auto &[_, c] : plain) all_plain = sum(all_plain, frame_total(c));
    for (const auto &[_, c] : scaled) all_scaled = sum(all_scaled, frame_total(c));
    CHECK(all_scaled == all_plain);
    // And the trace saw exactly what the game counted.
    const mt::reader::Run run = mt::reader::load_file(sg.out);
    REQUIRE(run.result.has_counters);
    CHECK(run.result.counters.allocations_seen == all_scaled.count);
    fs::remove_all(dir);
}

TEST_CASE("sample game scenario leak-from 40: one more Single[1024] a frame from frame 40 on, and its list's growth") {
    fs::path dir = make_temp_dir("game-leak");
    auto plain = tally_of(run_game(dir, "plain", with(kBase, {"--frames", "80"})));
    auto leak = tally_of(run_game(dir, "leak", with(kBase, {"--frames", "80", "--leak-from", "40"})));
    REQUIRE(leak.size() == 80);
    for (uint64_t f = 0; f < 40; ++f) CHECK(leak.at(f) == plain.at(f));
    // The tally's bytes are what libil2cpp computed for the request: 1024 floats and the header.
    uint64_t extra_singles = 0, extra_single_bytes = 0;
    for (uint64_t f = 40; f < 80; ++f) {
        const auto &a = leak.at(f).at("System.Single[]");
        Cell b = plain.at(f).count("System.Single[]") ? plain.at(f).at("System.Single[]") : Cell{};
        CHECK(a.count == b.count + 1);
        extra_singles += a.count - b.count;
        extra_single_bytes += a.bytes - b.bytes;
    }
    CHECK(extra_singles == 40);
    CHECK(extra_single_bytes % 40 == 0);
    CHECK(extra_single_bytes / 40 > 1024 * 4);
    CHECK(extra_single_bytes / 40 <= 1024 * 4 + 32);
    // The static list itself, once, in frame 40.
    auto lists = [](const std::map<std::string, Cell> &m) {
        auto it = m.find("System.Collections.Generic.List<Bullet>");
        return it == m.end() ? 0 : it->second.count;
    };
    CHECK(lists(leak.at(40)) == lists(plain.at(40)) + 1);
    CHECK(lists(leak.at(41)) == lists(plain.at(41)));
    fs::remove_all(dir);
}

TEST_CASE("sample game scenarios: --alloc-scale and --leak-from refuse what they cannot mean") {
    struct Case {
        std::vector<std::string> args;
        const char *says;
    };
    const Case cases[] = {
        {{"--alloc-scale", "0"}, "--alloc-scale: '0' is not a number in (0, 10]"},
        {{"--alloc-scale", "1.2345"}, "--alloc-scale: '1.2345' is not a number in (0, 10]"},
        {{"--alloc-scale", "11"}, "--alloc-scale: '11' is not a number in (0, 10]"},
        {{"--alloc-scale", "x"}, "--alloc-scale: 'x' is not a number"},
        {{"--leak-from", "-3"}, "--leak-from: '-3' is not a whole number"},
    };
    for (const Case &c : cases) {
        std::vector<std::string> argv = {"--out", "/dev/null"};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        ProcessResult r = run_process(game_argv(argv));
        INFO(r.output);
        CHECK(r.exit_code == 1);
        CHECK(r.output.find(c.says) != std::string::npos);
    }
}
