// The writer's wake-up (frames.cpp: wake_writer, writer_wait), on its own, with no capture
// running. Its contract: after wake_writer() returns, the writer starts a drain that begins after
// the call, so a wake is never lost, whether it comes before the writer sleeps, while it sleeps,
// or while it is awake. Each sleep here is an hour, far past ctest's 600 s: a lost wake is a test
// that never ends (and fails at ctest's timeout), not a time this test measures.
#include <catch2/catch.hpp>

#include <atomic>
#include <sched.h>
#include <thread>
#include <vector>

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

// The idle sleep (issue 22, twelfth session): after an iteration that found nothing the writer
// sleeps until a publisher wakes it (writer_wait_idle); publishers call wake_writer_if_idle.
#if defined(__linux__)
namespace {

constexpr uint32_t kSleepingIdle = 3;  // frames.cpp: kWakeSleepingIdle

bool nothing_waiting() { return false; }
bool work_queued() { return true; }

}  // namespace

TEST_CASE("idle sleep: a publisher's wake_writer_if_idle wakes it", "[wake]") {
    mt::rt::writer_wait(1);
    std::atomic<bool> back{false};
    std::thread writer([&] {
        mt::rt::writer_wait_idle(kHourUs, nothing_waiting);
        back = true;
    });
    while (mt::rt::g.wake_word.load() != kSleepingIdle) sched_yield();
    CHECK_FALSE(back.load());
    mt::rt::wake_writer_if_idle();
    writer.join();
    CHECK(mt::rt::g.wake_word.load() == 0);
}

TEST_CASE("idle sleep: work queued before the sleep was announced ends it at once", "[wake]") {
    mt::rt::writer_wait(1);
    mt::rt::writer_wait_idle(kHourUs, work_queued);  // returns at once: the look after the mark finds work
    CHECK(mt::rt::g.wake_word.load() == 0);
}

TEST_CASE("idle sleep: wake_writer_if_idle leaves an awake or briefly sleeping writer alone", "[wake]") {
    mt::rt::writer_wait(1);
    mt::rt::wake_writer_if_idle();
    CHECK(mt::rt::g.wake_word.load() == 0);  // nothing pending: the writer polls anyway
    std::thread writer([] { mt::rt::writer_wait(kHourUs); });
    while (mt::rt::g.wake_word.load() != 2) sched_yield();
    mt::rt::wake_writer_if_idle();
    CHECK(mt::rt::g.wake_word.load() == 2);  // still asleep: its drain interval bounds the sleep
    mt::rt::wake_writer();
    writer.join();
}

TEST_CASE("idle sleep: a ring filling while the writer sleeps idle wakes it before the ring is full", "[wake]") {
    mt::rt::writer_wait(1);
    constexpr uint64_t kCap = 64 * 1024;
    std::vector<uint8_t> mem(kCap);
    mt::rt::Ring ring;
    ring.reset(mem.data(), kCap);
    std::atomic<bool> back{false};
    std::thread writer([&] {
        mt::rt::writer_wait_idle(kHourUs, nothing_waiting);  // the test's writer never drains
        back = true;
    });
    while (mt::rt::g.wake_word.load() != kSleepingIdle) sched_yield();
    // The producer pushes until its check has posted the wake (the word leaves "sleeping idle");
    // nothing drains, so a ring that fills first (no wake from the producer's check) fails the
    // reserve. It stops at the post, not when the writer is back: the writer's wake-up latency is
    // the scheduler's, and this producer would fill the ring in the meantime.
    uint64_t pushed = 0;
    bool full = false;
    while (mt::rt::g.wake_word.load() == kSleepingIdle) {
        uint64_t next;
        uint8_t *w = ring.reserve(sizeof(mt::rt::AllocRec), &next);
        if (!w) {
            full = true;
            break;
        }
        reinterpret_cast<mt::rt::AllocRec *>(w)->kind = mt::rt::REC_ALLOC_SHORT;
        ring.publish(next);
        pushed += sizeof(mt::rt::AllocRec);
    }
    if (full) mt::rt::wake_writer();  // so the join below ends
    writer.join();
    CHECK(back.load());
    CHECK_FALSE(full);
    CHECK(pushed >= kCap / mt::rt::kRingWakeAt);    // the wake comes at the threshold, not before
    CHECK(pushed <= 3 * kCap / mt::rt::kRingWakeAt);  // and by 3/16 of the ring (docs/runtime.md)
}

TEST_CASE("ring: full at its capacity, and room again once the consumer moves on, as before the limit", "[wake]") {
    constexpr uint64_t kCap = 4096, kRec = 64;
    std::vector<uint8_t> mem(kCap);
    mt::rt::Ring ring;
    ring.reset(mem.data(), kCap);
    uint64_t next = 0;
    for (uint64_t i = 0; i < kCap / kRec; ++i) {
        uint8_t *w = ring.reserve(kRec, &next);
        REQUIRE(w == mem.data() + i * kRec);
        ring.publish(next);
    }
    CHECK(ring.reserve(kRec, &next) == nullptr);  // full: the record is dropped, as before
    ring.tail.store(kRec);                        // the consumer took one record
    uint8_t *w = ring.reserve(kRec, &next);
    CHECK(w == mem.data());  // the freed space, at the ring's start
    CHECK(next == kCap + kRec);
}
#endif
