// terminal.cpp — see terminal.h. Its handlers run on the capture's thread (capture_session.h's
// FrontEnd), so the LiveLink callbacks and the status line share its counters without a lock.
#include "terminal.h"

#include <utility>  // Boost 1.74 asio uses std::exchange without including it (C++20)
#include <algorithm>
#include <ctime>
#include <istream>
#include <optional>
#include <vector>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <unistd.h>

#include "capture_session.h"
#include "memtracer/live/live_link.h"
#include "memtracer/stream_proto.h"

namespace asio = boost::asio;

namespace mt::live {

namespace {

class Terminal final : public FrontEnd {
public:
    explicit Terminal(const TerminalOptions &t) : t_(t) {
        link_.on_frame = [this](const StoredFrame &f) { on_frame(f); };
        link_.on_status = [this](const Status &s) { status_ = s; };
    }
    LiveLink *link() { return &link_; }

    void attach(asio::io_context &io) override {
        if (t_.commands) read_stdin(io);
        if (t_.status_seconds > 0) {
            timer_.emplace(io);
            tick();
        }
    }
    void detach() override {
        timer_.reset();
        in_.reset();
    }

    void print_latency() const {
        if (!t_.latency || latencies_ms_.empty()) return;
        std::vector<double> v = latencies_ms_;
        std::sort(v.begin(), v.end());
        auto pct = [&](double p) { return v[static_cast<size_t>(p * (v.size() - 1) + 0.5)]; };
        std::fprintf(stderr,
                     "latency mt_frame_end -> stored: p50 %.2f ms, p95 %.2f ms, max %.2f ms over %zu frames; "
                     "%.0f events/s over %.2f s of game time, %llu dropped\n",
                     pct(0.5), pct(0.95), v.back(), v.size(), game_seconds_ > 0 ? events_ / game_seconds_ : 0.0,
                     game_seconds_, static_cast<unsigned long long>(drops_));
    }

private:
    void on_frame(const StoredFrame &f) {
        frames_ = f.frame.seq + 1;
        events_ += f.frame.events;
        drops_ += f.frame.dropped;
        stored_bytes_ = f.stored_bytes;
        game_seconds_ = f.game_seconds;
        if (t_.latency && f.end_unix_ns > 0) {
            timespec ts{};
            clock_gettime(CLOCK_REALTIME, &ts);
            latencies_ms_.push_back((ts.tv_sec * 1e9 + ts.tv_nsec - f.end_unix_ns) / 1e6);
        }
    }

    void read_stdin(asio::io_context &io) {
        in_.emplace(io);
        boost::system::error_code ec;
        int fd = ::dup(0);
        in_->assign(fd, ec);  // a regular file or /dev/null cannot be polled: no commands then
        if (ec) {
            in_.reset();
            if (fd >= 0) ::close(fd);
            return;
        }
        next_line();
    }

    void next_line() {
        asio::async_read_until(*in_, line_, '\n', [this](boost::system::error_code ec, size_t) {
            if (ec) return;
            std::istream is(&line_);
            std::string cmd;
            std::getline(is, cmd);
            if (cmd == "pause") link_.send(MT_LIVE_CTL_PAUSE);
            else if (cmd == "resume") link_.send(MT_LIVE_CTL_RESUME);
            else if (cmd == "stop") link_.send(MT_LIVE_CTL_STOP);
            else if (cmd.rfind("mark ", 0) == 0 && cmd.size() > 5 && cmd.size() - 5 <= MT_LIVE_MAX_MARK)
                link_.send(MT_LIVE_CTL_MARK, cmd.substr(5));
            else if (!cmd.empty())
                std::fprintf(stderr, "memtracer-capture: commands are pause, resume, stop, mark NAME\n");
            next_line();
        });
    }

    void tick() {
        timer_->expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(t_.status_seconds)));
        timer_->async_wait([this](boost::system::error_code ec) {
            if (ec) return;
            print_status();
            tick();
        });
    }

    void print_status() {
        double dt = t_.status_seconds;
        uint64_t lag = status_.open_frame > frames_ ? status_.open_frame - frames_ : 0;
        std::fprintf(stderr, "live: frames %llu (%.1f/s), events %.0f/s, lag %llu frames, drops %llu, %.1f MiB%s\n",
                     static_cast<unsigned long long>(frames_), (frames_ - last_frames_) / dt,
                     (events_ - last_events_) / dt, static_cast<unsigned long long>(lag),
                     static_cast<unsigned long long>(status_.dropped > drops_ ? status_.dropped : drops_),
                     stored_bytes_ / 1048576.0, status_.flags & 1 ? ", paused" : "");
        last_frames_ = frames_;
        last_events_ = events_;
    }

    TerminalOptions t_;
    LiveLink link_;
    std::optional<asio::steady_timer> timer_;
    std::optional<asio::posix::stream_descriptor> in_;
    asio::streambuf line_;
    Status status_;
    uint64_t frames_ = 0, events_ = 0, drops_ = 0, last_frames_ = 0, last_events_ = 0, stored_bytes_ = 0;
    double game_seconds_ = 0;
    std::vector<double> latencies_ms_;
};

}  // namespace

int run_terminal_capture(CaptureOptions o, const TerminalOptions &t) {
    Terminal term(t);
    o.link = term.link();
    int rc = run_capture(o, &term);
    if (rc == 0 || rc == 3) term.print_latency();  // a refused or failed capture has none to give
    return rc;
}

}  // namespace mt::live
