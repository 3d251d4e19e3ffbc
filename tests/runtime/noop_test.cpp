// MEMTRACER_NOOP: the library variant (noop.cpp, linked here as memtracer_noop) and the header's
// inline MT_NOOP variant both turn every call into nothing and say so.
#include <catch2/catch.hpp>

#include "memtracer/memtracer.h"

mt_status noop_inline_start();  // noop_inline.cpp, compiled with MT_NOOP

TEST_CASE("the no-op library records nothing and returns MT_ERR_NOOP_BUILD", "[noop]") {
    mt_config c{};
    CHECK(mt_config_init(&c) == MT_ERR_NOOP_BUILD);
    c.output_path = "/tmp/never-created.mt";
    CHECK(mt_start(&c) == MT_ERR_NOOP_BUILD);
    mt_on_alloc(nullptr, nullptr, 16);
    CHECK(mt_frame_end(1) == MT_ERR_NOOP_BUILD);
    CHECK(mt_pause() == MT_ERR_NOOP_BUILD);
    CHECK(mt_resume() == MT_ERR_NOOP_BUILD);
    CHECK(mt_set_thread_name("x") == MT_ERR_NOOP_BUILD);
    mt_counters k;
    CHECK(mt_get_counters(&k) == MT_ERR_NOOP_BUILD);
    CHECK(mt_stop() == MT_ERR_NOOP_BUILD);
    CHECK(mt_attach_il2cpp() == MT_ERR_NOOP_BUILD);
    mt_il2cpp_type_api types{sizeof(mt_il2cpp_type_api), nullptr, nullptr, nullptr, nullptr, nullptr};
    CHECK(mt_set_il2cpp_type_api(&types) == MT_ERR_NOOP_BUILD);
    CHECK(std::string(mt_status_string(MT_OK)).find("NOOP") != std::string::npos);
    CHECK(noop_inline_start() == MT_ERR_NOOP_BUILD);
}
