// patch_support.h — staging fixture copies and running bdwgc-patches/memtracer-patch-il2cpp on them.
#pragma once

#include "process.h"
#include "tree.h"

#include <filesystem>
#include <string>
#include <vector>

namespace mt::test {

// Every fixture version, oldest first (tests/patches/fixtures/<version>/libil2cpp).
const std::vector<std::string> &fixture_versions();
bool fixture_has_vector_path(const std::string &version);  // Array.cpp with GC_gcj_vector_malloc
std::string expected_layout(const std::string &version);   // boehm-alloc-macros-(no)space(d)

// Copies fixtures/<version>/libil2cpp to <dir>/<under>/libil2cpp; returns that libil2cpp path.
std::filesystem::path stage_fixture(const std::string &version, const std::filesystem::path &dir,
                                    const std::string &under = "il2cpp");

// Runs the script with --unity <where> and the extra arguments.
ProcessResult patch_script(const std::filesystem::path &where, const std::vector<std::string> &extra = {},
                           const std::map<std::string, std::string> &env = {});

size_t count_occurrences(const std::string &text, const std::string &what);

}  // namespace mt::test
