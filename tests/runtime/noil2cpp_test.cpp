// A process without il2cpp's class API (no stand-ins exported here): classes are written as
// "0x<klass>" with MT_CLASS_UNRESOLVED, and everything else still works.
#include <catch2/catch.hpp>

#include <cstdio>
#include <unistd.h>

#include "memtracer/format.h"
#include "memtracer/memtracer.h"
#include "memtracer/reader.h"

TEST_CASE("without il2cpp_class_get_name, classes are unresolved addresses", "[classes]") {
    std::string path = "/tmp/mt_rt_noil2cpp_" + std::to_string(getpid()) + ".mt";
    mt_config c;
    REQUIRE(mt_config_init(&c) == MT_OK);
    c.output_path = path.c_str();
    REQUIRE(mt_start(&c) == MT_OK);
    int klass_a = 0, klass_b = 0;
    for (int i = 0; i < 10; ++i) mt_on_alloc(reinterpret_cast<void *>(0x1000 + i * 16), i % 2 ? &klass_a : &klass_b, 16);
    REQUIRE(mt_stop() == MT_OK);
    auto run = mt::reader::load_file(path);
    unlink(path.c_str());
    REQUIRE(run.result.clean());
    REQUIRE(run.classes.size() == 2);
    for (const auto &k : run.classes) {
        char want[32];
        snprintf(want, sizeof want, "0x%llx", static_cast<unsigned long long>(k.klass));
        CHECK(k.name == want);
        CHECK(k.name_space.empty());
        CHECK(k.flags == MT_CLASS_UNRESOLVED);
    }
    CHECK(mt_attach_il2cpp() != MT_OK);
}

namespace {
// Not exported, as in a statically linked player that hides il2cpp's API from dlsym.
struct HiddenClass { const char *name, *ns; int element_size; };
const char *hidden_name(void *k) { return static_cast<HiddenClass *>(k)->name; }
const char *hidden_namespace(void *k) { return static_cast<HiddenClass *>(k)->ns; }
int hidden_element_size(void *k) { return static_cast<HiddenClass *>(k)->element_size; }
}  // namespace

TEST_CASE("mt_set_il2cpp_class_api names classes that dlsym cannot find", "[classes]") {
    std::string path = "/tmp/mt_rt_given_api_" + std::to_string(getpid()) + ".mt";
    mt_il2cpp_class_api api{&hidden_name, &hidden_namespace, &hidden_element_size};
    REQUIRE(mt_set_il2cpp_class_api(&api) == MT_OK);
    mt_config c;
    REQUIRE(mt_config_init(&c) == MT_OK);
    c.output_path = path.c_str();
    REQUIRE(mt_start(&c) == MT_OK);
    HiddenClass chars{"Char[]", "System", 2};
    HiddenClass enemy{"Enemy", "Game", 0};
    for (int i = 0; i < 10; ++i) mt_on_alloc(reinterpret_cast<void *>(0x1000 + i * 16), i % 2 ? &chars : &enemy, 16);
    REQUIRE(mt_stop() == MT_OK);
    REQUIRE(mt_set_il2cpp_class_api(nullptr) == MT_OK);
    auto run = mt::reader::load_file(path);
    unlink(path.c_str());
    REQUIRE(run.classes.size() == 2);
    for (const auto &k : run.classes) {
        CHECK((k.flags & MT_CLASS_UNRESOLVED) == 0);
        if (k.name == "Char[]") {
            CHECK(k.name_space == "System");
            CHECK(k.element_size == 2);
        } else {
            CHECK(k.name == "Enemy");
            CHECK(k.name_space == "Game");
        }
    }
}
