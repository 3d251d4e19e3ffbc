// capture_session.cpp — see memtracer/live/capture.h. The wire session and the run file: one
// thread, Boost.Asio, the socket read asynchronously, controls tiny synchronous writes; a front
// end (capture_session.h) may add its own handlers to the same thread.
#include "capture_session.h"

#include <utility>  // Boost 1.74 asio uses std::exchange without including it (C++20)
#include <algorithm>
#include <array>
#include <cstring>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include "memtracer/format.h"
#include "memtracer/live/live_link.h"
#include "memtracer/stream_proto.h"
#include "run_file.h"
#include "stream_check.h"
#include "stream_parser.h"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace mt::live {

namespace {

tcp::endpoint parse_endpoint(const std::string &text) {
    auto colon = text.rfind(':');
    std::string host = colon == std::string::npos ? "127.0.0.1" : text.substr(0, colon);
    std::string port = colon == std::string::npos ? text : text.substr(colon + 1);
    if (host.empty() || host == "localhost") host = "127.0.0.1";
    boost::system::error_code ec;
    auto ip = asio::ip::make_address(host, ec);
    unsigned long p = 0;
    try {
        size_t used = 0;
        p = std::stoul(port, &used);
        if (used != port.size() || p > 65535) throw std::invalid_argument(port);
    } catch (const std::exception &) {
        throw std::runtime_error("'" + text + "' is not host:port (bad port)");
    }
    if (ec) throw std::runtime_error("'" + text + "' is not host:port (" + host + ": " + ec.message() + ")");
    return {ip, static_cast<unsigned short>(p)};
}

std::vector<uint8_t> control(uint16_t type, const std::string &payload = {}) {
    std::vector<uint8_t> m(MT_LIVE_MSG_HEADER + payload.size());
    mt_live_put_header(m.data(), MT_LIVE_CONTROL_MAGIC, type, static_cast<uint16_t>(payload.size()));
    std::copy(payload.begin(), payload.end(), m.begin() + MT_LIVE_MSG_HEADER);
    return m;
}

const char *control_name(uint16_t t) {
    switch (t) {
    case MT_LIVE_CTL_PAUSE: return "pause";
    case MT_LIVE_CTL_RESUME: return "resume";
    case MT_LIVE_CTL_STOP: return "stop";
    case MT_LIVE_CTL_MARK: return "mark";
    }
    return "?";
}

class Session {
public:
    Session(const CaptureOptions &o, FrontEnd *front_end) : o_(o), front_end_(front_end), sock_(io_) {
        parser_.emplace(handlers());
    }

    int run() {
        if (o_.resume) {
            file_.open(o_.out, true);
            file_open_ = true;
        }
        state(CaptureState::Connecting);
        wait_until_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                             std::chrono::duration<double>(o_.wait_seconds));
        if (!connect(o_.listen ? -1 : o_.wait_seconds)) return state(CaptureState::Error, "cannot connect"), 2;
        if (o_.link)  // controls are written on this thread, in the order they were sent
            o_.link->set_sender([this](uint16_t t, std::string p) {
                asio::post(io_, [this, t, p = std::move(p)] { send_control(t, p); });
            });
        if (front_end_) front_end_->attach(io_);
        for (;;) {
            send_hello();
            read_socket();
            io_.run();
            if (busy_ && retry_busy()) continue;
            if (got_end_ || !error_.empty() || !welcomed_ || o_.reconnect_seconds <= 0) break;
            // Cut off without END: a dropped network (Wi-Fi, a cable) rather than a dead game,
            // perhaps. The chunk in flight was never stored; ask for everything after the last.
            state(CaptureState::Reconnecting);
            std::fprintf(stderr, "memtracer-capture: connection lost after frame %llu; waiting up to %.0f s for the game\n",
                         static_cast<unsigned long long>(frames_), o_.reconnect_seconds);
            boost::system::error_code ec;
            sock_.close(ec);
            parser_.emplace(handlers());
            io_.restart();
            if (!connect(o_.reconnect_seconds)) break;
        }
        if (o_.link) o_.link->set_sender(nullptr);  // no control after the end (run_capture's guard too)
        int rc = finish();
        if (rc == 0) state(CaptureState::Ended);
        else if (rc == 3) state(CaptureState::CutOff);
        else state(CaptureState::Error, error_.empty() ? std::string("not a runtime") : error_);
        return rc;
    }

