// The pipelined ingest's handoff (batch_queue.h): items arrive whole and in order across threads,
// a partial batch arrives on flush, the threads meet once per batch and not once per item (the
// context switches issue 22's sixth session removed), and a cancelled consumer stops a producer
// blocked on a full queue.
#include <catch2/catch.hpp>

#include <string>
#include <thread>

#include "batch_queue.h"

using mt::sym::BatchQueue;

TEST_CASE("batch queue: every item in order, one handoff per batch", "[batch_queue]") {
    constexpr size_t kItems = 10'007, kBatch = 16;
    BatchQueue<std::string> q(kBatch, 4);
    std::thread producer([&] {
        for (size_t i = 0; i < kItems; ++i) q.push(std::to_string(i));
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
    BatchQueue<int> q(4, 2);
    q.flush();
    CHECK(q.handoffs() == 0);
    q.push(1);
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
            for (int i = 0;; ++i) q.push(i);  // blocks on the second full batch
        } catch (const BatchQueue<int>::Cancelled &) {
            cancelled = true;
        }
    });
    CHECK(q.pop() == std::vector<int>{0, 1});  // the producer is past its first handoff
    q.cancel();
    producer.join();  // returns only because the blocked push threw
    CHECK(cancelled);
}
