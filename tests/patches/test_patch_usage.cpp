// test_patch_usage.cpp — a usage error has its own exit code (64, EX_USAGE), never 2 ("refused"),
// so a build script can tell "you called me wrong" from "this libil2cpp is not one I know".
#include <catch2/catch.hpp>

#include "patch_support.h"

namespace fs = std::filesystem;
using namespace mt::test;

namespace {

ProcessResult script(const std::vector<std::string> &args) {
    std::vector<std::string> argv = {"python3", MT_PATCH_SCRIPT};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv);
}

}  // namespace

TEST_CASE("usage errors exit 64 and touch nothing, refusals keep 2") {
    fs::path dir = make_temp_dir("patch-usage");
    stage_fixture("2022.x", dir, "il2cpp");
    const Tree before = snapshot(dir);

    ProcessResult r = script({});  // --unity missing
    INFO(r.output);
    CHECK(r.exit_code == 64);
    CHECK(r.output.find("usage error") != std::string::npos);
    CHECK(r.output.find("--unity") != std::string::npos);

    r = script({"--unity", dir.string(), "--check", "--revert"});  // two modes at once
    INFO(r.output);
    CHECK(r.exit_code == 64);
    r = script({"--unity", dir.string(), "--frobnicate"});  // unknown option
    INFO(r.output);
    CHECK(r.exit_code == 64);
    CHECK(first_difference(before, snapshot(dir)) == "");

    r = script({"--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("64 usage error") != std::string::npos);
    CHECK(r.output.find("2 refused") != std::string::npos);

    // The same arguments, well formed, on a tree the script refuses: still 2.
    std::string object_path = (dir / "il2cpp/libil2cpp/vm/Object.cpp").string();
    std::string object = read_file(object_path);
    object.replace(object.find("GC_MALLOC ((size))"), 18, "GC_MALLOC((size))");
    write_file(object_path, object);
    r = script({"--unity", (dir / "il2cpp").string()});
    INFO(r.output);
    CHECK(r.exit_code == 2);
    fs::remove_all(dir);
}
