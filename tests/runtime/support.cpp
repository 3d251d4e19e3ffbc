// support.cpp — see support.h.
#include "support.h"
#ifdef MT_TEST_STATIC_EXE
#include "static_exe.h"
#endif

#include <catch2/catch.hpp>
#include <cxxabi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>

// The il2cpp class API as IL2CPP exports it, over FakeClass. Found by the runtime with dlsym.
extern "C" {
__attribute__((visibility("default"))) const char *il2cpp_class_get_name(void *k) {
    return static_cast<mtt::FakeClass *>(k)->name;
}
__attribute__((visibility("default"))) const char *il2cpp_class_get_namespace(void *k) {
    return static_cast<mtt::FakeClass *>(k)->name_space;
}
__attribute__((visibility("default"))) bool il2cpp_class_is_valuetype(void *k) {
    return static_cast<mtt::FakeClass *>(k)->value_type;
}
__attribute__((visibility("default"))) int il2cpp_class_get_rank(void *k) { return static_cast<mtt::FakeClass *>(k)->rank; }
__attribute__((visibility("default"))) int il2cpp_array_element_size(void *k) {
    return static_cast<mtt::FakeClass *>(k)->element_size;
}
}

namespace mtt {

FakeClass kString{"String", "System", false, 0, 0};
FakeClass kIntArray{"Int32[]", "System", false, 1, 4};
FakeClass kVector3{"Vector3", "UnityEngine", true, 0, 0};
FakeClass kPlayer{"Player", "Game.Actors", false, 0, 0};

std::string temp_path(const std::string &tag) {
    static int n = 0;
    return "/tmp/mt_rt_" + std::to_string(getpid()) + "_" + std::to_string(n++) + "_" + tag + ".mt";
}

mt_config make_config(const std::string &path) {
    static std::string keep;  // the config points at it until mt_start copies what it needs
    keep = path;
    mt_config c;
    REQUIRE(mt_config_init(&c) == MT_OK);
    c.output_path = keep.c_str();
    c.drain_interval_us = 500;
    c.random_seed = 12345;
    c.session_label = "runtime-test";
    return c;
}

void start(const mt_config &c) {
    mt_status st = mt_start(&c);
    INFO("mt_start: " << mt_last_error());
    REQUIRE(st == MT_OK);
}

mt::reader::Run stop_and_load(const std::string &path, mt_status want) {
    mt_status st = mt_stop();
    INFO("mt_stop: " << mt_last_error());
    REQUIRE(st == want);
    mt::reader::Run run = mt::reader::load_file(path);
    INFO("reader stop: " << run.result.stop_reason);
    REQUIRE(run.result.usable());
    unlink(path.c_str());
    return run;
}

mt_counters counters() {
    mt_counters c;
    REQUIRE(mt_get_counters(&c) == MT_OK);
    return c;
}

std::vector<mt::reader::Event> all_events(const mt::reader::Run &run) {
    std::vector<mt::reader::Event> out;
    for (const auto &f : run.frames) out.insert(out.end(), f.event_list.begin(), f.event_list.end());
    return out;
}

__attribute__((noinline)) void alloc_same_site(int n, FakeClass *k, uint64_t base_addr, uint64_t size) {
    for (int i = 0; i < n; ++i)
        mt_on_alloc(reinterpret_cast<void *>(base_addr + static_cast<uint64_t>(i) * 16), k, size);
    asm volatile("" ::: "memory");  // no tail call: keep this frame on the stack
}

__attribute__((noinline)) void alloc_at_depth(int depth, void *obj, FakeClass *k, size_t size) {
    if (depth <= 1)
        mt_on_alloc(obj, k, size);
    else
        alloc_at_depth(depth - 1, obj, k, size);
    asm volatile("" ::: "memory");
}

FileSizeLimit::FileSizeLimit(rlim_t bytes) {
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old_) == 0);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = old_;
    lim.rlim_cur = bytes;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
}

FileSizeLimit::~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
}

uint64_t frames_until_disabled(uint64_t frame) {
    // A guard against a writer that stopped, not a time the test expects: the writer commits
    // asynchronously, so a count of frames could end before a slow (sanitized, loaded) writer
    // reached the limit.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    for (; !counters().disabled && std::chrono::steady_clock::now() < give_up; ++frame) {
        for (int i = 0; i < 50; ++i)
            alloc_at_depth(1 + i % 7, reinterpret_cast<void *>(0x10000 + frame * 4096 + i * 64), &kPlayer, 64);
        mt_frame_end(frame);
        usleep(500);
    }
    return frame;
}

std::string symbol_of(uint64_t addr) {
    Dl_info info;
    std::string name;
    if (dladdr(reinterpret_cast<void *>(addr), &info) && info.dli_sname)
        name = info.dli_sname;
#ifdef MT_TEST_STATIC_EXE
    else if (const char *s = mt_static_exe_function_at(addr))  // no dynamic symbols to ask
        name = s;
#endif
    if (name.empty()) return "";
    int status = 0;
    std::unique_ptr<char, void (*)(void *)> dem(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && dem ? std::string(dem.get()) : name;
}

std::string run_command(const std::string &cmd) {
    std::string out;
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
    return out;
}

}  // namespace mtt
