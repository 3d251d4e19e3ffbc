// What the patch script refuses, and that a refusal or a failure half way changes nothing.
#include "patch_support.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace mt::test;

namespace {

struct Staged {
    fs::path dir, lib;
    explicit Staged(const std::string &version, const std::string &tag)
        : dir(make_temp_dir(tag)), lib(stage_fixture(version, dir)) {}
    ~Staged() {
        for (const auto &e : fs::recursive_directory_iterator(dir))
            chmod(e.path().c_str(), e.is_directory() ? 0755 : 0644);
        fs::remove_all(dir);
    }
    fs::path unity() const { return dir / "il2cpp"; }
    void edit(const char *file, const std::string &from, const std::string &to) const {
        std::string text = read_file(lib / file);
        size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        write_file(lib / file, text.replace(at, from.size(), to));
    }
};

// Runs the script and checks it refused with `why` in its message and touched nothing.
void require_refused(const Staged &s, const std::vector<std::string> &extra, const std::string &why,
                     const std::map<std::string, std::string> &env = {}) {
    const Tree before = snapshot(s.dir);
    ProcessResult r = patch_script(s.unity(), extra, env);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find(why) != std::string::npos);
    CHECK(first_difference(before, snapshot(s.dir)) == "");
}

}  // namespace

TEST_CASE("a macro block no Unity version shipped is refused, with the line that differs") {
    Staged s("2021.x", "refuse-unknown");
    s.edit("vm/Object.cpp", "(obj)->klass = (vt);} while (0)", "(obj)->klass = (vt); track(obj);} while (0)");
    require_refused(s, {}, "unknown layout");
    ProcessResult r = patch_script(s.unity());
    CHECK(r.output.find("expected: #define ALLOC_OBJECT(obj, vt, size)") != std::string::npos);
    CHECK(r.output.find("track(obj)") != std::string::npos);
    CHECK(patch_script(s.unity(), {"--check"}).exit_code == 2);
}

TEST_CASE("a tree somebody else half patched is refused") {
    Staged s("2022.x", "refuse-half");
    s.edit("vm/Array.cpp", "GC_gcj_vector_malloc(byte_len, klass);\n",
           "GC_gcj_vector_malloc(byte_len, klass);\n            MEMTRACER_IL2CPP_ON_ALLOC(o, klass, byte_len); /* MemTracer */\n");
    require_refused(s, {}, "refused");
    require_refused(s, {"--revert"}, "refused");
}

TEST_CASE("files edited after patching are neither reverted nor patched over") {
    Staged s("2022.x", "refuse-edited");
    REQUIRE(patch_script(s.unity()).exit_code == 0);
    write_file(s.lib / "vm/Object.cpp", read_file(s.lib / "vm/Object.cpp") + "// local fix\n");
    require_refused(s, {"--revert"}, "changed since MemTracer patched it");
    require_refused(s, {}, "changed since MemTracer patched it");
    ProcessResult r = patch_script(s.unity(), {"--check"});
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("unexpected state") != std::string::npos);
}

TEST_CASE("a damaged backup or an edited hook header stops the revert") {
    Staged s("2021.x", "refuse-backup");
    REQUIRE(patch_script(s.unity()).exit_code == 0);
    const std::string hooks = read_file(s.lib / "memtracer/memtracer_il2cpp_hooks.h");
    write_file(s.lib / "memtracer/memtracer_il2cpp_hooks.h", hooks + "/* mine */\n");
    require_refused(s, {"--revert"}, "modified since patching");
    write_file(s.lib / "memtracer/memtracer_il2cpp_hooks.h", hooks);
    write_file(s.lib / "memtracer/backup/vm/Array.cpp.orig", "truncated");
    require_refused(s, {"--revert"}, "backup missing or damaged");
}

TEST_CASE("a memtracer/ folder that is not the script's is left alone") {
    Staged s("6000.x", "refuse-foreign");
    fs::create_directories(s.lib / "memtracer");
    write_file(s.lib / "memtracer/notes.txt", "someone else's");
    require_refused(s, {}, "is not MemTracer's");
}

TEST_CASE("read-only files and folders are refused before anything is written") {
    Staged s("2022.x", "refuse-ro");
    chmod((s.lib / "vm/Array.cpp").c_str(), 0444);
    require_refused(s, {}, "vm/Array.cpp: read-only");
    chmod((s.lib / "vm/Array.cpp").c_str(), 0644);
    chmod((s.lib / "vm").c_str(), 0555);
    require_refused(s, {}, "vm: read-only");
    chmod((s.lib / "vm").c_str(), 0755);
    chmod(s.lib.c_str(), 0555);
    require_refused(s, {}, "read-only");
    chmod(s.lib.c_str(), 0755);
}

TEST_CASE("a write that fails half way puts every file back (apply and revert)") {
    // The script writes backups, headers, its state, then the sources; each write may fail.
    for (int fail_at = 1; fail_at <= 7; ++fail_at) {
        INFO("failing write " << fail_at);
        Staged s("2022.x", "rollback");
        require_refused(s, {}, "every file was put back", {{"MEMTRACER_PATCH_TEST_FAIL_AT", std::to_string(fail_at)}});
        CHECK(patch_script(s.unity(), {"--check"}).exit_code == 3);
    }
    for (int fail_at = 1; fail_at <= 7; ++fail_at) {
        INFO("failing revert step " << fail_at);
        Staged s("2022.x", "rollback-revert");
        REQUIRE(patch_script(s.unity()).exit_code == 0);
        require_refused(s, {"--revert"}, "every file was put back",
                        {{"MEMTRACER_PATCH_TEST_FAIL_AT", std::to_string(fail_at)}});
        CHECK(patch_script(s.unity(), {"--check"}).exit_code == 0);
    }
}
