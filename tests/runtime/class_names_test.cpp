// Class names as C# programmers read them, end to end: a shared library shaped like libil2cpp's
// exports (il2cpp_types_fixture.cpp) names the classes, a capture writes run.mt, the reader reads
// it back. Compiled twice: with the type-name API (IL names, every string freed with il2cpp_free)
// and, with MT_FIXTURE_NO_TYPE_API, without it (namespace + name, made unique by suffixes).
// In both, no two classes share "namespace.name" — what every view, export and Compare shows.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "memtracer/format.h"
#include "memtracer/memtracer.h"
#include "memtracer/reader.h"

extern "C" void *fixture_class(const char *key);
extern "C" long fixture_live_names();

namespace {

// Allocation order is the order the writer meets the classes in, so it fixes who keeps a
// contested name: Enemy (Assembly-CSharp) before its namesake from firstpass, and so on.
const std::vector<std::string> kOrder = {
    "Int32",       "String",      "Enemy",       "EnemyFirstpass",
    "Outer.Inner", "Other.Inner", "List<Enemy>", "List<Int32>",
    "Dictionary<String,List<Enemy>>", "Int32[]", "Int32[*]", "Int32[,]", "List<Enemy>[]"};

struct Named {
    std::string ns, name;
    uint32_t flags;
    uint64_t element_size;
};

std::string full(const Named &n) { return n.ns.empty() ? n.name : n.ns + "." + n.name; }

// One capture allocating one object of every class; returns key -> how the file names it.
std::map<std::string, Named> capture_names() {
    std::string path = "/tmp/mt_rt_class_names_" + std::to_string(getpid()) + ".mt";
    mt_config c;
    REQUIRE(mt_config_init(&c) == MT_OK);
    c.output_path = path.c_str();
    REQUIRE(mt_start(&c) == MT_OK);
    std::map<uint64_t, std::string> key_of;
    uint64_t addr = 0x10000;
    for (const auto &key : kOrder) {
        void *k = fixture_class(key.c_str());
        REQUIRE(k);
        key_of[reinterpret_cast<uint64_t>(k)] = key;
        for (int i = 0; i < 3; ++i) mt_on_alloc(reinterpret_cast<void *>(addr += 64), k, 32);
    }
    REQUIRE(mt_stop() == MT_OK);
    auto run = mt::reader::load_file(path);
    unlink(path.c_str());
    REQUIRE(run.result.clean());
    std::map<std::string, Named> out;
    for (const auto &k : run.classes) out[key_of.at(k.klass)] = Named{k.name_space, k.name, k.flags, k.element_size};
    REQUIRE(out.size() == kOrder.size());
    return out;
}

void check_distinct(const std::map<std::string, Named> &names) {
    std::set<std::string> seen;
    for (const auto &[key, n] : names) {
        INFO(key << " -> " << full(n));
        CHECK(seen.insert(full(n)).second);
    }
}

}  // namespace

#ifndef MT_FIXTURE_NO_TYPE_API

TEST_CASE("classes are named by il2cpp_type_get_name, IL format, and every name is freed", "[classes]") {
    auto names = capture_names();
    const std::map<std::string, std::string> want = {
        {"Int32", "System.Int32"},
        {"String", "System.String"},
        {"Enemy", "Enemy"},
        {"EnemyFirstpass", "Enemy [Assembly-CSharp-firstpass.dll]"},  // same IL name, other assembly
        {"Outer.Inner", "Game.Outer.Inner"},
        {"Other.Inner", "Game.Other.Inner"},
        {"List<Enemy>", "System.Collections.Generic.List<Enemy>"},
        {"List<Int32>", "System.Collections.Generic.List<System.Int32>"},
        {"Dictionary<String,List<Enemy>>",
         "System.Collections.Generic.Dictionary<System.String,System.Collections.Generic.List<Enemy>>"},
        {"Int32[]", "System.Int32[]"},
        {"Int32[*]", "System.Int32[*]"},
        {"Int32[,]", "System.Int32[,]"},
        {"List<Enemy>[]", "System.Collections.Generic.List<Enemy>[]"},
    };
    for (const auto &[key, name] : want) {
        INFO(key);
        CHECK(full(names.at(key)) == name);
    }
    check_distinct(names);
    // The namespace stays il2cpp's, and name is the rest of the IL name.
    CHECK(names.at("List<Int32>").ns == "System.Collections.Generic");
    CHECK(names.at("List<Int32>").name == "List<System.Int32>");
    CHECK(names.at("Outer.Inner").ns.empty());  // nested: il2cpp's namespace is empty
    // Flags still come from the class API.
    CHECK(names.at("String").flags == MT_CLASS_STRING);
    CHECK(names.at("Int32").flags == MT_CLASS_VALUE_TYPE);
    CHECK(names.at("Int32[,]").flags == MT_CLASS_ARRAY);
    CHECK(names.at("Int32[,]").element_size == 4);
    CHECK(names.at("List<Enemy>[]").flags == MT_CLASS_ARRAY);
    CHECK(fixture_live_names() == 0);  // every il2cpp_type_get_name string went to il2cpp_free
}

namespace {
int g_given_calls = 0;
char *counting_type_get_name(const void *type) {
    ++g_given_calls;
    static auto real = reinterpret_cast<char *(*)(const void *)>(dlsym(RTLD_DEFAULT, "il2cpp_type_get_name"));
    return real(type);
}
}  // namespace

TEST_CASE("mt_set_il2cpp_type_api: given functions win, a short struct is refused", "[classes]") {
    mt_il2cpp_type_api api{};
    api.struct_size = 4;
    CHECK(mt_set_il2cpp_type_api(&api) == MT_ERR_ARGUMENT);
    CHECK(std::string(mt_last_error()).find("struct_size") != std::string::npos);
    api.struct_size = sizeof api;
    api.type_get_name = &counting_type_get_name;  // the rest: dlsym
    REQUIRE(mt_set_il2cpp_type_api(&api) == MT_OK);
    auto names = capture_names();
    REQUIRE(mt_set_il2cpp_type_api(nullptr) == MT_OK);
    CHECK(g_given_calls == static_cast<int>(kOrder.size()));
    CHECK(full(names.at("List<Int32>")) == "System.Collections.Generic.List<System.Int32>");
    CHECK(fixture_live_names() == 0);
    check_distinct(names);
}

#else

TEST_CASE("without il2cpp_type_get_name: namespace + name, made unique", "[classes]") {
    auto names = capture_names();
    const std::map<std::string, std::string> want = {
        {"Int32", "System.Int32"},
        {"String", "System.String"},
        {"Enemy", "Enemy"},
        {"EnemyFirstpass", "Enemy [Assembly-CSharp-firstpass.dll]"},
        {"Outer.Inner", "Inner"},
        {"Other.Inner", "Inner #2"},  // same name, same assembly: numbered in order of first allocation
        {"List<Enemy>", "System.Collections.Generic.List`1"},
        {"List<Int32>", "System.Collections.Generic.List`1 #2"},
        {"Dictionary<String,List<Enemy>>", "System.Collections.Generic.Dictionary`2"},
        {"Int32[]", "System.Int32[]"},
        {"Int32[*]", "System.Int32[*]"},
        {"Int32[,]", "System.Int32[,]"},
        {"List<Enemy>[]", "System.Collections.Generic.List`1[]"},
    };
    for (const auto &[key, name] : want) {
        INFO(key);
        CHECK(full(names.at(key)) == name);
    }
    check_distinct(names);
}

#endif
