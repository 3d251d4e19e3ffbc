// live_view.h — the live capture as /api/live shows it (docs/api.md, docs/live.md), rendered by
// the query layer (query/src/ep_live.cpp) as /api/jobs is: the server keeps the capture's state
// (server/live_mode.cpp) and hands a LiveView over, and needs neither the JSON writer nor the
// page's vocabulary.
#ifndef MEMTRACER_VIEWER_LIVE_VIEW_H
#define MEMTRACER_VIEWER_LIVE_VIEW_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mt::viewer {

// The page's states of the capture ("state").
enum class LiveState { Connecting, Streaming, Paused, Ended, Stopped, CutOff, Error };
std::string_view live_state_name(LiveState s);  // "connecting", ..., "cut_off", "error"

// The `memtracer-symbolize --follow` child's state ("ingest").
enum class IngestState { Waiting, Live, Ended, CutOff, Error };
std::string_view ingest_state_name(IngestState s);  // "waiting", "live", "ended", "cut_off", "error"

// POST /api/live/{pause,resume,stop,mark}.
enum class LiveControl { Pause, Resume, Stop, Mark };
// A mark's label, in bytes: the live protocol's MT_LIVE_MAX_MARK (live_mode.cpp checks they agree).
inline constexpr size_t kLiveMaxMarkLabel = 255;

struct LiveView {
    LiveState state = LiveState::Connecting;
    std::string message;  // why, for an error, a cut-off or a reconnect; "" otherwise
    std::string address, run_path;
    uint64_t version = 0;  // bumped on every change the page shows
    uint64_t frames = 0, events = 0;
    double frames_per_s = 0, events_per_s = 0;
    uint64_t lag_frames = 0, game_lag_frames = 0, drops = 0;
    bool paused = false;
    uint64_t marks = 0, stored_bytes = 0;
    IngestState ingest = IngestState::Waiting;
    std::string ingest_error;
    uint64_t run_frames = 0;
    std::string last_ack;  // "mark applied", "" before any
    int64_t run_id = -1;   // -1: no run yet (null)
    // mt_frame_end -> queryable, over the last frames; the percentiles only when frames > 0.
    uint64_t latency_frames = 0;
    double latency_p50_ms = 0, latency_p95_ms = 0, latency_max_ms = 0;
};

// GET /api/live's JSON.
std::string live_json(const LiveView &v);

}  // namespace mt::viewer

#endif
