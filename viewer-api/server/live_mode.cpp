// live_mode.cpp — see live_mode.h. Two threads: the capture (live/'s Boost.Asio session, which
// writes whole chunks to run.mt and reports each FRAME), and the ingest thread, which runs the
// one `memtracer-symbolize --follow` child over the growing run.mt and publishes its batches.
// Every field the page shows lives under one mutex; `version` tells the page something changed.
#include "live_mode.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>

#include <memtracer/json.h>

#include "capture.h"
#include "live_follow.h"
#include "live_link.h"
#include "memtracer/stream_proto.h"

namespace mt::viewer {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
double unix_ns() {
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}
}  // namespace

struct LiveMode::Impl {
    LiveOptions o;
    std::string db, symbolizer, run_path;
    std::function<void()> refresh;
    live::LiveLink link;
    FollowIngest follow;

    std::mutex mu;
    std::condition_variable cv;
    std::string capture_state = "connecting";  // live_link.h's names
    bool capture_done = false, quit = false, stop_applied = false;
    uint64_t frames = 0, events = 0, frame_drops = 0, stored_bytes = 0;
    live::Status status;
    uint64_t version = 0;  // bumped on every change the page shows
    struct Sample {
        Clock::time_point t;
        uint64_t frames, events;
    };
    std::deque<Sample> samples;  // the last seconds of frames, for the rates
    // mt_frame_end -> queryable: each received frame's end (game wall clock) until a follow
    // line covers it, then its latency. Loopback or one machine: the clocks are the same.
    std::deque<std::pair<uint64_t, double>> pending;  // (seq, end unix ns)
    std::deque<double> latencies_ms;  // the last kLatencyFrames
    static constexpr size_t kLatencyFrames = 10000;
    // The follow child: "waiting" (no frame yet), "live", "ended", "cut_off", "error".
    std::string ingest = "waiting", ingest_error, last_ack;
    int64_t run_id = -1;
    uint64_t run_frames = 0, run_events = 0;

    std::thread capture_thread, ingest_thread;

    void changed() {
        ++version;
        cv.notify_all();
    }
    void run_capture();
    void run_ingest();
    void on_follow(const FollowLine &f);
    std::string json();
};

void LiveMode::Impl::run_capture() {
    link.on_frame = [this](const live::FrameSummary &f, uint64_t bytes, double end_ns) {
        std::lock_guard lk(mu);
        if (end_ns > 0 && pending.size() < (1u << 20)) pending.emplace_back(f.seq, end_ns);
        frames = f.seq + 1;
        events += f.events;
        frame_drops += f.dropped;
        stored_bytes = bytes;
        samples.push_back({Clock::now(), frames, events});
        while (samples.size() > 4096) samples.pop_front();
        changed();
    };
    link.on_status = [this](const live::Status &s) {
        std::lock_guard lk(mu);
        status = s;
        changed();
    };
    link.on_ack = [this](const live::Ack &a) {
        static const char *names[] = {"?", "pause", "resume", "stop", "mark"};
        static const char *results[] = {"applied", "refused", "unsupported"};
        std::lock_guard lk(mu);
        last_ack = std::string(a.control < 5 ? names[a.control] : "?") + " " + (a.result < 3 ? results[a.result] : "?");
        if (a.control == MT_LIVE_CTL_STOP && a.result == 0) stop_applied = true;
        changed();
    };
    link.on_state = [this](const std::string &s) {
        std::lock_guard lk(mu);
        capture_state = s;
        changed();
    };
    live::CaptureOptions c;
    c.address = o.address;
    c.listen = o.listen;
    c.token = o.token;
    c.out = run_path;
    c.commands = false;
    c.status_seconds = 0;
    c.wait_seconds = 24 * 3600;  // the viewer may well be started before the game
    c.link = &link;
    int rc = live::run_capture(c);
    {
        std::lock_guard lk(mu);
        if (rc == 2 && capture_state.rfind("error", 0) != 0) capture_state = "error: see the server's log";
        capture_done = true;
        changed();
    }
    // Ended: the follow child reads the END chunk and finishes by itself. Anything else: no END
    // will come, so it finishes the run as cut off.
    if (rc != 0) follow.finish();
}

