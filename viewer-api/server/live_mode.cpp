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
#include <optional>
#include <thread>
#include <tuple>
#include <utility>

#include "memtracer/live/capture.h"
#include "live_follow.h"
#include "memtracer/live/live_link.h"
#include "memtracer/stream_proto.h"

namespace mt::viewer {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
// The capture's state as the page names it, with the reason shown beside it.
std::pair<LiveState, std::string> page_state(live::CaptureState s, const std::string &why, bool stop_applied,
                                             bool paused) {
    switch (s) {
    case live::CaptureState::Connecting: return {LiveState::Connecting, ""};
    case live::CaptureState::Streaming: return {paused ? LiveState::Paused : LiveState::Streaming, ""};
    case live::CaptureState::Reconnecting: return {LiveState::Connecting, "connection lost; waiting for the game"};
    case live::CaptureState::Ended: return {stop_applied ? LiveState::Stopped : LiveState::Ended, ""};
    case live::CaptureState::CutOff: return {LiveState::CutOff, "the game went away before the end of its capture"};
    case live::CaptureState::Error: return {LiveState::Error, why};
    }
    return {LiveState::Error, why};
}

// The follow child's word for its run (live_follow.h); nullopt for one it never prints.
std::optional<IngestState> ingest_state_of(std::string_view s) {
    if (s == "live") return IngestState::Live;
    if (s == "ended") return IngestState::Ended;
    if (s == "cut_off") return IngestState::CutOff;
    return std::nullopt;
}

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
    live::CaptureState capture_state = live::CaptureState::Connecting;
    std::string capture_error;  // why, for CaptureState::Error
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
    IngestState ingest = IngestState::Waiting;  // the follow child's
    std::string ingest_error, last_ack;
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
    LiveView view();
};

void LiveMode::Impl::run_capture() {
    link.on_frame = [this](const live::StoredFrame &s) {
        const live::FrameSummary &f = s.frame;
        std::lock_guard lk(mu);
        if (s.end_unix_ns > 0 && pending.size() < (1u << 20)) pending.emplace_back(f.seq, s.end_unix_ns);
        frames = f.seq + 1;
        events += f.events;
        frame_drops += f.dropped;
        stored_bytes = s.stored_bytes;
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
    link.on_state = [this](live::CaptureState s, const std::string &why) {
        std::lock_guard lk(mu);
        capture_state = s;
        capture_error = why;
        changed();
    };
    live::CaptureOptions c;
    c.address = o.address;
    c.listen = o.listen;
    c.token = o.token;
    c.out = run_path;
    c.wait_seconds = 24 * 3600;  // the viewer may well be started before the game
    c.link = &link;
    int rc = live::run_capture(c);
    {
        std::lock_guard lk(mu);
        if (rc == 2 && capture_state != live::CaptureState::Error) {
            capture_state = live::CaptureState::Error;
            capture_error = "see the server's log";
        }
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
        if (auto s = ingest_state_of(f.state)) ingest = *s;
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
            if (capture_done && frames == 0) {
                ingest = IngestState::Error;
                ingest_error = "no frame was received";
            }
            changed();
            return;
        }
    }
    std::string error;
    int rc = follow.run(follow_argv(symbolizer, run_path, db, o.symbol_args),
                        [this](const FollowLine &f) { on_follow(f); }, error);
    std::lock_guard lk(mu);
    if (rc != 0) {
        ingest = IngestState::Error;
        ingest_error = "memtracer-symbolize --follow exited with " + std::to_string(rc) + (error.empty() ? "" : ": " + error);
        std::fprintf(stderr, "memtracer-viewer: live ingest: %s\n", ingest_error.c_str());
    } else if (ingest == IngestState::Live || ingest == IngestState::Waiting) {
        // Its last line said live: the run is final now.
        ingest = capture_state == live::CaptureState::Ended ? IngestState::Ended : IngestState::CutOff;
    }
    changed();
}

LiveView LiveMode::Impl::view() {
    LiveView v;
    // Rates over the last two seconds of frames, down to 0 when none came.
    auto now = Clock::now();
    while (!samples.empty() && now - samples.front().t > std::chrono::seconds(2)) samples.pop_front();
    if (!samples.empty()) {
        double dt = std::max(0.5, std::chrono::duration<double>(now - samples.front().t).count());
        v.frames_per_s = static_cast<double>(frames - samples.front().frames) / dt;
        v.events_per_s = static_cast<double>(events - samples.front().events) / dt;
    }
    std::tie(v.state, v.message) = page_state(capture_state, capture_error, stop_applied, (status.flags & 1) != 0);
    if (v.state != LiveState::Error && ingest == IngestState::Error) v.message = ingest_error;
    v.address = o.address;
    v.run_path = run_path;
    v.version = version;
    v.frames = frames;
    v.events = events;
    v.game_lag_frames = status.open_frame > frames ? status.open_frame - frames : 0;
    v.drops = std::max(status.dropped, frame_drops);
    v.paused = (status.flags & 1) != 0;
    v.marks = status.marks;
    v.stored_bytes = stored_bytes;
    v.ingest = ingest;
    v.ingest_error = ingest_error;
    v.run_frames = run_frames;
    v.last_ack = last_ack;
    v.run_id = run_id;
    // mt_frame_end -> queryable in run_id, over the last 10,000 frames (bench/live/run.sh reads it).
    v.latency_frames = latencies_ms.size();
    if (!latencies_ms.empty()) {
        std::vector<double> l(latencies_ms.begin(), latencies_ms.end());
        std::sort(l.begin(), l.end());
        auto pct = [&](double p) { return l[static_cast<size_t>(p * static_cast<double>(l.size() - 1) + 0.5)]; };
        v.latency_p50_ms = pct(0.5);
        v.latency_p95_ms = pct(0.95);
        v.latency_max_ms = l.back();
    }
    return v;
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

LiveView LiveMode::view() {
    std::lock_guard lk(impl_->mu);
    return impl_->view();
}

bool LiveMode::send(LiveControl c, const std::string &label) {
    static_assert(kLiveMaxMarkLabel == MT_LIVE_MAX_MARK, "live_view.h's label limit is the protocol's");
    uint16_t type = c == LiveControl::Pause    ? MT_LIVE_CTL_PAUSE
                    : c == LiveControl::Resume ? MT_LIVE_CTL_RESUME
                    : c == LiveControl::Stop   ? MT_LIVE_CTL_STOP
                                               : MT_LIVE_CTL_MARK;
    return impl_->link.send(type, label);
}

}  // namespace mt::viewer
