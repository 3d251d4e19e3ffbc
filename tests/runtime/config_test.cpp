// Every invalid config field is rejected with its own status, mt_last_error names the field, and
// nothing is started: no capture runs and no file is created.
#include <catch2/catch.hpp>

#include <functional>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

namespace {

struct Case {
    const char *what;
    mt_status want;
    const char *field;  // must appear in mt_last_error()
    std::function<void(mt_config &)> spoil;
};

bool exists(const std::string &p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0;
}

}  // namespace

TEST_CASE("each invalid config field has its own status and starts nothing", "[config]") {
    std::string path = mtt::temp_path("config");
    static std::string long_path(MT_MAX_PATH + 1, 'x');
    const std::vector<Case> cases = {
        {"struct_size", MT_ERR_CONFIG_SIZE, "struct_size", [](mt_config &c) { c.struct_size = 8; }},
        {"null path", MT_ERR_OUTPUT_PATH, "output_path", [](mt_config &c) { c.output_path = nullptr; }},
        {"empty path", MT_ERR_OUTPUT_PATH, "output_path", [](mt_config &c) { c.output_path = ""; }},
        {"long path", MT_ERR_OUTPUT_PATH, "output_path", [](mt_config &c) { c.output_path = long_path.c_str(); }},
        {"ring not pow2", MT_ERR_RING_CAPACITY, "ring_capacity", [](mt_config &c) { c.ring_capacity = 5000; }},
        {"ring small", MT_ERR_RING_CAPACITY, "ring_capacity", [](mt_config &c) { c.ring_capacity = 2048; }},
        {"ring large", MT_ERR_RING_CAPACITY, "ring_capacity", [](mt_config &c) { c.ring_capacity = 512u << 20; }},
        {"depth 0", MT_ERR_MAX_DEPTH, "max_stack_depth", [](mt_config &c) { c.max_stack_depth = 0; }},
        {"depth big", MT_ERR_MAX_DEPTH, "max_stack_depth", [](mt_config &c) { c.max_stack_depth = MT_MAX_STACK_DEPTH + 1; }},
        {"unwinder", MT_ERR_UNWINDER, "unwinder", [](mt_config &c) { c.unwinder = static_cast<mt_unwinder>(7); }},
        {"mode", MT_ERR_MODE, "mode", [](mt_config &c) { c.mode = static_cast<mt_mode>(9); }},
        {"sampling", MT_ERR_SAMPLING, "sample_interval_bytes",
         [](mt_config &c) { c.sample_interval_bytes = MT_MAX_SAMPLE_INTERVAL + 1; }},
        {"threads 0", MT_ERR_MAX_THREADS, "max_threads", [](mt_config &c) { c.max_threads = 0; }},
        {"threads big", MT_ERR_MAX_THREADS, "max_threads", [](mt_config &c) { c.max_threads = MT_MAX_THREADS + 1; }},
        {"on_full", MT_ERR_FULL_POLICY, "on_full", [](mt_config &c) { c.on_full = static_cast<mt_full_policy>(3); }},
        {"drain small", MT_ERR_DRAIN_INTERVAL, "drain_interval_us", [](mt_config &c) { c.drain_interval_us = 99; }},
        {"drain big", MT_ERR_DRAIN_INTERVAL, "drain_interval_us", [](mt_config &c) { c.drain_interval_us = 1000001; }},
        {"flags", MT_ERR_FLAGS, "flags", [](mt_config &c) { c.flags = 0x100; }},
        {"unwritable", MT_ERR_OPEN_OUTPUT, "/nonexistent-dir",
         [](mt_config &c) { c.output_path = "/nonexistent-dir/run.mt"; }},
        {"device full", MT_ERR_OPEN_OUTPUT, "No space left", [](mt_config &c) { c.output_path = "/dev/full"; }},
    };
    for (const auto &k : cases) {
        INFO(k.what);
        mt_config c = mtt::make_config(path);
        k.spoil(c);
        CHECK(mt_start(&c) == k.want);
        CHECK(std::string(mt_last_error()).find(k.field) != std::string::npos);
        CHECK(mtt::counters().running == 0);
        CHECK(mt_stop() == MT_ERR_NOT_STARTED);
        CHECK_FALSE(exists(path));
    }
    CHECK(mt_start(nullptr) == MT_ERR_CONFIG_NULL);
    CHECK(mt_config_init(nullptr) == MT_ERR_CONFIG_NULL);
    CHECK(mt_get_counters(nullptr) == MT_ERR_ARGUMENT);
    CHECK(mt_set_thread_name(nullptr) == MT_ERR_ARGUMENT);
    // The boundaries themselves are valid.
    mt_config ok = mtt::make_config(path);
    ok.ring_capacity = MT_MIN_RING;
    ok.max_stack_depth = MT_MAX_STACK_DEPTH;
    ok.max_threads = MT_MAX_THREADS;
    ok.drain_interval_us = 100;
    ok.sample_interval_bytes = MT_MAX_SAMPLE_INTERVAL;
    ok.flags = MT_FLAGS_ALL;
    mtt::start(ok);
    CHECK(mt_start(&ok) == MT_ERR_ALREADY_STARTED);
    CHECK(std::string(mt_last_error()).find("ALREADY_STARTED") != std::string::npos);
    auto run = mtt::stop_and_load(path);
    CHECK(run.result.clean());
}

TEST_CASE("status strings name every status", "[config]") {
    for (int s : {0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 30, 31, 32, 33, 40}) {
        std::string str = mt_status_string(static_cast<mt_status>(s));
        CHECK(str.rfind("MT_", 0) == 0);
    }
    CHECK(std::string(mt_status_string(static_cast<mt_status>(999))) == "unknown mt_status");
}
