// endpoints.h — one function per endpoint; router.cpp's table maps paths to them. docs/api.md
// documents each with a real response.
#ifndef MEMTRACER_VIEWER_ENDPOINTS_H
#define MEMTRACER_VIEWER_ENDPOINTS_H

#include <cstdint>
#include <string_view>

#include <string_view>

#include "memtracer/viewer/live_view.h"
#include "memtracer/viewer/query.h"

namespace mt::viewer {

Response runs_list(Database &db, const Request &req);                      // GET /api/runs
Response run_summary(Database &db, const Request &req, int64_t run);       // GET /api/runs/{run}
Response frame_series(Database &db, const Request &req, int64_t run);      // GET .../frames
Response frame_detail(Database &db, const Request &req, int64_t run, int64_t seq);  // .../frames/{seq}
Response top_n(Database &db, const Request &req, int64_t run);             // GET .../top
Response compare(Database &db, const Request &req);                        // GET /api/compare
Response flame(Database &db, const Request &req, int64_t run);             // GET .../flame
Response collapsed(Database &db, const Request &req, int64_t run);         // GET .../collapsed
Response chrome_trace(Database &db, const Request &req, int64_t run);      // GET .../trace
Response search(Database &db, const Request &req, int64_t run);            // GET .../search
Response speedscope(Database &db, const Request &req, int64_t run);        // GET .../speedscope
Response leaks(Database &db, const Request &req, int64_t run);             // GET .../leaks (ep_leaks.cpp)
Response temporaries(Database &db, const Request &req, int64_t run);       // GET .../temporaries
Response markers(Database &db, const Request &req, int64_t run);           // GET .../markers (ep_markers.cpp)
Response threads_list(Database &db, const Request &req, int64_t run);      // GET .../threads (ep_threads.cpp)
Response fleet_trend(Database &db, const Request &req);                    // GET /api/trend (ep_fleet.cpp)
Response fleet_endpoint(Database &db, const Request &req, std::string_view what);  // GET /api/fleet/{top,growth,diff-flame}

// The server's parts (routes.h's Services): uploads and jobs (ep_jobs.cpp), the live capture
// (ep_live.cpp).
class Services;
struct StoredUpload;
Response upload_run(Services &s, const StoredUpload *u);                   // POST /api/runs
Response jobs_page(Services &s, const Request &req);                       // GET /api/jobs
Response job_detail(Services &s, const Request &req, std::string_view id); // GET /api/jobs/{job}
Response live_status(Services &s);                                         // GET /api/live
Response live_events(Services &s);                                         // GET /api/live/events (SSE)
Response live_control(Services &s, const Request &req, LiveControl c);     // POST /api/live/{control}

}  // namespace mt::viewer

#endif
