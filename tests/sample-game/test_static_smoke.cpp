// The static player (MEMTRACER_STATIC_EXES: the arm64 stage, under qemu-user) traced for a short
// run: the executable is in the module table with the build id readelf reports, the frame-pointer
// stacks are deep and land in the executable's functions, the generated IL2CPP methods among them
// (GameAssembly is linked in), and per-class counts equal the game's own tally.
#include "game_support.h"
#include "tree.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using namespace mt::test;

namespace {

struct Symbol {
    uint64_t address = 0, size = 0;
    std::string name;
};

// `nm -S --defined-only` lines: "address size type name"; functions only (t, T, w, W).
std::vector<Symbol> read_functions(const std::string &nm_file) {
    std::vector<Symbol> out;
    std::istringstream in(read_file(nm_file));
    for (std::string line; std::getline(in, line);) {
        std::istringstream l(line);
        std::string address, size, type, name;
        if (!(l >> address >> size >> type >> name) || type.size() != 1 || !std::strchr("tTwW", type[0])) continue;
        out.push_back({std::stoull(address, nullptr, 16), std::stoull(size, nullptr, 16), name});
    }
    return out;
}

// `readelf -n` prints "Build ID: <hex>".
std::string readelf_build_id(const std::string &notes_file) {
    std::smatch m;
    std::string text = read_file(notes_file);
    return std::regex_search(text, m, std::regex("Build ID: ([0-9a-f]+)")) ? m[1].str() : "";
}

std::string hex(const std::vector<uint8_t> &bytes) {
    std::string s;
    for (uint8_t b : bytes) s += "0123456789abcdef"[b >> 4], s += "0123456789abcdef"[b & 15];
    return s;
}

const Symbol *function_at(const std::vector<Symbol> &functions, uint64_t address) {
    for (const Symbol &f : functions)
        if (address >= f.address && address - f.address < f.size) return &f;
    return nullptr;
}

}  // namespace

TEST_CASE("static player traced: module table, build id, deep stacks into IL2CPP code, exact counts", "[static]") {
    fs::path dir = make_temp_dir("game-static");
    GameRun g = run_game(dir, "smoke", {"--frames", "50", "--workers", "2", "--seed", "11", "--ring-bytes",
                                        "16777216", "--block-when-full"});
    INFO(g.result.output);
    REQUIRE(g.result.exit_code == 0);
    const mt::reader::Run run = mt::reader::load_file(g.out);
    REQUIRE(run.result.stop == mt::reader::Stop::End);

    // The executable, by the name the runtime gives it, with readelf's build id.
    const std::string build_id = readelf_build_id(MT_GAME_NOTES);
    REQUIRE(build_id.size() == 40);
    const mt::reader::Module *exe = nullptr;
    for (const auto &m : run.modules)
        if (fs::path(m.path).filename() == fs::path(MEMTRACER_SAMPLE_GAME).filename()) exe = &m;
    REQUIRE(exe);
    CHECK(hex(exe->build_id) == build_id);

    // Every frame of every stack is a return address inside one of the executable's functions
    // (a static player has no other module); the deep ones run through generated IL2CPP methods.
    const std::vector<Symbol> functions = read_functions(MT_GAME_NM);
    REQUIRE(functions.size() > 100);
    const std::regex il2cpp_method(".*_m[0-9A-F]{40}.*");  // IL2CPP's Type_Method_m<hash> names
    size_t deep = 0, deep_through_il2cpp = 0;
    for (const auto &s : run.stacks) {
        bool through_il2cpp = false;
        for (uint64_t ra : s.frames) {
            INFO("stack " << s.id << " frame 0x" << std::hex << ra);
            REQUIRE(exe->contains(ra));
            const Symbol *f = function_at(functions, ra - exe->bias - 1);  // the call, not the next insn
            REQUIRE(f);
            through_il2cpp |= std::regex_match(f->name, il2cpp_method);
        }
        if (s.frames.size() > 10) {
            ++deep;
            deep_through_il2cpp += through_il2cpp;
        }
    }
    CHECK(deep > 0);
    CHECK(deep_through_il2cpp == deep);

    // Class by class and frame by frame, what the game counted itself.
    const auto truth = expected_by_klass(parse_json(read_file(g.expect)));
    REQUIRE(truth.size() == 50);
    const auto boundaries = frame_boundaries(run);
    REQUIRE(!boundaries.empty());
    CHECK(boundaries.back() == 49);
    CHECK(first_difference(fold(truth, boundaries), recorded_by_klass(run)) == "");
    fs::remove_all(dir);
}
