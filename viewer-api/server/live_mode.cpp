// live_mode.cpp — see live_mode.h. Two threads: the capture (live/'s Boost.Asio session, which
// writes whole chunks to run.mt and reports each FRAME), and the ingest loop, which turns the
// committed prefix of run.mt into a run with the symbolizer. Re-ingesting the whole prefix each
// time is the simplest correct design: the reader only returns committed frames, the per-build
// address cache makes repeated symbolization cheap, and the previous run stays served until the
// next one is complete.
#include "live_mode.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

#include <memtracer/json.h>
#include <memtracer/process.h>
#include <memtracer/store/queries.h>

#include "capture.h"
#include "live_link.h"
#include "memtracer/stream_proto.h"

namespace mt::viewer {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct LiveMode::Impl {
    LiveOptions o;
    std::string db, symbolizer, run_path, snapshot_path;
    std::function<void()> refresh;
    live::LiveLink link;

    std::mutex mu;
    std::condition_variable cv;
    std::string state = "connecting";
    bool capture_done = false, quit = false;
    uint64_t frames = 0, events = 0, frame_drops = 0, stored_bytes = 0;
    live::Status status;
    uint64_t version = 0;          // bumped on every change the page shows
    double frames_per_s = 0, events_per_s = 0;
    int64_t run_id = -1;           // newest complete run
    uint64_t run_frames = 0;       // frames in it
    uint64_t ingests = 0;
    std::string ingest_error, last_ack;

    std::thread capture_thread, ingest_thread;

