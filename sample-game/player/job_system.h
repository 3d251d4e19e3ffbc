// job_system.h — Unity's job system in miniature: worker threads attached to il2cpp (so the GC
// scans their stacks), a fixed set of jobs per frame, and a frame that only ends once every job
// has completed (JobHandle.Complete before the frame end).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mtsample {

class JobSystem {
public:
    using RunJob = std::function<void(uint64_t frame, uint32_t job)>;
    using ThreadHook = std::function<void(uint32_t worker)>;

    // workers == 0: the main thread runs every job itself.
    JobSystem(uint32_t workers, uint32_t jobs, RunJob run, ThreadHook on_start, ThreadHook on_exit);
    ~JobSystem();
    JobSystem(const JobSystem &) = delete;
    JobSystem &operator=(const JobSystem &) = delete;

    void run_frame(uint64_t frame);  // returns when every job of the frame is done

private:
    void worker_main(uint32_t index);

    uint32_t workers_, jobs_;
    RunJob run_;
    ThreadHook on_start_, on_exit_;
    std::vector<std::thread> threads_;
    std::mutex mu_;
    std::condition_variable work_cv_, done_cv_;
    uint64_t generation_ = 0, frame_ = 0;
    uint32_t pending_ = 0;
    bool stop_ = false;
};

}  // namespace mtsample
