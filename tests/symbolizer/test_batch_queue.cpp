// The pipelined ingest's handoff (batch_queue.h): items arrive whole and in order across threads,
// a partial batch arrives on flush, the threads meet once per batch and not once per item (the
// context switches issue 22's sixth session removed), the waiting batches are bounded by the
// bytes their items hold (however many items that is), and a cancelled consumer stops a
// producer blocked on a full queue.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "batch_queue.h"

using mt::sym::BatchQueue;

TEST_CASE("batch queue: every item in order, one handoff per batch", "[batch_queue]") {
    constexpr size_t kItems = 10'007, kBatch = 16;
    BatchQueue<std::string> q(kBatch, 1 << 20);
    std::thread producer([&] {
        for (size_t i = 0; i < kItems; ++i) q.push(std::to_string(i), 8);
        q.flush();  // the last 7 items: a partial batch
    });
    size_t next = 0, batches = 0;
    while (next < kItems) {
        std::vector<std::string> b = q.pop();
        ++batches;
        CHECK(!b.empty());
        CHECK(b.size() <= kBatch);
        for (const std::string &s : b) REQUIRE(s == std::to_string(next++));
    }
    producer.join();
    CHECK(next == kItems);
    // ceil(10007 / 16) handoffs: one wake-up per 16 items. Handing items over one at a time (the
    // queue before) made it 10007.
    CHECK(batches == (kItems + kBatch - 1) / kBatch);
    CHECK(q.handoffs() == batches);
}

TEST_CASE("batch queue: flush with nothing pending hands nothing over", "[batch_queue]") {
    BatchQueue<int> q(4, 64);
    q.flush();
    CHECK(q.handoffs() == 0);
    q.push(1, 4);
    q.flush();
    q.flush();
    CHECK(q.handoffs() == 1);
    CHECK(q.pop() == std::vector<int>{1});
}

TEST_CASE("batch queue: a cancelled consumer stops a producer blocked on a full queue", "[batch_queue]") {
    BatchQueue<int> q(2, 1);
    bool cancelled = false;
    std::thread producer([&] {
        try {
            for (int i = 0;; ++i) q.push(i, 4);  // blocks on the second full batch
        } catch (const BatchQueue<int>::Cancelled &) {
            cancelled = true;
        }
    });
    CHECK(q.pop() == std::vector<int>{0, 1});  // the producer is past its first handoff
    q.cancel();
    producer.join();  // returns only because the blocked push threw
    CHECK(cancelled);
}

TEST_CASE("batch queue: the waiting batches are bounded by their bytes, a large item still passes", "[batch_queue]") {
    // One item a batch, a budget of 10 bytes, items of 100: the first fits (nothing waits), the
    // second waits until the first is taken. A bound by number of batches would let all three in.
    BatchQueue<int> q(1, 10);
    std::thread producer([&] {
        for (int i = 0; i < 3; ++i) q.push(i, 100);
    });
    auto wait_handoffs = [&](size_t n) {  // a bounded poll for the producer's progress
        for (int i = 0; i < 10'000 && q.handoffs() < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return q.handoffs();
    };
    REQUIRE(wait_handoffs(1) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(q.handoffs() == 1);  // blocked on the budget: only a pop lets the next one in
    CHECK(q.pop() == std::vector<int>{0});
    REQUIRE(wait_handoffs(2) == 2);
    CHECK(q.pop() == std::vector<int>{1});
    CHECK(q.pop() == std::vector<int>{2});
    producer.join();
    CHECK(q.handoffs() == 3);
}
