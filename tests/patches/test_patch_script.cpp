// bdwgc-patches/memtracer-patch-il2cpp on faithful copies of every libil2cpp layout Unity shipped:
// apply, check, apply again, revert, and where it finds libil2cpp in Editors and exports.
#include "patch_support.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace mt::test;

namespace {

const char *kVectorLine = "o = (Il2CppObject*)GC_gcj_vector_malloc(byte_len, klass);";
const char *kVectorHook = "MEMTRACER_IL2CPP_ON_ALLOC(o, klass, byte_len); /* MemTracer */";

// The line after the vector allocation, with the indentation it must share.
void check_vector_hook(const std::string &array_cpp) {
    size_t at = array_cpp.find(kVectorLine);
    REQUIRE(at != std::string::npos);
    size_t line_start = array_cpp.rfind('\n', at) + 1;
    std::string indent = array_cpp.substr(line_start, at - line_start);
    size_t next = array_cpp.find('\n', at) + 1;
    CHECK(array_cpp.substr(next, indent.size() + std::string(kVectorHook).size()) == indent + kVectorHook);
    CHECK(count_occurrences(array_cpp, "#include \"memtracer/memtracer_il2cpp_hooks.h\"") == 1);
}

}  // namespace

TEST_CASE("every libil2cpp layout: check, apply, apply again, revert byte for byte") {
    const std::string version = GENERATE(from_range(fixture_versions()));
    INFO("fixture " << version);
    fs::path dir = make_temp_dir("patch-" + version);
    fs::path lib = stage_fixture(version, dir);
    const Tree before = snapshot(dir);
    const std::string object_before = read_file(lib / "vm/Object.cpp");

    ProcessResult r = patch_script(dir / "il2cpp", {"--check"});
    CHECK(r.exit_code == 3);
    CHECK(r.output.find("not patched") != std::string::npos);

    r = patch_script(dir / "il2cpp");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("layout '" + expected_layout(version) + "'") != std::string::npos);

    const std::string object = read_file(lib / "vm/Object.cpp");
    // The Boehm branch's four defines are renamed, bodies untouched; SGen and no-GC keep theirs.
    CHECK(count_occurrences(object, "#define MEMTRACER_ORIG_ALLOC_") == 4);
    CHECK(count_occurrences(object, "#define ALLOC_PTRFREE(") == count_occurrences(object_before, "#define ALLOC_PTRFREE(") - 1);
    CHECK(count_occurrences(object, "#define ALLOC_TYPED(") == count_occurrences(object_before, "#define ALLOC_TYPED(") - 2);
    CHECK(count_occurrences(object, "mono_gc_alloc_obj") == count_occurrences(object_before, "mono_gc_alloc_obj"));
    CHECK(object.find("#endif\n#include \"memtracer/memtracer_il2cpp_hooks.h\"") != std::string::npos);
    CHECK(fs::is_regular_file(lib / "memtracer/memtracer_il2cpp_hooks.h"));
    CHECK(fs::is_regular_file(lib / "memtracer/memtracer.h"));
    CHECK(read_file(lib / "memtracer/backup/vm/Object.cpp.orig") == object_before);
    if (fixture_has_vector_path(version)) {
        check_vector_hook(read_file(lib / "vm/Array.cpp"));
        CHECK(r.output.find("layout 'array-gcj-vector'") != std::string::npos);
    } else if (fs::exists(lib / "vm/Array.cpp")) {
        CHECK(read_file(lib / "vm/Array.cpp") == before.at("il2cpp/libil2cpp/vm/Array.cpp").bytes);
        CHECK(r.output.find("no GC_gcj_vector_malloc path") != std::string::npos);
    }

    CHECK(patch_script(dir / "il2cpp", {"--check"}).exit_code == 0);
    const Tree patched = snapshot(dir);
    r = patch_script(dir / "il2cpp");
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("already patched") != std::string::npos);
    CHECK(first_difference(patched, snapshot(dir)) == "");

    r = patch_script(dir / "il2cpp", {"--revert"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(first_difference(before, snapshot(dir)) == "");
    CHECK(patch_script(dir / "il2cpp", {"--check"}).exit_code == 3);
    CHECK(patch_script(dir / "il2cpp", {"--revert"}).output.find("nothing to revert") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("CRLF line endings and file modes survive a patch and its revert") {
    fs::path dir = make_temp_dir("patch-crlf");
    fs::path lib = stage_fixture("2022.x", dir);
    for (const char *f : {"vm/Object.cpp", "vm/Array.cpp"}) {
        std::string text = read_file(lib / f), crlf;
        for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        write_file(lib / f, crlf);
    }
    chmod((lib / "vm/Object.cpp").c_str(), 0640);
    const Tree before = snapshot(dir);

    ProcessResult r = patch_script(dir / "il2cpp");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    for (const char *f : {"vm/Object.cpp", "vm/Array.cpp"}) {
        std::string text = read_file(lib / f);
        size_t lone = 0;
        for (size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r')) ++lone;
        CHECK(lone == 0);
    }
    struct stat st;
    REQUIRE(stat((lib / "vm/Object.cpp").c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);

    REQUIRE(patch_script(dir / "il2cpp", {"--revert"}).exit_code == 0);
    CHECK(first_difference(before, snapshot(dir)) == "");
    fs::remove_all(dir);
}

TEST_CASE("finds libil2cpp in Editors, Unity.app, and exported Xcode and Gradle projects") {
    struct Layout {
        const char *under;  // where libil2cpp's parent goes
        const char *arg;    // what the user passes to --unity
        const char *what;   // how the script names it
    };
    const Layout layouts[] = {
        {"Editor/Data/il2cpp", "", "Unity Editor install (Windows/Linux)"},
        {"Editor/Data/il2cpp", "Editor", "Unity Editor (Windows/Linux)"},
        {"Unity.app/Contents/il2cpp", "", "Unity Editor install (macOS)"},
        {"Unity.app/Contents/il2cpp", "Unity.app", "Unity.app (macOS)"},
        {"Il2CppOutputProject/IL2CPP", "", "exported Xcode project"},
        {"unityLibrary/src/main/Il2CppOutputProject/IL2CPP", "", "exported Gradle project"},
        {"unityLibrary/src/main/Il2CppOutputProject/IL2CPP", "unityLibrary", "Gradle unityLibrary module"},
        {"il2cpp", "il2cpp/libil2cpp", "libil2cpp folder"},
    };
    for (const Layout &l : layouts) {
        INFO(l.under << " via --unity <dir>/" << l.arg);
        fs::path dir = make_temp_dir("patch-find");
        fs::path lib = stage_fixture("6000.x", dir, l.under);
        ProcessResult r = patch_script(dir / l.arg);
        INFO(r.output);
        CHECK(r.exit_code == 0);
        CHECK(r.output.find(std::string("[") + l.what + "]") != std::string::npos);
        CHECK(read_file(lib / "vm/Object.cpp").find("MEMTRACER_ORIG_ALLOC_OBJECT") != std::string::npos);
        fs::remove_all(dir);
    }
}

TEST_CASE("every libil2cpp under one folder is patched, or none is") {
    fs::path dir = make_temp_dir("patch-two");
    fs::path app = stage_fixture("2022.x", dir, "Unity.app/Contents/il2cpp");
    fs::path ios = stage_fixture("2022.x", dir, "PlaybackEngines/iOSSupport/il2cpp");
    ProcessResult r = patch_script(dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(count_occurrences(r.output, ": patched") == 2);
    REQUIRE(patch_script(dir, {"--revert"}).exit_code == 0);

    // One copy edited by hand: the other is not patched either.
    std::string object = read_file(ios / "vm/Object.cpp");
    object.replace(object.find("GC_MALLOC ((size))"), 18, "GC_MALLOC((size))");
    write_file(ios / "vm/Object.cpp", object);
    const Tree before = snapshot(dir);
    r = patch_script(dir);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("unknown layout") != std::string::npos);
    CHECK(first_difference(before, snapshot(dir)) == "");
    fs::remove_all(dir);
}

TEST_CASE("an old Xcode export and a folder without libil2cpp are reported, not guessed at") {
    fs::path dir = make_temp_dir("patch-none");
    fs::create_directories(dir / "old/Libraries/libil2cpp/include");
    ProcessResult r = patch_script(dir / "old");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("prebuilt") != std::string::npos);
    r = patch_script(dir);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("no libil2cpp") != std::string::npos);
    CHECK(r.output.find("Il2CppOutputProject/IL2CPP/libil2cpp") != std::string::npos);
    r = patch_script(dir / "missing");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("not a folder") != std::string::npos);
    fs::remove_all(dir);
}
