// jobs.h — the symbolizer as a service: an uploaded run.mt is checked, stored under the data
// folder under a name the server chooses, and symbolized in the background into the served
// database by running memtracer-symbolize as a child process (see docs/viewer.md for why a
// process and not the library). GET /api/jobs/{id} reports state, progress and errors (the route table, query/src/router.cpp).
#ifndef MEMTRACER_VIEWER_JOBS_H
#define MEMTRACER_VIEWER_JOBS_H

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "memtracer/viewer/jobs_view.h"
#include "memtracer/viewer/query.h"

namespace mt::viewer {

struct JobConfig {
    std::string data_dir;    // "" disables uploads
    std::string symbols_dir;
    std::string db_path;     // the database the server serves; the child appends runs to it
    std::string symbolizer;  // path of memtracer-symbolize
};

// "" if the file starts like a run.mt the reader accepts (magic, version, header CRC), else why.
std::string check_run_file(const std::string &path);

class Jobs {
public:
    // `on_done` runs after a job finishes (the server refreshes its connections).
    Jobs(JobConfig cfg, std::function<void()> on_done);
    ~Jobs();
    Jobs(const Jobs &) = delete;
    Jobs &operator=(const Jobs &) = delete;

    bool enabled() const { return !cfg_.data_dir.empty(); }
    // A fresh, server-chosen path under <data>/incoming for a body being received.
    std::string incoming_path();
    // Checks the received file and queues it: 202 with the job, or 400 naming what is wrong
    // (the file is deleted then).
    Response accept(const std::string &incoming, uint64_t size);
    // The jobs newest first, [offset, offset+limit) of `total`, and one job by id: what GET
    // /api/jobs and /api/jobs/{id} render (query/src/ep_jobs.cpp).
    std::vector<JobView> page(int64_t offset, int64_t limit, int64_t &total);
    std::optional<JobView> find(int64_t id);
    // Stops the worker; a running symbolizer is sent SIGTERM. Idempotent.
    void stop();

private:
    struct Job {
        int64_t id = 0;
        std::string state = "queued";  // queued | running | done | failed
        std::string file;              // stored run.mt, relative to the data folder
        uint64_t size = 0;
        int64_t created_ns = 0, started_ns = 0, finished_ns = 0;
        int64_t run_id = -1;
        int exit_code = -1;
        std::string error;
        std::string log;               // relative to the data folder
        bool file_removed = false;     // a failed job's upload is deleted
    };
    void discard_upload(Job &j);
    void worker();
    void run_job(int64_t id);
    JobView view(const Job &j) const;
    std::string progress(const Job &j) const;

    JobConfig cfg_;
    std::function<void()> on_done_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::map<int64_t, Job> jobs_;
    std::deque<int64_t> queue_;
    int64_t next_id_ = 1;
    bool stopping_ = false;
    int child_pid_ = 0;
    std::thread thread_;
};

}  // namespace mt::viewer

#endif