void LiveMode::Impl::on_follow(const FollowLine &f) {
    bool first = false;
    {
        std::lock_guard lk(mu);
        first = run_id != f.run_id;
        run_id = f.run_id;
        run_frames = f.frames;
        const double now = unix_ns();
        while (!pending.empty() && static_cast<int64_t>(pending.front().first) <= f.last_seq) {
            latencies_ms.push_back((now - pending.front().second) / 1e6);
            if (latencies_ms.size() > kLatencyFrames) latencies_ms.pop_front();
            pending.pop_front();
        }
        run_events = f.events;
        ingest = f.state;
        changed();
    }
    if (first) refresh();
}

void LiveMode::Impl::run_ingest() {
    {
        // The child starts on a file holding the header and a first whole frame.
        std::unique_lock lk(mu);
        cv.wait(lk, [&] { return quit || capture_done || frames > 0; });
        if (quit || frames == 0) {
            ingest = capture_done && frames == 0 ? "error" : ingest;
            if (ingest == "error") ingest_error = "no frame was received";
            changed();
            return;
        }
    }
    std::string error;
    int rc = follow.run(follow_argv(symbolizer, run_path, db, o.symbol_args),
                        [this](const FollowLine &f) { on_follow(f); }, error);
    std::lock_guard lk(mu);
    if (rc != 0) {
        ingest = "error";
        ingest_error = "memtracer-symbolize --follow exited with " + std::to_string(rc) + (error.empty() ? "" : ": " + error);
        std::fprintf(stderr, "memtracer-viewer: live ingest: %s\n", ingest_error.c_str());
    } else if (ingest == "live" || ingest == "waiting") {
        ingest = capture_state == "ended" ? "ended" : "cut_off";  // its last line said live: the run is final now
    }
    changed();
}

std::string LiveMode::Impl::json() {
    // Rates over the last two seconds of frames, down to 0 when none came.
    auto now = Clock::now();
    while (!samples.empty() && now - samples.front().t > std::chrono::seconds(2)) samples.pop_front();
    double fps = 0, eps = 0;
    if (!samples.empty()) {
        double dt = std::max(0.5, std::chrono::duration<double>(now - samples.front().t).count());
        fps = static_cast<double>(frames - samples.front().frames) / dt;
        eps = static_cast<double>(events - samples.front().events) / dt;
    }
    std::string state = capture_state, message;
    if (state.rfind("error", 0) == 0) {
        message = state.size() > 7 ? state.substr(7) : "";
        state = "error";
    } else if (state == "cut off") {
        state = "cut_off";
        message = "the game went away before the end of its capture";
    } else if (state == "ended") {
        state = stop_applied ? "stopped" : "ended";
    } else if (state == "reconnecting") {
        state = "connecting";
        message = "connection lost; waiting for the game";
    } else if (state == "streaming" && (status.flags & 1)) {
        state = "paused";
    }
    if (state != "error" && ingest == "error") message = ingest_error;
    Json j;
    j.obj()
        .kv("live", true)
        .kv("state", state)
        .kv("message", message)
        .kv("address", o.address)
        .kv("run_path", run_path)
        .kv("version", version)
        .kv("frames", frames);
    if (frames > 0) j.kv("last_frame", frames - 1);
    else j.key("last_frame").null();
    j.kv("events", events)
        .key("frames_per_s").val(fps, 1)
        .key("events_per_s").val(eps, 0)
        .kv("lag_frames", frames > run_frames ? frames - run_frames : 0)
        .kv("game_lag_frames", status.open_frame > frames ? status.open_frame - frames : 0)
        .kv("drops", std::max(status.dropped, frame_drops))
        .kv("paused", (status.flags & 1) != 0)
        .kv("marks", static_cast<uint64_t>(status.marks))
        .kv("stored_bytes", stored_bytes)
        .kv("ingest", ingest)
        .kv("ingest_error", ingest_error)
        .kv("run_frames", run_frames)
        .kv("last_ack", last_ack);
    if (run_id >= 0) j.kv("run_id", run_id);
    else j.key("run_id").null();
    // mt_frame_end -> queryable in run_id, over the last 10,000 frames (bench/live/run.sh reads it).
    j.obj("queryable_latency_ms").kv("frames", static_cast<uint64_t>(latencies_ms.size()));
    if (!latencies_ms.empty()) {
        std::vector<double> v(latencies_ms.begin(), latencies_ms.end());
        std::sort(v.begin(), v.end());
        auto pct = [&](double p) { return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5)]; };
        j.key("p50").val(pct(0.5), 1).key("p95").val(pct(0.95), 1).key("max").val(v.back(), 1);
    }
    j.end_obj();
    j.end_obj();
    return j.take();
}

