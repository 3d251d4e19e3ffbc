// The shared build (libmemtracer.so, target memtracer_shared) loaded with dlopen, as a plug-in
// loader would: its dynamic-model TLS and exported API work end to end; and a process that exits
// without mt_stop still leaves a clean file (atexit handler, END reason MT_END_THREAD_EXIT).
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "memtracer/format.h"
#include "memtracer/memtracer.h"
#include "memtracer/reader.h"

namespace {

struct Api {
    void *lib = nullptr;
    mt_status (*config_init)(mt_config *) = nullptr;
    mt_status (*start)(const mt_config *) = nullptr;
    mt_status (*stop)() = nullptr;
    mt_status (*frame_end)(uint64_t) = nullptr;
    void (*on_alloc)(void *, void *, size_t) = nullptr;
    const char *(*last_error)() = nullptr;
};

template <class F>
void bind(void *lib, const char *name, F &f) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    REQUIRE(f != nullptr);
}

Api load() {
    Api a;
    a.lib = dlopen(MT_SHARED_LIB, RTLD_NOW | RTLD_LOCAL);
    INFO(dlerror());
    REQUIRE(a.lib != nullptr);
    bind(a.lib, "mt_config_init", a.config_init);
    bind(a.lib, "mt_start", a.start);
    bind(a.lib, "mt_stop", a.stop);
    bind(a.lib, "mt_frame_end", a.frame_end);
    bind(a.lib, "mt_on_alloc", a.on_alloc);
    bind(a.lib, "mt_last_error", a.last_error);
    return a;
}

}  // namespace

TEST_CASE("dlopen'ed shared runtime records from several threads", "[shared]") {
    Api a = load();
    std::string path = "/tmp/mt_rt_dlopen_" + std::to_string(getpid()) + ".mt";
    mt_config c;
    REQUIRE(a.config_init(&c) == MT_OK);
    c.output_path = path.c_str();
    c.on_full = MT_ON_FULL_BLOCK;
    REQUIRE(a.start(&c) == MT_OK);
    int klass = 0;
    std::thread t([&] {
        for (int i = 0; i < 1000; ++i) a.on_alloc(reinterpret_cast<void *>(0x1000 + i * 16), &klass, 16);
    });
    for (int i = 0; i < 1000; ++i) a.on_alloc(reinterpret_cast<void *>(0x900000 + i * 16), &klass, 32);
    t.join();
    REQUIRE(a.frame_end(1) == MT_OK);
    REQUIRE(a.stop() == MT_OK);
    auto run = mt::reader::load_file(path);
    unlink(path.c_str());
    REQUIRE(run.result.clean());
    size_t events = 0;
    for (const auto &f : run.frames) events += f.event_list.size();
    CHECK(events == 2000);
    CHECK(run.threads.size() == 2);
    CHECK(run.header.info_value("process").size() > 0);
}

TEST_CASE("exit without mt_stop still ends the file cleanly", "[shared][atexit]") {
    std::string path = "/tmp/mt_rt_atexit_" + std::to_string(getpid()) + ".mt";
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // child: capture, allocate, exit(0) with the capture running
        Api a = load();
        mt_config c;
        a.config_init(&c);
        c.output_path = path.c_str();
        c.on_full = MT_ON_FULL_BLOCK;
        if (a.start(&c) != MT_OK) _exit(2);
        int klass = 0;
        for (int i = 0; i < 300; ++i) a.on_alloc(reinterpret_cast<void *>(0x1000 + i * 16), &klass, 16);
        a.frame_end(7);
        for (int i = 0; i < 200; ++i) a.on_alloc(reinterpret_cast<void *>(0x9000 + i * 16), &klass, 16);
        exit(0);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    auto run = mt::reader::load_file(path);
    unlink(path.c_str());
    REQUIRE(run.result.clean());
    CHECK(run.result.end_reason == MT_END_THREAD_EXIT);
    REQUIRE(run.frames.size() == 2);
    CHECK(run.frames[0].index == 7);
    CHECK(run.frames[0].event_list.size() == 300);
    CHECK((run.frames[1].flags & MT_FRAME_FINAL) != 0);
    CHECK(run.frames[1].event_list.size() == 200);
}
