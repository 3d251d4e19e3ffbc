// batch_queue.h — a bounded queue between one producing and one consuming thread that hands items
// over in batches. run_ingest_pipe.cpp's reading thread passes ~50k digested frames of a
// session-sized run to the database thread; handed over one at a time, each pop woke the reader
// and each push the writer (a futex wake and a context switch per frame: 67k switches in one
// ingest), and on a busy machine a thread that blocks gives its core away and waits to get it
// back (docs/benchmarks.md, issue 22's sixth session). A batch of `batch` items is one wake-up.
// The queue is bounded by the bytes its items hold, not by their number: the work per frame
// drifts over a run (early frames cost the database more, later ones the reader), and a deep
// queue lets the faster side run ahead instead of waiting, within a memory budget.
#ifndef MEMTRACER_SYM_BATCH_QUEUE_H
#define MEMTRACER_SYM_BATCH_QUEUE_H

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

namespace mt::sym {

template <typename T>
class BatchQueue {
public:
    // Thrown by the producer's calls once the consumer has cancelled.
    struct Cancelled {};

    // Batches of `batch` items; the producer blocks while the waiting batches hold `budget` bytes
    // or more (one batch always fits, however large).
    BatchQueue(size_t batch, size_t budget) : batch_(batch), budget_(budget) { filling_.reserve(batch_); }

    // Producer: adds an item that holds `bytes`; a full batch is handed over (blocking while the
    // waiting batches hold the budget).
    void push(T item, size_t bytes) {
        filling_.push_back(std::move(item));
        filling_bytes_ += bytes;
        if (filling_.size() >= batch_) ship();
    }
    // Producer: hands over what it has so far (at the end, or before it stops on an error).
    void flush() {
        if (!filling_.empty()) ship();
    }

    // Consumer: the next batch, in order (blocking until there is one).
    std::vector<T> pop() {
        std::unique_lock lock(mu_);
        ready_.wait(lock, [&] { return !full_.empty(); });
        std::vector<T> out = std::move(full_.front().items);
        waiting_bytes_ -= full_.front().bytes;
        full_.pop_front();
        room_.notify_one();
        return out;
    }
    // Consumer: stop; the producer's next push or flush throws Cancelled.
    void cancel() {
        std::lock_guard lock(mu_);
        cancelled_ = true;
        room_.notify_all();
    }
    // Batches handed over so far (a test's figure).
    size_t handoffs() const {
        std::lock_guard lock(mu_);
        return handoffs_;
    }

private:
    void ship() {
        std::unique_lock lock(mu_);
        room_.wait(lock, [&] { return cancelled_ || full_.empty() || waiting_bytes_ < budget_; });
        if (cancelled_) throw Cancelled{};
        full_.push_back({std::move(filling_), filling_bytes_});
        waiting_bytes_ += filling_bytes_;
        ++handoffs_;
        ready_.notify_one();
        lock.unlock();
        filling_ = {};
        filling_.reserve(batch_);
        filling_bytes_ = 0;
    }

    struct Batch {
        std::vector<T> items;
        size_t bytes;
    };
    const size_t batch_, budget_;
    std::vector<T> filling_;  // the producer's own: no lock
    size_t filling_bytes_ = 0;
    mutable std::mutex mu_;
    std::condition_variable ready_, room_;
    std::deque<Batch> full_;
    size_t waiting_bytes_ = 0;  // of the batches in full_
    bool cancelled_ = false;
    size_t handoffs_ = 0;
};

}  // namespace mt::sym

#endif