    void state(CaptureState s, const std::string &why = {}) {
        if (o_.link && o_.link->on_state) o_.link->on_state(s, why);
    }

private:
    // WELCOME status BUSY (another host is being served): within --wait, ask again, as for a game
    // that is not listening yet; the runtime frees its slot as soon as that host goes.
    bool retry_busy() {
        busy_ = false;
        double left = std::chrono::duration<double>(wait_until_ - std::chrono::steady_clock::now()).count();
        if (o_.listen || left <= 0) return false;
        error_.clear();
        std::fprintf(stderr, "memtracer-capture: the runtime serves another host; asking again for up to %.0f s\n", left);
        boost::system::error_code ec;
        sock_.close(ec);
        parser_.emplace(handlers());
        io_.restart();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (!connect(left)) {
            error_ = "refused by the runtime: another host is being served (for all of --wait)";
            return false;
        }
        return true;
    }

    // seconds < 0: wait for ever (a host started before its game).
    bool connect(double seconds) {
        tcp::endpoint ep = parse_endpoint(o_.address);
        if (o_.listen) {
            if (!acc_) {
                acc_.emplace(io_, ep);
                acc_->non_blocking(true);
                std::fprintf(stderr, "memtracer-capture: listening on %s:%u\n", ep.address().to_string().c_str(),
                             acc_->local_endpoint().port());
            }
            auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
            for (;;) {
                boost::system::error_code ec;
                acc_->accept(sock_, ec);
                if (!ec) break;
                if (seconds >= 0 && std::chrono::steady_clock::now() > deadline) return false;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            sock_.non_blocking(false);
            sock_.set_option(tcp::no_delay(true));
            return true;
        }
        auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        for (;;) {
            boost::system::error_code ec;
            sock_.connect(ep, ec);
            if (!ec) break;
            sock_.close();
            if (std::chrono::steady_clock::now() > deadline) {
                std::fprintf(stderr, "memtracer-capture: cannot connect to %s: %s\n", o_.address.c_str(),
                             ec.message().c_str());
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        sock_.set_option(tcp::no_delay(true));
        return true;
    }

    void send_hello() {
        std::vector<uint8_t> h(MT_LIVE_HELLO_FIXED + o_.token.size());
        std::memcpy(h.data(), MT_LIVE_HELLO_MAGIC, 4);
        mt_live_put16(h.data() + 4, MT_LIVE_VERSION);
        mt_live_put16(h.data() + 6, static_cast<uint16_t>(o_.token.size()));
        bool resume = file_open_ && file_.has_header();
        mt_live_put64(h.data() + 8, resume ? file_.size() : 0);
        if (resume) std::memcpy(h.data() + 16, file_.header().data(), 64);
        std::copy(o_.token.begin(), o_.token.end(), h.begin() + MT_LIVE_HELLO_FIXED);
        asio::write(sock_, asio::buffer(h));
    }

    void send_control(uint16_t type, const std::string &payload = {}) {
        boost::system::error_code ec;
        asio::write(sock_, asio::buffer(control(type, payload)), ec);
        if (ec) std::fprintf(stderr, "memtracer-capture: %s not sent: %s\n", control_name(type), ec.message().c_str());
    }

    StreamParser::Handlers handlers() {
        StreamParser::Handlers h;
        h.welcome = [this](const Welcome &w) {
            if (w.status != MT_LIVE_OK) {
                busy_ = w.status == MT_LIVE_BUSY;  // retried within --wait (run())
                throw std::runtime_error("refused by the runtime: " + w.message);
            }
            if (!file_open_) file_.open(o_.out, false);
            file_open_ = true;
            file_.truncate_to(w.start_offset);
            check_.restart(o_.out);  // what the file holds now is what later chunks must follow
            welcomed_ = true;
            state(CaptureState::Streaming);
            std::fprintf(stderr, "memtracer-capture: streaming into %s from byte %llu\n", o_.out.c_str(),
                         static_cast<unsigned long long>(w.start_offset));
        };
        h.header = [this](std::span<const uint8_t> b) {
            check_.header(b);  // throws for a header the reader refuses: nothing stored
            file_.append(b);
            start_unix_ns_ = mt_live_get64(b.data() + 16);
        };
        h.chunk = [this](uint16_t type, std::span<const uint8_t> b) { on_chunk(type, b); };
        h.status = [this](const Status &s) {
            if (o_.link && o_.link->on_status) o_.link->on_status(s);
        };
        h.ack = [this](const Ack &a) {
            if (o_.link && o_.link->on_ack) o_.link->on_ack(a);
            static const char *results[] = {"applied", "refused", "not supported by this runtime"};
            std::fprintf(stderr, "memtracer-capture: %s %s (open frame %llu before, %llu after)\n",
                         control_name(a.control), a.result < 3 ? results[a.result] : "?",
                         static_cast<unsigned long long>(a.frame_before), static_cast<unsigned long long>(a.frame_after));
        };
        return h;
    }

    void on_chunk(uint16_t type, std::span<const uint8_t> b) {
        // Checked as the reader reads it before it is stored: a refused chunk throws, and the
        // file stays the good prefix before it (docs/live.md, "The host validates as the reader reads").
        check_.chunk(b, file_.size());
        file_.append(b);
        if (check_.ended()) got_end_ = true;
        if (type == MT_CHUNK_INFO) tick_hz_ = decode_tick_hz(b).value_or(1e9);
        if (type != MT_CHUNK_FRAME) return;
        if (auto f = decode_frame(b)) {
            frames_ = f->seq + 1;
            events_ += f->events;
            if (f->seq == 0) base_tick_ = f->start_tick;
            if (o_.link && o_.link->on_frame)
                o_.link->on_frame({*f, file_.size(), start_unix_ns_ && base_tick_ ? frame_end_ns(*f) : 0.0,
                                   (f->end_tick - base_tick_) / tick_hz_});
        }
        if (o_.stop_after_frames && frames_ >= o_.stop_after_frames && !stop_sent_) {
            stop_sent_ = true;
            send_control(MT_LIVE_CTL_STOP);
        }
    }

    // The frame's end on the runtime's clock, placed on the wall clock through the header's
    // start time (frame 0 starts at mt_start); host and game share the machine's clock.
    double frame_end_ns(const FrameSummary &f) const { return start_unix_ns_ + (f.end_tick - base_tick_) * 1e9 / tick_hz_; }

    void read_socket() {
        sock_.async_read_some(asio::buffer(rx_), [this](boost::system::error_code ec, size_t n) {
            if (!ec) {
                try {
                    if (!parser_->feed({rx_.data(), n})) {
                        error_ = "protocol error: " + parser_->error();
                        return stop_io();
                    }
                } catch (const std::exception &e) {
                    error_ = e.what();
                    return stop_io();
                }
                return read_socket();
            }
            closed_ = true;
            stop_io();
        });
    }

    void stop_io() { io_.stop(); }  // a front end's handlers stay queued for a reconnect

    int finish() {
        if (!error_.empty()) {
            std::fprintf(stderr, "memtracer-capture: %s\n", error_.c_str());
            if (!welcomed_) return 2;
            std::fprintf(stderr, "memtracer-capture: %s keeps %llu frames (whole chunks only)\n", o_.out.c_str(),
                         static_cast<unsigned long long>(frames_));
            return 2;
        }
        if (got_end_) {
            std::fprintf(stderr, "memtracer-capture: capture complete: %llu frames, %llu events, %llu bytes in %s\n",
                         static_cast<unsigned long long>(frames_), static_cast<unsigned long long>(events_),
                         static_cast<unsigned long long>(file_.size()), o_.out.c_str());
            return 0;
        }
        if (!welcomed_) {
            std::fprintf(stderr, "memtracer-capture: the peer hung up before answering (not a MemTracer runtime?)\n");
            return 2;
        }
        std::fprintf(stderr,
                     "memtracer-capture: cut off: the game went away before the end of the capture; %s keeps its "
                     "%llu committed frames (whole chunks only; memtracer-dump reports it as eof)\n",
                     o_.out.c_str(), static_cast<unsigned long long>(frames_));
        return 3;
    }

    CaptureOptions o_;
    FrontEnd *front_end_;
    asio::io_context io_;
    tcp::socket sock_;
    std::array<uint8_t, 64 * 1024> rx_{};
    RunFile file_;
    StreamCheck check_;
    std::optional<StreamParser> parser_;  // one per connection
    std::optional<tcp::acceptor> acc_;
    uint64_t frames_ = 0, events_ = 0;
    uint64_t start_unix_ns_ = 0, base_tick_ = 0;
    double tick_hz_ = 1e9;
    std::chrono::steady_clock::time_point wait_until_;
    bool busy_ = false;
    bool welcomed_ = false, got_end_ = false, stop_sent_ = false, closed_ = false, file_open_ = false;
    std::string error_;
};

}  // namespace

int run_capture(const CaptureOptions &o, FrontEnd *front_end) {
    try {
        Session s(o, front_end);
        // Declared after the session, so it runs first, on every way out (an exception too: a
        // failed write of HELLO throws): the link's sender, which posts to the session, and the
        // front end's asio objects go before the session's io_context.
        struct Detach {
            LiveLink *link;
            FrontEnd *fe;
            ~Detach() {
                if (link) link->set_sender(nullptr);
                if (fe) fe->detach();
            }
        } detach{o.link, front_end};
        return s.run();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "memtracer-capture: %s\n", e.what());
        return 2;
    }
}

int run_capture(const CaptureOptions &o) { return run_capture(o, nullptr); }

}  // namespace mt::live
