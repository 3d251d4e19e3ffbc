// ep_live.cpp — /api/live, /api/live/events and the live controls: the JSON of the capture's
// state (moved from server/live_mode.cpp, which keeps that state) and what the page may send.
#include <memtracer/json.h>

#include "endpoints.h"
#include "memtracer/viewer/routes.h"

namespace mt::viewer {

std::string_view live_state_name(LiveState s) {
    switch (s) {
    case LiveState::Connecting: return "connecting";
    case LiveState::Streaming: return "streaming";
    case LiveState::Paused: return "paused";
    case LiveState::Ended: return "ended";
    case LiveState::Stopped: return "stopped";
    case LiveState::CutOff: return "cut_off";
    case LiveState::Error: return "error";
    }
    return "error";
}

std::string_view ingest_state_name(IngestState s) {
    switch (s) {
    case IngestState::Waiting: return "waiting";
    case IngestState::Live: return "live";
    case IngestState::Ended: return "ended";
    case IngestState::CutOff: return "cut_off";
    case IngestState::Error: return "error";
    }
    return "error";
}

std::string live_json(const LiveView &v) {
    mt::Json j;
    j.obj()
        .kv("live", true)
        .kv("state", live_state_name(v.state))
        .kv("message", v.message)
        .kv("address", v.address)
        .kv("run_path", v.run_path)
        .kv("version", v.version)
        .kv("frames", v.frames);
    if (v.frames > 0) j.kv("last_frame", v.frames - 1);
    else j.key("last_frame").null();
    j.kv("events", v.events)
        .key("frames_per_s").val(v.frames_per_s, 1)
        .key("events_per_s").val(v.events_per_s, 0)
        .kv("lag_frames", v.frames > v.run_frames ? v.frames - v.run_frames : 0)
        .kv("game_lag_frames", v.game_lag_frames)
        .kv("drops", v.drops)
        .kv("paused", v.paused)
        .kv("marks", v.marks)
        .kv("stored_bytes", v.stored_bytes)
        .kv("ingest", ingest_state_name(v.ingest))
        .kv("ingest_error", v.ingest_error)
        .kv("run_frames", v.run_frames)
        .kv("last_ack", v.last_ack);
    if (v.run_id >= 0) j.kv("run_id", v.run_id);
    else j.key("run_id").null();
    // mt_frame_end -> queryable in run_id, over the last 10,000 frames (bench/live/run.sh reads it).
    j.obj("queryable_latency_ms").kv("frames", v.latency_frames);
    if (v.latency_frames > 0)
        j.key("p50").val(v.latency_p50_ms, 1).key("p95").val(v.latency_p95_ms, 1).key("max").val(v.latency_max_ms, 1);
    j.end_obj();
    j.end_obj();
    return j.take();
}

namespace {
Response not_live() { return error_response(409, "not live: start memtracer-viewer with --live ADDR"); }
}  // namespace

Response live_status(Services &s) {
    auto v = s.live();
    if (!v) return Response{200, R"({"live":false})", "application/json", ""};
    return Response{200, live_json(*v), "application/json", ""};
}

Response live_events(Services &s) {
    auto v = s.live();
    if (!v) return not_live();
    // One event per response and a short retry: EventSource reconnects by itself, so every open
    // page gets the state twice a second without holding one of the server's few threads per page.
    return Response{200, "retry: 500\nid: " + std::to_string(v->version) + "\nevent: live\ndata: " + live_json(*v) + "\n\n",
                    "text/event-stream", ""};
}

Response live_control(Services &s, const Request &req, LiveControl c) {
    if (!s.live_enabled()) return not_live();
    std::string label;
    for (auto &[k, v] : req.params)
        if (k == "label") label = v;
    if (c == LiveControl::Mark && (label.empty() || label.size() > kLiveMaxMarkLabel))
        return error_response(400, "mark needs a label of 1.." + std::to_string(kLiveMaxMarkLabel) + " bytes", "label");
    if (!s.live_send(c, c == LiveControl::Mark ? label : std::string()))
        return error_response(409, "not connected to the game");
    return Response{200, R"({"sent":true})", "application/json", ""};  // the page sees the ACK in the status (last_ack)
}

}  // namespace mt::viewer
