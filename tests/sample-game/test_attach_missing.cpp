// mt_attach_il2cpp in a process without il2cpp: a clear error naming what is missing.
#include <catch2/catch.hpp>
#include <memtracer/memtracer.h>

#include <string>

TEST_CASE("mt_attach_il2cpp names the il2cpp symbol it could not find") {
    CHECK(mt_attach_il2cpp() == MT_ERR_IL2CPP_NOT_FOUND);
    const std::string why = mt_last_error();
    CHECK(why.find("MT_ERR_IL2CPP_NOT_FOUND") != std::string::npos);
    CHECK(why.find("il2cpp_profiler_install") != std::string::npos);
    CHECK(mt_attach_il2cpp() == MT_ERR_IL2CPP_NOT_FOUND);  // still nothing half installed
}
