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
