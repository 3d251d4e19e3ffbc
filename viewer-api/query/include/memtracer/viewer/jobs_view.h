// jobs_view.h — the JSON of the upload jobs (/api/jobs), rendered by the query layer
// (query/src/ep_jobs.cpp) so the server keeps the jobs' state and needs neither the JSON writer
// nor the parameter parser of query/src.
#ifndef MEMTRACER_VIEWER_JOBS_VIEW_H
#define MEMTRACER_VIEWER_JOBS_VIEW_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "memtracer/viewer/query.h"

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

std::string job_json(const JobView &j);

// GET /api/jobs: one page (limit/offset) of `total` jobs, newest first; render(i) gives the JSON
// of the i-th of them, asked only for the jobs on the page. Throws ApiError(400) for a bad
// parameter.
Response jobs_list(const Request &req, int64_t total, const std::function<std::string(int64_t)> &render);

// GET /api/jobs/{id}: the job id in path segment `seg`; throws ApiError(400) for a bad id or for
// any query parameter.
int64_t job_id_param(const Request &req, std::string_view seg);

}  // namespace mt::viewer

#endif
