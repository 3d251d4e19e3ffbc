// Whole captures through mt_on_alloc -> rings -> writer -> file -> reader: exact counts with
// concurrent producers, overflow accounting, stack dedup, thread exit, pause/resume, frames.
#include <catch2/catch.hpp>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "support.h"

namespace mt::rt {
uint64_t late_events();  // runtime-internal (lifecycle.h): late records of the last capture
}

using mtt::FakeClass;

namespace {

constexpr int kThreads = 4;
constexpr int kPerThread = 20000;

__attribute__((noinline)) void producer(int t) {
    std::string name = "producer-" + std::to_string(t);
    mt_set_thread_name(name.c_str());
    uint64_t base = 0x100000000ull * static_cast<uint64_t>(t + 1);
    FakeClass *classes[] = {&mtt::kString, &mtt::kPlayer, &mtt::kIntArray};
    for (int i = 0; i < kPerThread; ++i)
        mtt::alloc_at_depth(1 + i % 5, reinterpret_cast<void *>(base + static_cast<uint64_t>(i) * 32), classes[i % 3],
                            static_cast<size_t>(16 + t));
}

// Waits until the writer has committed `n` frames (it frees exited threads' slots on the way).
void wait_frames(uint64_t n) {
    for (int i = 0; i < 20000 && mtt::counters().frames_written < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE(mtt::counters().frames_written >= n);
}

}  // namespace

TEST_CASE("concurrent producers: every allocation arrives exactly once, in order per thread", "[capture]") {
    std::string path = mtt::temp_path("concurrent");
    mt_config c = mtt::make_config(path);
    c.on_full = MT_ON_FULL_BLOCK;  // exact counts: nothing may be dropped
    c.ring_capacity = 64 * 1024;
    mtt::start(c);
    std::atomic<bool> done{false};
    std::thread framer([&] {
        for (uint64_t f = 0; !done.load(); ++f) {
            mt_frame_end(f);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t) ts.emplace_back(producer, t);
    for (auto &t : ts) t.join();
    done = true;
    framer.join();
    mt_counters before = mtt::counters();
    auto run = mtt::stop_and_load(path);
    mt_counters after = mtt::counters();

    CHECK(before.allocations_seen == kThreads * kPerThread);
    CHECK(after.events_recorded == kThreads * kPerThread);
    CHECK(after.events_dropped == 0);
    CHECK(after.events_written == kThreads * kPerThread);
    REQUIRE(run.result.clean());
    REQUIRE(run.result.has_counters);
    CHECK(run.result.counters.events_written == kThreads * kPerThread);

    auto events = mtt::all_events(run);
    REQUIRE(events.size() == static_cast<size_t>(kThreads * kPerThread));
    std::map<uint32_t, std::vector<uint64_t>> per_thread;
    for (const auto &e : events) per_thread[e.thread].push_back(e.address);
    REQUIRE(per_thread.size() == kThreads);
    std::set<std::string> names;
    for (auto &[tid, addrs] : per_thread) {
        REQUIRE(addrs.size() == static_cast<size_t>(kPerThread));
        for (size_t i = 1; i < addrs.size(); ++i) REQUIRE(addrs[i] == addrs[i - 1] + 32);  // FIFO per ring
        names.insert(run.threads.at(tid).name);
    }
    CHECK(names == std::set<std::string>{"producer-0", "producer-1", "producer-2", "producer-3"});

    // Frames: dense, in order, each frame's totals match its events, last one FINAL. An event
    // ticks before its frame's start only if its producer was preempted across a frame end for
    // longer than the writer's grace (a "late" event, counted by the writer).
    uint64_t sum = 0, early = 0;
    for (size_t i = 0; i < run.frames.size(); ++i) {
        const auto &f = run.frames[i];
        CHECK(f.seq == i);
        CHECK(f.events == f.event_list.size());
        uint64_t req = 0;
        for (const auto &e : f.event_list) {
            req += e.size;
            early += e.tick < f.start_tick;
        }
        CHECK(f.requested_bytes == req);
        sum += f.events;
    }
    CHECK(sum == kThreads * kPerThread);
    CHECK(early <= mt::rt::late_events());
    CHECK((run.frames.back().flags & MT_FRAME_FINAL) != 0);
    // Dedup: the file never defines the same stack twice.
    std::set<std::vector<uint64_t>> distinct;
    for (const auto &s : run.stacks) CHECK(distinct.insert(s.frames).second);
}

TEST_CASE("a full ring drops and counts: recorded + dropped = allocated, file holds recorded", "[capture]") {
    std::string path = mtt::temp_path("overflow");
    mt_config c = mtt::make_config(path);
    c.ring_capacity = MT_MIN_RING;
    c.drain_interval_us = 1000000;  // the writer sleeps through the burst
    mtt::start(c);
    mtt::alloc_same_site(20000, &mtt::kPlayer, 0x7f0000000000ull, 48);
    mt_frame_end(1);
    mt_counters mid = mtt::counters();
    auto run = mtt::stop_and_load(path);
    mt_counters end = mtt::counters();
    CHECK(mid.allocations_seen == 20000);
    CHECK(end.events_recorded + end.events_dropped == 20000);
    CHECK(end.events_dropped > 0);
    auto events = mtt::all_events(run);
    CHECK(events.size() == end.events_recorded);
    CHECK(end.events_written == end.events_recorded);
    uint64_t dropped_in_frames = 0;
    for (const auto &f : run.frames) dropped_in_frames += f.dropped;
    CHECK(dropped_in_frames == end.events_dropped);
}

TEST_CASE("stack dedup: one call site is one stack, however many allocations", "[capture]") {
    std::string path = mtt::temp_path("dedup");
    mt_config c = mtt::make_config(path);
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    volatile int rounds = 2;  // a loop the compiler cannot unroll into two call sites
    for (int r = 0; r < rounds; ++r) mtt::alloc_same_site(5000, &mtt::kString, 0x10000ull + r * 0x80000ull, 32);
    auto run = mtt::stop_and_load(path);
    auto events = mtt::all_events(run);
    REQUIRE(events.size() == 10000);
    std::set<uint32_t> stack_ids;
    for (const auto &e : events) stack_ids.insert(e.stack_id);
    CHECK(stack_ids.size() == 1);
    CHECK(run.stacks.size() == 1);
    CHECK(mtt::counters().stacks_known == 1);
    CHECK(mtt::symbol_of(run.stacks.at(0).frames.at(0)).find("alloc_same_site") != std::string::npos);
}

TEST_CASE("a thread that exits before any frame end still delivers its events, slots are reused", "[capture]") {
    std::string path = mtt::temp_path("exit");
    mt_config c = mtt::make_config(path);
    c.max_threads = 2;
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    for (int t = 0; t < 5; ++t) {
        std::thread th([t] { mtt::alloc_same_site(300, &mtt::kVector3, 0x1000000ull * (t + 1), 24); });
        th.join();
        mt_frame_end(static_cast<uint64_t>(t));
        wait_frames(static_cast<uint64_t>(t) + 1);  // the writer has freed the exited thread's slot
    }
    std::thread last([] { mtt::alloc_same_site(123, &mtt::kVector3, 0x9000000ull, 24); });
    last.join();  // exits with events no frame end has covered
    auto run = mtt::stop_and_load(path);
    mt_counters end = mtt::counters();
    CHECK(end.events_dropped == 0);
    CHECK(end.threads_known == 6);
    auto events = mtt::all_events(run);
    CHECK(events.size() == 5 * 300 + 123);
    REQUIRE(run.frames.size() == 6);
    CHECK((run.frames.back().flags & MT_FRAME_FINAL) != 0);
    CHECK(run.frames.back().event_list.size() == 123);
    CHECK(run.threads.size() == 6);
}

TEST_CASE("pause records nothing and resume picks up, counters agree", "[capture]") {
    std::string path = mtt::temp_path("pause");
    mt_config c = mtt::make_config(path);
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    mtt::alloc_same_site(100, &mtt::kPlayer, 0x1000, 100);
    REQUIRE(mt_pause() == MT_OK);
    CHECK(mtt::counters().paused == 1);
    mtt::alloc_same_site(100, &mtt::kPlayer, 0x2000, 200);
    REQUIRE(mt_resume() == MT_OK);
    mtt::alloc_same_site(100, &mtt::kPlayer, 0x3000, 300);
    mt_counters mid = mtt::counters();
    CHECK(mid.allocations_seen == 200);
    CHECK(mid.paused == 0);
    CHECK(mid.running == 1);
    auto run = mtt::stop_and_load(path);
    auto events = mtt::all_events(run);
    REQUIRE(events.size() == 200);
    for (const auto &e : events) CHECK(e.size != 200);
    CHECK(mt_pause() == MT_ERR_NOT_STARTED);
    CHECK(mt_resume() == MT_ERR_NOT_STARTED);
    CHECK(mt_frame_end(0) == MT_ERR_NOT_STARTED);
    CHECK(mt_stop() == MT_ERR_NOT_STARTED);
    CHECK(mtt::counters().running == 0);
}

TEST_CASE("frame ends faster than the writer commits: frames stay dense, merges are flagged", "[capture]") {
    std::string path = mtt::temp_path("frames");
    mt_config c = mtt::make_config(path);
    mtt::start(c);
    constexpr uint64_t kFrames = 3000;
    for (uint64_t f = 0; f < kFrames; ++f) {
        mtt::alloc_same_site(1, &mtt::kString, 0x1000 + f * 16, 16);
        REQUIRE(mt_frame_end(f + 10) == MT_OK);
    }
    auto run = mtt::stop_and_load(path);
    REQUIRE(!run.frames.empty());
    uint64_t events = 0;
    bool merged = false;
    for (size_t i = 0; i < run.frames.size(); ++i) {
        const auto &f = run.frames[i];
        CHECK(f.seq == i);
        if (i) CHECK(f.index > run.frames[i - 1].index);
        if (i) CHECK(f.start_tick == run.frames[i - 1].end_tick);
        merged = merged || (f.flags & MT_FRAME_MERGED);
        events += f.event_list.size();
    }
    CHECK(events == kFrames);
    REQUIRE(run.frames.size() >= 2);
    if (!merged) {
        // Every frame end became a frame; the one before FINAL carries the last index passed.
        CHECK(run.frames.size() - 1 == kFrames);
        CHECK(run.frames[run.frames.size() - 2].index == kFrames - 1 + 10);
    } else {
        CHECK(run.frames.size() - 1 < kFrames);
    }
}

TEST_CASE("sizes beyond 32 bits travel intact", "[capture]") {
    std::string path = mtt::temp_path("large");
    mtt::start(mtt::make_config(path));
    const uint64_t sizes[] = {1, 0xFFFFFFFFull, 0x100000000ull, 5ull << 30, 123456789012ull};
    for (uint64_t sz : sizes) mtt::alloc_same_site(1, &mtt::kIntArray, 0x4000, sz);
    auto run = mtt::stop_and_load(path);
    auto ev = mtt::all_events(run);
    REQUIRE(ev.size() == 5);
    for (size_t i = 0; i < 5; ++i) {
        CHECK(ev[i].size == sizes[i]);
        CHECK(ev[i].gc_size == sizes[i]);
    }
    CHECK(run.stacks.size() == 1);  // the large records' frames are read from the right place
}

TEST_CASE("bursts beyond ring capacity on many threads: drops are counted exactly, per thread and in total", "[capture]") {
    constexpr int kThreads = 8, kPerThread = 20000;
    std::string path = mtt::temp_path("overflow-mt");
    mt_config c = mtt::make_config(path);
    c.ring_capacity = 16 * 1024;    // a few hundred records: every thread overflows
    c.drain_interval_us = 200000;   // the writer wakes rarely during the burst
    mtt::start(c);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([t] { mtt::alloc_same_site(kPerThread, &mtt::kPlayer, 0x100000000ull * (t + 1), 64); });
    for (auto &th : threads) th.join();
    mt_frame_end(1);
    auto run = mtt::stop_and_load(path);
    mt_counters end = mtt::counters();
    CHECK(end.allocations_seen == uint64_t(kThreads) * kPerThread);
    CHECK(end.events_recorded + end.events_dropped == uint64_t(kThreads) * kPerThread);
    CHECK(end.events_dropped > 0);
    auto events = mtt::all_events(run);
    CHECK(events.size() == end.events_recorded);
    uint64_t dropped_in_frames = 0;
    for (const auto &f : run.frames) dropped_in_frames += f.dropped;
    CHECK(dropped_in_frames == end.events_dropped);
    // Each thread's surviving events keep their addresses in allocation order (nothing torn).
    std::map<uint32_t, uint64_t> last_addr;
    for (const auto &e : events) {
        auto [it, fresh] = last_addr.emplace(e.thread, e.address);
        if (!fresh) CHECK(e.address > it->second);
        it->second = e.address;
    }
}

// il2cpp's finalizer thread allocates its Thread object, then names itself "GC Finalizer" with
// the OS call and never allocates again: the name must still reach the file (the writer re-reads
// the OS names of threads the game did not name through MemTracer). A name given with
// mt_set_thread_name still wins over a later OS name.
TEST_CASE("a thread that names itself after its first allocation is written under that name", "[capture]") {
    std::string path = mtt::temp_path("late-name");
    mt_config c = mtt::make_config(path);
    mtt::start(c);
    std::atomic<int> step{0};
    auto wait_for = [&](int s) {
        while (step.load() < s) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    std::thread late([&] {
        pthread_setname_np(pthread_self(), "unnamed-yet");
        mt_on_alloc(reinterpret_cast<void *>(0x7000), &mtt::kPlayer, 32);
        pthread_setname_np(pthread_self(), "GC Finalizer");
        step.fetch_add(1);
        wait_for(100);  // alive, and silent, until the capture has stopped
    });
    std::thread named([&] {
        mt_set_thread_name("Explicit");
        mt_on_alloc(reinterpret_cast<void *>(0x8000), &mtt::kPlayer, 32);
        pthread_setname_np(pthread_self(), "os-later");
        step.fetch_add(1);
        wait_for(100);
    });
    wait_for(2);
    REQUIRE(mt_frame_end(0) == MT_OK);
    auto run = mtt::stop_and_load(path);
    step = 100;
    late.join();
    named.join();
    std::map<uint64_t, std::string> name_of_addr;
    for (const auto &e : mtt::all_events(run)) name_of_addr[e.address] = run.threads.at(e.thread).name;
    CHECK(name_of_addr[0x7000] == "GC Finalizer");
    CHECK(name_of_addr[0x8000] == "Explicit");
}