    void changed() {
        ++version;
        cv.notify_all();
    }
    void run_capture();
    void ingest_loop();
    bool ingest(uint64_t bytes, uint64_t frames_in);
    std::string json();
};

void LiveMode::Impl::run_capture() {
    link.on_frame = [this](const live::FrameSummary &f, uint64_t bytes) {
        std::lock_guard lk(mu);
        frames = f.seq + 1;
        events += f.events;
        frame_drops += f.dropped;
        stored_bytes = bytes;
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
        changed();
    };
    link.on_state = [this](const std::string &s) {
        std::lock_guard lk(mu);
        state = s;
        changed();
    };
    live::CaptureOptions c;
    c.address = o.address;
    c.token = o.token;
    c.out = run_path;
    c.commands = false;
    c.status_seconds = 0;
    c.wait_seconds = 30;
    c.link = &link;
    int rc = live::run_capture(c);
    std::lock_guard lk(mu);
    if (rc == 2 && state.rfind("error", 0) != 0) state = "error: see the server's log";
    capture_done = true;
    changed();
}

// The committed prefix is copied first: the capture keeps appending to run.mt, and the
// symbolizer must see exactly the whole chunks `bytes` covers (never a chunk half written).
bool LiveMode::Impl::ingest(uint64_t bytes, uint64_t frames_in) {
    {
        int in = ::open(run_path.c_str(), O_RDONLY | O_CLOEXEC);
        int out = ::open(snapshot_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        bool ok = in >= 0 && out >= 0;
        std::vector<char> buf(1 << 20);
        for (uint64_t off = 0; ok && off < bytes;) {
            ssize_t n = ::pread(in, buf.data(), std::min<uint64_t>(buf.size(), bytes - off), static_cast<off_t>(off));
            ok = n > 0 && ::write(out, buf.data(), static_cast<size_t>(n)) == n;
            off += n > 0 ? static_cast<uint64_t>(n) : 0;
        }
        if (in >= 0) ::close(in);
        if (out >= 0) ::close(out);
        if (!ok) {
            std::lock_guard lk(mu);
            ingest_error = "cannot copy " + run_path + " to " + snapshot_path;
            return false;
        }
    }
    std::vector<std::string> argv{symbolizer, snapshot_path, "-o", db, "--jobs", "1", "--quiet", "--no-progress"};
    argv.insert(argv.end(), o.symbol_args.begin(), o.symbol_args.end());
    int rc = 0;
    std::string log;
    try {
        proc::StderrCapture err;
        proc::Child child = proc::Child::spawn(argv, err.fd());
        child.close_stdin();
        child.read_all();
        rc = child.wait();
        for (auto &l : err.take_lines()) log = l;  // the last line says why
    } catch (const std::exception &e) {
        rc = -1;
        log = e.what();
    }
    std::optional<int64_t> id;
    if (rc == 0) {
        try {
            id = store::newest_run_for_source(db, fs::absolute(snapshot_path).string());
            if (!id) id = store::newest_run_for_source(db, snapshot_path);
        } catch (const std::exception &e) {
            log = e.what();
        }
    }
    if (id) refresh();
    std::lock_guard lk(mu);
    ++ingests;
    if (!id) {
        ingest_error = "symbolizer exited with " + std::to_string(rc) + (log.empty() ? "" : ": " + log);
        std::fprintf(stderr, "memtracer-viewer: live ingest: %s\n", ingest_error.c_str());
    } else {
        ingest_error.clear();
        run_id = *id;
        run_frames = frames_in;
    }
    changed();
    return id.has_value();
}

void LiveMode::Impl::ingest_loop() {
    uint64_t done_bytes = 0, rate_frames = 0, rate_events = 0;
    auto rate_at = Clock::now();
    std::unique_lock lk(mu);
    for (;;) {
        // A period, not synchronisation: the ingest rate limit, also ended early by quit.
        cv.wait_for(lk, std::chrono::milliseconds(o.ingest_ms), [&] { return quit; });
        if (quit) return;
        double dt = std::chrono::duration<double>(Clock::now() - rate_at).count();
        if (dt >= 1.0) {
            frames_per_s = (frames - rate_frames) / dt;
            events_per_s = (events - rate_events) / dt;
            rate_frames = frames, rate_events = events, rate_at = Clock::now();
            changed();
        }
        uint64_t bytes = stored_bytes, f = frames;
        bool last = capture_done;
        if (bytes > done_bytes) {
            lk.unlock();
            if (ingest(bytes, f)) done_bytes = bytes;
            lk.lock();
        }
        if (last && done_bytes >= stored_bytes) {
            frames_per_s = events_per_s = 0;
            changed();
            return;
        }
    }
}

std::string LiveMode::Impl::json() {
    Json j;
    uint64_t lag = status.open_frame > frames ? status.open_frame - frames : 0;
    j.obj()
        .kv("live", true)
        .kv("state", state)
        .kv("address", o.address)
        .kv("version", version)
        .kv("frames", frames)
        .kv("events", events)
        .key("frames_per_s").val(frames_per_s, 1)
        .key("events_per_s").val(events_per_s, 0)
        .kv("lag_frames", lag)
        .kv("drops", std::max(status.dropped, frame_drops))
        .kv("paused", (status.flags & 1) != 0)
        .kv("stored_bytes", stored_bytes)
        .kv("ingests", ingests)
        .kv("run_frames", run_frames)
        .kv("last_ack", last_ack)
        .kv("ingest_error", ingest_error);
    if (run_id >= 0) j.kv("run_id", run_id);
    else j.key("run_id").null();
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
    i.run_path = (p.parent_path() / (p.stem().string() + "-live.mt")).string();
    i.snapshot_path = (p.parent_path() / (p.stem().string() + "-live.snapshot.mt")).string();
    auto keep = impl_;
    i.capture_thread = std::thread([keep] { keep->run_capture(); });
    i.ingest_thread = std::thread([keep] { keep->ingest_loop(); });
}

LiveMode::~LiveMode() {
    {
        std::lock_guard lk(impl_->mu);
        impl_->quit = true;
        impl_->cv.notify_all();
    }
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
        // One event per response and a short retry: EventSource reconnects by itself, so the
        // page gets the state twice a second without a connection held open per page.
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
        r.status = 202;
        r.body = R"({"sent":true})";
        return r;
    }
    return error_response(404, "no such live endpoint: " + p);
}

}  // namespace mt::viewer
