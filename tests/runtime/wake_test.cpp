// The writer's wake-up (frames.cpp: wake_writer, writer_wait), on its own, with no capture
// running. Its contract: after wake_writer() returns, the writer starts a drain that begins after
// the call, so a wake is never lost, whether it comes before the writer sleeps, while it sleeps,
// or while it is awake. Each sleep here is an hour, far past ctest's 600 s: a lost wake is a test
// that never ends (and fails at ctest's timeout), not a time this test measures.
#include <catch2/catch.hpp>

#include <atomic>
#include <sched.h>
#include <thread>

#include "frames.h"
#include "state.h"

namespace {

constexpr uint64_t kHourUs = 3600ull * 1000000ull;

}  // namespace

TEST_CASE("writer wake-up: a wake posted before the writer sleeps ends its next sleep at once", "[wake]") {
    mt::rt::writer_wait(1);  // whatever an earlier capture left pending is consumed
    mt::rt::wake_writer();
    mt::rt::writer_wait(kHourUs);  // returns at once: the wake is pending
    // Served: the next wait sleeps again (briefly here), the wake is not replayed forever.
    CHECK(mt::rt::g.wake_word.load() == 0);
}

#if defined(__linux__)
TEST_CASE("writer wake-up: a wake while the writer sleeps wakes it", "[wake]") {
    mt::rt::writer_wait(1);
    std::atomic<bool> back{false};
    std::thread writer([&] {
        mt::rt::writer_wait(kHourUs);
        back = true;
    });
    // The word says kWakeSleeping (2) once the writer has committed to sleep.
    while (mt::rt::g.wake_word.load() != 2) sched_yield();
    CHECK_FALSE(back.load());
    mt::rt::wake_writer();
    writer.join();
    CHECK(back.load());
    CHECK(mt::rt::g.wake_word.load() == 0);
}
#endif

TEST_CASE("writer wake-up: 20,000 wakes racing the writer's sleeps are each served by a later drain", "[wake]") {
    mt::rt::writer_wait(1);
    constexpr uint64_t kWakes = 20000;
    std::atomic<uint64_t> posted{0}, served{0};
    // The writer's loop: a "drain" reads what was posted, then it sleeps until woken.
    std::thread writer([&] {
        while (served.load() < kWakes) {
            served.store(posted.load());
            if (served.load() < kWakes) mt::rt::writer_wait(kHourUs);
        }
    });
    uint64_t spins = 0;
    for (uint64_t i = 1; i <= kWakes; ++i) {
        posted.store(i);
        mt::rt::wake_writer();
        // A drain after the wake sees i; the writer may be anywhere in its loop meanwhile.
        while (served.load() < i) {
            if (++spins % 64 == 0) sched_yield();
        }
    }
    writer.join();
    CHECK(served.load() == kWakes);
}
