#include "patch_support.h"

namespace fs = std::filesystem;

namespace mt::test {

const std::vector<std::string> &fixture_versions() {
    static const std::vector<std::string> v = {"5.3.0f2", "5.6.0b3", "2018.x", "2021.x", "2022.x", "6000.x"};
    return v;
}

bool fixture_has_vector_path(const std::string &version) {
    return version == "2021.x" || version == "2022.x";
}

std::string expected_layout(const std::string &version) {
    return version.rfind("5.", 0) == 0 ? "boehm-alloc-macros-nospace" : "boehm-alloc-macros-spaced";
}

fs::path stage_fixture(const std::string &version, const fs::path &dir, const std::string &under) {
    fs::path dest = dir / under / "libil2cpp";
    fs::create_directories(dest.parent_path());
    fs::copy(fs::path(MT_PATCH_FIXTURES) / version / "libil2cpp", dest, fs::copy_options::recursive);
    return dest;
}

ProcessResult patch_script(const fs::path &where, const std::vector<std::string> &extra,
                           const std::map<std::string, std::string> &env) {
    std::vector<std::string> argv = {"python3", MT_PATCH_SCRIPT, "--unity", where.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, env);
}

size_t count_occurrences(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

}  // namespace mt::test
