// endpoints.h — one function per JSON endpoint; router.cpp maps paths to them. docs/api.md
// documents each with a real response.
#ifndef MEMTRACER_VIEWER_ENDPOINTS_H
#define MEMTRACER_VIEWER_ENDPOINTS_H

#include <cstdint>
#include <string_view>

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

}  // namespace mt::viewer

#endif
