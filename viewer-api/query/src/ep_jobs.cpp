// ep_jobs.cpp — the JSON of /api/jobs (moved from server/jobs.cpp, which owns the jobs' state).
#include "memtracer/viewer/jobs_view.h"

#include "memtracer/json.h"
#include "model.h"

namespace mt::viewer {

std::string job_json(const JobView &j) {
    Json o;
    o.obj().kv("id", j.id).kv("state", j.state).kv("file", j.file).kv("file_removed", j.file_removed);
    o.kv("size", static_cast<int64_t>(j.size));
    o.kv("created_unix_ns", j.created_ns).kv("started_unix_ns", j.started_ns).kv("finished_unix_ns", j.finished_ns);
    o.key("run_id");
    j.run_id >= 0 ? o.val(j.run_id) : o.null();
    o.key("exit_code");
    j.exit_code >= 0 ? o.val(j.exit_code) : o.null();
    o.kv("progress", j.progress).key("error");
    j.error.empty() ? o.null() : o.val(j.error);
    o.kv("url", "/api/jobs/" + std::to_string(j.id)).end_obj();
    return o.take();
}

Response jobs_list(const Request &req, int64_t total, const std::function<std::string(int64_t)> &render) {
    Params p(req, {"limit", "offset"});
    auto pg = page_params(p, 100, 1000);
    Json o;
    o.obj().arr("jobs");  // newest first
    for (int64_t i = pg.offset; i < total && i < pg.offset + pg.limit; ++i) o.raw_value(render(i));
    o.end_arr();
    write_page(o, total, pg);
    o.end_obj();
    return ok(o);
}

int64_t job_id_param(const Request &req, std::string_view seg) {
    Params p(req, {});
    return parse_id(seg, "job");
}

}  // namespace mt::viewer