LiveMode::LiveMode(LiveOptions o, std::string db, std::string symbolizer, std::function<void()> refresh)
    : impl_(std::make_shared<Impl>()) {
    auto &i = *impl_;
    i.o = std::move(o);
    i.db = std::move(db);
    i.symbolizer = std::move(symbolizer);
    i.refresh = std::move(refresh);
    fs::path p(i.db);
    i.run_path = !i.o.out.empty() ? fs::absolute(i.o.out).string()
                                  : (p.parent_path() / (p.stem().string() + "-live.mt")).string();
    auto keep = impl_;
    i.capture_thread = std::thread([keep] { keep->run_capture(); });
    i.ingest_thread = std::thread([keep] { keep->run_ingest(); });
}

LiveMode::~LiveMode() {
    {
        std::lock_guard lk(impl_->mu);
        impl_->quit = true;
        impl_->cv.notify_all();
    }
    impl_->follow.finish();  // a run still live is kept, finished as cut off
    impl_->ingest_thread.join();
    // The capture may be blocked on the game; it owns a reference to impl_ and ends with the process.
    impl_->capture_thread.detach();
}

const std::string &LiveMode::run_path() const { return impl_->run_path; }

Response LiveMode::handle(const std::string &method, const Request &req) {
    Response r;
    const std::string &p = req.path;
    if (p == "/api/live" || p == "/api/live/events") {
        if (method != "GET" && method != "HEAD") return error_response(405, "method " + method + " not allowed");
        std::lock_guard lk(impl_->mu);
        if (p == "/api/live") {
            r.body = impl_->json();
            return r;
        }
        // One event per response and a short retry: EventSource reconnects by itself, so every
        // open page gets the state twice a second without holding one of the server's few
        // threads per page.
        r.content_type = "text/event-stream";
        r.body = "retry: 500\nid: " + std::to_string(impl_->version) + "\nevent: live\ndata: " + impl_->json() + "\n\n";
        return r;
    }
    static const std::pair<const char *, uint16_t> controls[] = {
        {"/api/live/pause", MT_LIVE_CTL_PAUSE}, {"/api/live/resume", MT_LIVE_CTL_RESUME},
        {"/api/live/stop", MT_LIVE_CTL_STOP}, {"/api/live/mark", MT_LIVE_CTL_MARK}};
    for (auto &[path, type] : controls) {
        if (p != path) continue;
        if (method != "POST") return error_response(405, "use POST for " + p);
        std::string label;
        for (auto &[k, v] : req.params)
            if (k == "label") label = v;
        if (type == MT_LIVE_CTL_MARK && (label.empty() || label.size() > MT_LIVE_MAX_MARK))
            return error_response(400, "mark needs a label of 1.." + std::to_string(MT_LIVE_MAX_MARK) + " bytes", "label");
        if (!impl_->link.send(type, type == MT_LIVE_CTL_MARK ? label : std::string()))
            return error_response(409, "not connected to the game");
        r.body = R"({"sent":true})";  // sent; the page sees the ACK in the status (last_ack)
        return r;
    }
    return error_response(404, "no such live endpoint: " + p);
}

}  // namespace mt::viewer
