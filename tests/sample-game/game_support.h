// game_support.h — running memtracer-sample-game for a test and putting its own tally
// (--expect-json) and its run.mt side by side, per frame and per class.
#pragma once

#include "../json_dom.h"
#include "process.h"

#include <memtracer/reader.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mt::test {

struct GameRun {
    std::string out;     // run.mt
    std::string expect;  // --expect-json
    ProcessResult result;
};

// The command line running the game with args: behind the emulator in a cross build, and the
// profiler player for --hook profiler when each GameAssembly is linked into its own (static).
std::vector<std::string> game_argv(const std::vector<std::string> &args);

// Runs the game with --out/--expect-json in dir (files named after tag) and --quiet.
GameRun run_game(const std::filesystem::path &dir, const std::string &tag, const std::vector<std::string> &args);

struct Cell {
    uint64_t count = 0, bytes = 0;
    bool operator==(const Cell &) const = default;
};
// frame index -> class key -> allocations. Keys: the Il2CppClass* (same process only), or
// "Namespace.Name" (comparable across processes; generic instances of one name add up).
template <class Key>
using Tally = std::map<uint64_t, std::map<Key, Cell>>;

Tally<uint64_t> expected_by_klass(const JValue &expect);
Tally<std::string> expected_by_name(const JValue &expect);
Tally<uint64_t> recorded_by_klass(const mt::reader::Run &run);  // events or aggregates
Tally<std::string> recorded_by_name(const mt::reader::Run &run);

template <class Key>
std::string first_difference(const Tally<Key> &a, const Tally<Key> &b);  // "" when equal

// The frame indices a capture committed (MT_FRAME_FINAL excluded, unless also MERGED: then it
// carries frame ends the queue could not take before mt_stop). When the writer falls behind,
// the runtime folds several frame ends into one (MT_FRAME_MERGED, carrying the last index), so
// comparisons fold the other side to the same boundaries: frame f goes to the first boundary >= f.
std::vector<uint64_t> frame_boundaries(const mt::reader::Run &run);
std::vector<uint64_t> common_boundaries(const std::vector<uint64_t> &a, const std::vector<uint64_t> &b);
template <class Key>
Tally<Key> fold(const Tally<Key> &t, const std::vector<uint64_t> &boundaries);

uint64_t events_in_final_frames(const mt::reader::Run &run);

}  // namespace mt::test
