// jobs_view.h — an upload job as the server's jobs.cpp hands it to the query layer, which renders
// /api/jobs (query/src/ep_jobs.cpp) so the server keeps the jobs' state and needs neither the JSON
// writer nor the parameter parser of query/src.
#ifndef MEMTRACER_VIEWER_JOBS_VIEW_H
#define MEMTRACER_VIEWER_JOBS_VIEW_H

#include <cstdint>
#include <string>

namespace mt::viewer {

// One job as the server knows it; -1 in run_id/exit_code means "not yet" (rendered null), as
// does an empty error.
struct JobView {
    int64_t id = 0;
    std::string state, file;
    bool file_removed = false;
    uint64_t size = 0;
    int64_t created_ns = 0, started_ns = 0, finished_ns = 0;
    int64_t run_id = -1;
    int exit_code = -1;
    std::string progress, error;
};

// The JSON of one job (GET /api/jobs/{id}, the upload's 202 answer, an entry of GET /api/jobs).
std::string job_json(const JobView &j);

}  // namespace mt::viewer

#endif
