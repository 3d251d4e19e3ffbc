// The settings the Unity package bakes into a player (SettingsSource.cs -> memtracer_settings.c)
// reach the plug-in entry: read when the environment is silent, overridden by it, and absent from
// the plug-in the repository builds on its own. baked-project/ holds the Project Settings used.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <stdlib.h>

#include <memtracer/memtracer.h>

#include <filesystem>
#include <string>

extern "C" const char *memtracer_unity_setting(const char *name);
extern "C" int memtracer_unity_start();

namespace {
std::string setting(const char *name) {
    const char *v = memtracer_unity_setting(name);
    return v != nullptr ? v : "<unset>";
}
}  // namespace

TEST_CASE("baked settings are read where the environment has none, and the environment wins") {
    for (const char *n : {"MEMTRACER_MODE", "MEMTRACER_DEPTH", "MEMTRACER_HOOK", "MEMTRACER_FLAGS", "MEMTRACER_TOKEN",
                          "MEMTRACER_SCENE_MARKS", "MEMTRACER_CONNECT"})
        unsetenv(n);
    CHECK(setting("MEMTRACER_MODE") == "aggregate");
    CHECK(setting("MEMTRACER_DEPTH") == "7");
    CHECK(setting("MEMTRACER_HOOK") == "patch");
    CHECK(setting("MEMTRACER_FLAGS") == "3");  // GC events (default on) + lifetimes
    CHECK(setting("MEMTRACER_TOKEN") == "s3cret \"q\" \xc3\xa9");  // quotes and UTF-8 survive the C string
    CHECK(setting("MEMTRACER_SCENE_MARKS") == "0");
    CHECK(setting("MEMTRACER_CONNECT") == "<unset>");
    setenv("MEMTRACER_MODE", "events", 1);
    CHECK(setting("MEMTRACER_MODE") == "events");
    setenv("MEMTRACER_MODE", "", 1);  // empty counts as unset
    CHECK(setting("MEMTRACER_MODE") == "aggregate");
    unsetenv("MEMTRACER_MODE");
}

TEST_CASE("a capture starts from the baked settings, and a bad environment value is refused by mt_start") {
    auto out = std::filesystem::temp_directory_path() / "mt_unity_package_baked.mt";
    setenv("MEMTRACER_OUTPUT", out.c_str(), 1);
    setenv("MEMTRACER_DEPTH", "500", 1);  // beyond MT_MAX_STACK_DEPTH: the environment reaches mt_start
    CHECK(memtracer_unity_start() == MT_ERR_MAX_DEPTH);
    unsetenv("MEMTRACER_DEPTH");  // the baked 7 applies
    REQUIRE(memtracer_unity_start() == MT_OK);
    CHECK(mt_stop() == MT_OK);
    CHECK(std::filesystem::file_size(out) > 0);
    std::filesystem::remove(out);
    unsetenv("MEMTRACER_OUTPUT");
}

TEST_CASE("the plug-in built by the repository alone has no baked settings") {
    void *lib = dlopen(MEMTRACER_UNITY_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    REQUIRE(lib != nullptr);
    auto fn = reinterpret_cast<const char *(*)(const char *)>(dlsym(lib, "memtracer_unity_setting"));
    REQUIRE(fn != nullptr);
    unsetenv("MEMTRACER_MODE");
    CHECK(fn("MEMTRACER_MODE") == nullptr);
    setenv("MEMTRACER_MODE", "events", 1);
    CHECK(std::string(fn("MEMTRACER_MODE")) == "events");
    unsetenv("MEMTRACER_MODE");
    dlclose(lib);
}
