// The writer's poll of the OS thread names (thread_names.cpp: thread_names_refresh_os), during a
// capture: a thread the game did not name picks up its OS rename (pthread_setname_np), and a
// thread the game named (mt_set_thread_name) keeps that name, its /proc read skipped. The test
// waits for the state (the writer's poll has run), never for a time.
#include <catch2/catch.hpp>

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>

#include "state.h"
#include "support.h"

namespace {

// The name the capture's slot of OS thread `tid` holds now ("" if it has none).
std::string slot_name_of(uint64_t tid) {
    for (uint32_t i = 0; i < mt::rt::g.max_threads; ++i) {
        const mt::rt::ThreadSlot &s = mt::rt::g.slots[i];
        if (s.state.load() != mt::rt::SLOT_OWNED || s.gen.load() != mt::rt::g.gen.load() || s.os_tid != tid) continue;
        char name[mt::rt::kNameMax];
        mt::rt::slot_read_name(s, name);
        return name;
    }
    return "";
}

}  // namespace

#if defined(__linux__)
TEST_CASE("the OS name poll: an unnamed thread takes its OS rename, a named one keeps the game's name", "[names]") {
    std::string path = mtt::temp_path("os-names");
    mt_config c = mtt::make_config(path);
    mtt::start(c);
    std::atomic<uint64_t> unnamed_tid{0}, named_tid{0};
    std::atomic<bool> done{false};
    auto hold = [&] {
        while (!done.load()) sched_yield();
    };
    std::thread unnamed([&] {
        pthread_setname_np(pthread_self(), "os-before");
        mt_on_alloc(reinterpret_cast<void *>(0x7100), &mtt::kPlayer, 32);
        pthread_setname_np(pthread_self(), "os-renamed");
        unnamed_tid = static_cast<uint64_t>(gettid());
        hold();
    });
    std::thread named([&] {
        pthread_setname_np(pthread_self(), "os-before");
        mt_set_thread_name("Explicit");
        mt_on_alloc(reinterpret_cast<void *>(0x8100), &mtt::kPlayer, 32);
        pthread_setname_np(pthread_self(), "os-later");
        named_tid = static_cast<uint64_t>(gettid());
        hold();
    });
    while (!unnamed_tid.load() || !named_tid.load()) sched_yield();
    // Both OS renames are done; the writer's poll picks up the unnamed thread's during the
    // capture (no mt_stop, whose final poll is forced). A poll that sees it ran after both renames.
    while (slot_name_of(unnamed_tid.load()) != "os-renamed") usleep(1000);
    CHECK(slot_name_of(named_tid.load()) == "Explicit");
    REQUIRE(mt_frame_end(0) == MT_OK);
    auto run = mtt::stop_and_load(path);
    done = true;
    unnamed.join();
    named.join();
    std::map<uint64_t, std::string> name_of_addr;
    for (const auto &e : mtt::all_events(run)) name_of_addr[e.address] = run.threads.at(e.thread).name;
    CHECK(name_of_addr[0x7100] == "os-renamed");
    CHECK(name_of_addr[0x8100] == "Explicit");
}
#endif
