// ep_jobs.cpp — /api/jobs, /api/jobs/{job} and the upload's answer: the JSON of the upload jobs
// (the server's jobs.cpp owns their state and hands JobViews over).
#include "memtracer/viewer/jobs_view.h"

#include "memtracer/json.h"

#include "endpoints.h"
#include "memtracer/viewer/routes.h"
#include "model.h"

namespace mt::viewer {

std::string job_json(const JobView &j) {
    mt::Json o;
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

Response uploads_off(int status) {
    return error_response(status, "uploads are disabled: start the server with --data DIR");
}

Response jobs_page(Services &s, const Request &req) {
    if (!s.uploads_enabled()) return uploads_off(404);
    Params p(req, {"limit", "offset"});
    auto pg = page_params(p, 100, 1000);
    int64_t total = 0;
    auto page = s.jobs(pg.offset, pg.limit, total);
    mt::Json o;
    o.obj().arr("jobs");  // newest first
    for (const auto &j : page) o.raw_value(job_json(j));
    o.end_arr();
    write_page(o, total, pg);
    o.end_obj();
    return ok(o);
}

Response job_detail(Services &s, const Request &req, std::string_view id_segment) {
    if (!s.uploads_enabled()) return uploads_off(404);
    Params p(req, {});
    int64_t id = parse_id(id_segment, "job");
    auto j = s.job(id);
    if (!j) return error_response(404, "no job " + std::to_string(id), "job");
    return Response{200, job_json(*j), "application/json", ""};
}

Response upload_run(Services &s, const StoredUpload *u) {
    if (!u) return error_response(400, "upload the run.mt as the request body", "body");  // no body reader (--get)
    return s.accept_upload(*u);
}

}  // namespace mt::viewer
