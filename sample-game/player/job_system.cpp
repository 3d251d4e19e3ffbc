// job_system.cpp — job j of a frame always runs on worker j % workers, in job order, so each
// worker's allocations are the same from run to run (only their interleaving varies).
#include "job_system.h"

namespace mtsample {

JobSystem::JobSystem(uint32_t workers, uint32_t jobs, RunJob run, ThreadHook on_start, ThreadHook on_exit)
    : workers_(workers), jobs_(jobs), run_(std::move(run)), on_start_(std::move(on_start)), on_exit_(std::move(on_exit)) {
    threads_.reserve(workers);
    for (uint32_t i = 0; i < workers; ++i) threads_.emplace_back(&JobSystem::worker_main, this, i);
}

JobSystem::~JobSystem() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    work_cv_.notify_all();
    for (auto &t : threads_) t.join();
}

void JobSystem::run_frame(uint64_t frame) {
    if (workers_ == 0) {
        for (uint32_t j = 0; j < jobs_; ++j) run_(frame, j);
        return;
    }
    std::unique_lock<std::mutex> lock(mu_);
    frame_ = frame;
    pending_ = workers_;
    ++generation_;
    work_cv_.notify_all();
    done_cv_.wait(lock, [&] { return pending_ == 0; });
}

void JobSystem::worker_main(uint32_t index) {
    on_start_(index);
    uint64_t seen = 0;
    for (;;) {
        uint64_t frame;
        {
            std::unique_lock<std::mutex> lock(mu_);
            work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) break;
            seen = generation_;
            frame = frame_;
        }
        for (uint32_t j = index; j < jobs_; j += workers_) run_(frame, j);
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (--pending_ == 0) done_cv_.notify_one();
        }
    }
    on_exit_(index);
}

}  // namespace mtsample
