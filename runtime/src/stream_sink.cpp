// stream_sink.cpp — see stream_sink.h: the sink's connection state machine. Its small pieces are
// in stream_net.cpp; what a control does to the capture is in lifecycle.cpp
// (live_try_set_paused, live_request_stop).
#include "stream_sink.h"

#include "stream_net.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <new>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "errors.h"
#include "lifecycle.h"
#include "state.h"
#include "writer.h"

namespace mt::rt {

namespace {

constexpr uint64_t kReconnectNs = 500000000ull;   // connect mode: retry a refused/lost host
constexpr uint64_t kStatusNs = 200000000ull;      // STATUS at most this often
constexpr uint64_t kServiceBudget = 4u << 20;     // bytes sent per writer iteration at most
constexpr uint64_t kFinishNs = 2000000000ull;     // finish(): at most this long in total
constexpr uint64_t kFinishStallNs = 500000000ull; // ... and this long without progress

}  // namespace

StreamSink *StreamSink::create(const mt_config *c, const char *path, uint64_t committed, uint64_t gen,
                               const WriterCounters *wc) {
    LiveSettings s = live_settings(c);
    if (!s.listen && !s.connect) return nullptr;
    void *mem = malloc(sizeof(StreamSink));
    if (!mem) {
        live_log("no memory for the live sink; live capture is off");
        return nullptr;
    }
    StreamSink *sink = new (mem) StreamSink();
    for (Pending &p : sink->pending_) p.fd = -1;
    sink->gen_ = gen;
    sink->wc_ = wc;
    if (!sink->begin(s, path, committed)) {
        destroy(sink);
        return nullptr;
    }
    return sink;
}

void StreamSink::destroy(StreamSink *s) {
    if (!s) return;
    if (s->fd_ >= 0) close(s->fd_);
    for (Pending &p : s->pending_)
        if (p.fd >= 0) close(p.fd);
    if (s->listen_fd_ >= 0) close(s->listen_fd_);
    if (s->file_fd_ >= 0) close(s->file_fd_);
    free(s->out_);
    s->~StreamSink();
    free(s);
}

bool StreamSink::begin(const LiveSettings &s, const char *path, uint64_t committed) {
    out_ = static_cast<uint8_t *>(malloc(kLiveOutCap));
    if (!out_ || !bounds_.push(0) || !bounds_.push(committed)) {
        live_log("no memory for the live sink; live capture is off");
        return false;
    }
    committed_ = committed;
    file_fd_ = open(path, O_RDONLY | O_CLOEXEC);
    have_header_ = file_fd_ >= 0 && pread(file_fd_, header_, sizeof header_, 0) == static_cast<ssize_t>(sizeof header_);
    if (!have_header_) {
        set_last_error("memtracer live: cannot read back %s (%s); live capture is off, the file is written as usual", path,
                       strerror(errno));
        live_log("cannot read back %s (%s); live capture is off", path, strerror(errno));
        return false;
    }
    if (s.token) snprintf(token_, sizeof token_, "%s", s.token);
    live_parse_address(s.listen ? s.listen : s.connect, &addr_);
    char where[32];
    format_address(addr_, where, sizeof where);
    if (s.connect) {
        connect_mode_ = true;
        live_log("connecting to %s%s", where, token_[0] ? " (token set)" : "");
        return true;
    }
    if (!token_[0]) {
        random_token(token_, sizeof token_);
        live_log("no MEMTRACER_TOKEN given; this capture's token is %s", token_);
    }
    listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    sockaddr_in sa = to_sockaddr(addr_);
    if (listen_fd_ < 0 || setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(listen_fd_, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || listen(listen_fd_, 4) != 0) {
        set_last_error("memtracer live: cannot listen on %s: %s; the capture runs without live streaming", where,
                       strerror(errno));
        live_log("cannot listen on %s: %s; the capture runs without live streaming", where, strerror(errno));
        return false;
    }
    set_nonblocking(listen_fd_);
    socklen_t len = sizeof sa;
    if (getsockname(listen_fd_, reinterpret_cast<sockaddr *>(&sa), &len) == 0) addr_ = from_sockaddr(sa);
    format_address(addr_, where, sizeof where);
    live_log("listening on %s", where);  // tests and scripts read the port from this line
    return true;
}

void StreamSink::committed(uint64_t end_offset) {
    if (end_offset <= committed_) return;
    committed_ = end_offset;
    // Without the entry a resume lands on an earlier boundary: more is resent, nothing is lost.
    (void)bounds_.push(end_offset);
}

uint64_t StreamSink::boundary_at_most(uint64_t off) const {
    uint32_t lo = 0, hi = bounds_.size();  // bounds_[0] = 0 <= off
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (bounds_[mid] <= off) lo = mid;
        else hi = mid;
    }
    return bounds_[lo];
}

void StreamSink::drop_errno() {
    char why[96];
    snprintf(why, sizeof why, "disconnected (%s)", strerror(errno));
    drop(why);
}

void StreamSink::drop(const char *why) {
    if (fd_ >= 0) {
        if (why) live_log("host %s: %s", peer_, why);
        close(fd_);
    }
    fd_ = -1;
    state_ = kIdle;
    in_len_ = out_pos_ = out_len_ = 0;
    n_pending_ = n_acks_ = 0;
    refusing_ = false;
    next_connect_ns_ = mono_ns() + kReconnectNs;
}

void StreamSink::service() {
    if (state_ == kHello && refusing_) {
        send_some(0);  // the refusal on its way out; then hang up
        if (state_ == kHello && (out_len_ == 0 || mono_ns() - state_since_ns_ > kLiveHelloTimeoutNs)) drop(nullptr);
    }
    if (state_ == kStreaming) read_control();  // also notices a host that went away
    if (state_ == kHello && !refusing_) read_hello();
    if (listen_fd_ >= 0) {
        accept_new();
        service_pending();
    }
    if (connect_mode_ && (state_ == kIdle || state_ == kConnecting)) connect_out();
    if (state_ == kStreaming) {
        apply_controls();
        send_some(kServiceBudget);
    }
}

void StreamSink::connect_out() {
    uint64_t now = mono_ns();
    if (state_ == kIdle) {
        if (now < next_connect_ns_) return;
        next_connect_ns_ = now + kReconnectNs;
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) return;
        set_nonblocking(fd);
        tune_socket(fd);
        sockaddr_in sa = to_sockaddr(addr_);
        int rc = connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa);
        if (rc != 0 && errno != EINPROGRESS) {
            close(fd);
            return;  // host not there yet: retried every kReconnectNs
        }
        fd_ = fd;
        format_address(addr_, peer_, sizeof peer_);
        state_ = kConnecting;
        state_since_ns_ = now;
    }
    pollfd p{fd_, POLLOUT, 0};
    if (poll(&p, 1, 0) <= 0) {
        if (mono_ns() - state_since_ns_ > kLiveHelloTimeoutNs) drop(nullptr);
        return;
    }
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
        drop(nullptr);  // refused: the host is not listening yet
        return;
    }
    live_log("connected to %s", peer_);
    state_ = kHello;
    state_since_ns_ = mono_ns();
    in_len_ = 0;
}

void StreamSink::welcome(uint16_t status, uint64_t start, const char *msg) {
    out_pos_ = 0;
    out_len_ = put_welcome(out_, status, start, msg);
    refusing_ = status != MT_LIVE_OK;
}

// Appends up to `cap` bytes the socket has now to in_. False when it has none yet, or when the
// connection is gone (dropped here: `closed` says why on an orderly close).
bool StreamSink::recv_in(uint32_t cap, const char *closed) {
    for (;;) {
        ssize_t n = recv(fd_, in_ + in_len_, cap, MSG_DONTWAIT);
        if (n == 0) {
            drop(closed);
            return false;
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) drop_errno();
            return false;
        }
        in_len_ += static_cast<uint32_t>(n);
        return true;
    }
}

// Connect mode: the connection the runtime opened to the host (listen mode: stream_accept.cpp).
void StreamSink::read_hello() {
    if (mono_ns() - state_since_ns_ > kLiveHelloTimeoutNs) {
        drop("no HELLO within 5 s; hung up");
        return;
    }
    // Read no further than the HELLO, so a CONTROL sent right behind it stays in the socket.
    uint32_t want = in_len_ < MT_LIVE_HELLO_FIXED ? MT_LIVE_HELLO_FIXED : MT_LIVE_HELLO_FIXED + mt_live_get16(in_ + 6);
    while (in_len_ < want) {
        if (!recv_in(want - in_len_, "closed the connection before its HELLO")) return;
        if (in_len_ == MT_LIVE_HELLO_FIXED && want == MT_LIVE_HELLO_FIXED) {
            if (memcmp(in_, MT_LIVE_HELLO_MAGIC, 4) != 0 || mt_live_get16(in_ + 4) != MT_LIVE_VERSION ||
                mt_live_get16(in_ + 6) > MT_LIVE_MAX_TOKEN) {
                char what[64];
                snprintf(what, sizeof what, "sent no HELLO (first bytes %02x %02x %02x %02x); hung up", in_[0], in_[1],
                         in_[2], in_[3]);
                set_last_error("memtracer live: host %s %s", peer_, what);
                welcome(MT_LIVE_BAD_HELLO, 0, "expected a MemTracer live HELLO ('MTLH', version 1)");
                live_log("host %s %s", peer_, what);
                return;
            }
            want += mt_live_get16(in_ + 6);
        }
    }
    if (!same_token(token_, in_ + MT_LIVE_HELLO_FIXED, mt_live_get16(in_ + 6)) && (token_[0] || !connect_mode_)) {
        set_last_error("memtracer live: refused host %s: wrong token", peer_);
        live_log("refused host %s: wrong token", peer_);
        welcome(MT_LIVE_BAD_TOKEN, 0, "wrong token (MEMTRACER_TOKEN of the game)");
        return;
    }
    start_streaming(in_);
}

// Resume: the host's file is a prefix of ours if its header is ours; it keeps what it has up to
// the last flush boundary within it, and gets the rest.
void StreamSink::start_streaming(const uint8_t *hello) {
    uint64_t resume = mt_live_get64(hello + 8);
    bool same_run = memcmp(hello + 16, header_, sizeof header_) == 0;
    uint64_t start = same_run ? boundary_at_most(resume < committed_ ? resume : committed_) : 0;
    welcome(MT_LIVE_OK, start, "");
    file_pos_ = start;
    state_ = kStreaming;
    in_len_ = 0;
    next_status_ns_ = 0;
    live_log("streaming to host %s from byte %llu", peer_, static_cast<unsigned long long>(start));
}

void StreamSink::read_control() {
    for (;;) {
        if (!recv_in(kLiveInCap - in_len_, "disconnected")) return;
        uint32_t at = 0;
        while (in_len_ - at >= MT_LIVE_MSG_HEADER) {
            const uint8_t *m = in_ + at;
            uint16_t type = mt_live_get16(m + 4), len = mt_live_get16(m + 6);
            bool ok = memcmp(m, MT_LIVE_CONTROL_MAGIC, 4) == 0 && type >= MT_LIVE_CTL_PAUSE && type <= MT_LIVE_CTL_MARK &&
                      (type == MT_LIVE_CTL_MARK ? len >= 1 && len <= MT_LIVE_MAX_MARK : len == 0);
            if (!ok) {
                set_last_error("memtracer live: host %s sent a malformed CONTROL (type %u, %u bytes); hung up", peer_,
                               type, len);
                return drop("sent a malformed CONTROL; hung up");
            }
            if (in_len_ - at < MT_LIVE_MSG_HEADER + len) break;
            if (n_pending_ < 8) {
                if (type == MT_LIVE_CTL_MARK) {
                    memcpy(pending_mark_[n_pending_], m + MT_LIVE_MSG_HEADER, len);
                    pending_mark_[n_pending_][len] = 0;
                }
                pending_ctl_[n_pending_++] = type;
            }
            at += MT_LIVE_MSG_HEADER + len;
        }
        memmove(in_, in_ + at, in_len_ - at);
        in_len_ -= at;
    }
}

// Applied between drains, from the writer thread: pause/resume never wait for the capture lock
// (mt_stop may hold it while it joins this thread), a busy lock retries at the next iteration.
void StreamSink::apply_controls() {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n_pending_; ++i) {
        uint16_t type = pending_ctl_[i];
        int result = MT_LIVE_ACK_APPLIED;
        uint64_t before = g.epoch.load(std::memory_order_acquire);
        switch (type) {
        case MT_LIVE_CTL_PAUSE:
        case MT_LIVE_CTL_RESUME:
            result = live_try_set_paused(gen_, type == MT_LIVE_CTL_PAUSE);
            break;
        case MT_LIVE_CTL_STOP:
            result = stopping_ ? MT_LIVE_ACK_APPLIED : live_request_stop(gen_) ? MT_LIVE_ACK_APPLIED : MT_LIVE_ACK_REFUSED;
            stopping_ = true;
            break;
        case MT_LIVE_CTL_MARK:
            ++marks_;
            result = mt_mark(pending_mark_[i]) == MT_OK ? MT_LIVE_ACK_APPLIED : MT_LIVE_ACK_REFUSED;
            break;
        }
        if (result < 0) {
            // Lock busy: this one and every later one wait for the next iteration, in order.
            for (uint32_t j = i; j < n_pending_; ++j, ++kept) {
                if (kept != j) memcpy(pending_mark_[kept], pending_mark_[j], sizeof pending_mark_[0]);
                pending_ctl_[kept] = pending_ctl_[j];
            }
            break;
        }
        live_log("host %s: %s %s", peer_,
                 type == MT_LIVE_CTL_PAUSE ? "pause" : type == MT_LIVE_CTL_RESUME ? "resume" : type == MT_LIVE_CTL_STOP ? "stop" : "mark",
                 result == MT_LIVE_ACK_APPLIED ? "applied" : result == MT_LIVE_ACK_REFUSED ? "refused" : "not supported");
        if (n_acks_ < 8)
            acks_[n_acks_++] = AckItem{type, static_cast<uint16_t>(result), before, g.epoch.load(std::memory_order_acquire)};
    }
    n_pending_ = kept;
}

void StreamSink::status_message() {
    uint8_t *p = out_;
    uint32_t n = mt_live_put_header(p, MT_LIVE_MESSAGE_MAGIC, MT_LIVE_MSG_STATUS, MT_LIVE_STATUS_SIZE);
    mt_live_put64(p + n, g.epoch.load(std::memory_order_relaxed));
    mt_live_put64(p + n + 8, wc_ ? wc_->frames_written.load(std::memory_order_relaxed) : 0);
    mt_live_put64(p + n + 16, committed_);
    mt_live_put64(p + n + 24, dropped_now(gen_));
    mt_live_put32(p + n + 32, (g.paused.load(std::memory_order_relaxed) ? 1u : 0u) | (stopping_ ? 2u : 0u));
    mt_live_put32(p + n + 36, marks_);
    out_pos_ = 0;
    out_len_ = n + MT_LIVE_STATUS_SIZE;
}

// Refills out_ when it is empty: an ACK or a STATUS (only between chunks: file_pos_ is a flush
// boundary whenever out_ empties, see below), else file bytes up to a boundary.
bool StreamSink::fill() {
    if (file_pos_ > 0 && file_pos_ == boundary_at_most(file_pos_)) {  // never before the file header
        if (n_acks_) {
            uint32_t n = mt_live_put_header(out_, MT_LIVE_MESSAGE_MAGIC, MT_LIVE_MSG_ACK, MT_LIVE_ACK_SIZE);
            mt_live_put16(out_ + n, acks_[0].control);
            mt_live_put16(out_ + n + 2, acks_[0].result);
            mt_live_put64(out_ + n + 4, acks_[0].frame_before);
            mt_live_put64(out_ + n + 12, acks_[0].frame_after);
            memmove(&acks_[0], &acks_[1], sizeof acks_[0] * (n_acks_ - 1));
            --n_acks_;
            out_pos_ = 0;
            out_len_ = n + MT_LIVE_ACK_SIZE;
            return true;
        }
        uint64_t now = mono_ns();
        if (now >= next_status_ns_) {
            next_status_ns_ = now + kStatusNs;
            status_message();
            return true;
        }
    }
    if (file_pos_ >= committed_) return false;
    // Up to the last boundary that fits, or a piece of one flush larger than the buffer.
    uint64_t end = boundary_at_most(file_pos_ + kLiveOutCap);
    if (end <= file_pos_) end = file_pos_ + kLiveOutCap;
    if (end > committed_) end = committed_;
    ssize_t n = pread(file_fd_, out_, static_cast<size_t>(end - file_pos_), static_cast<off_t>(file_pos_));
    if (n <= 0) {
        drop("cannot read back the capture file; hung up");
        return false;
    }
    out_pos_ = 0;
    out_len_ = static_cast<uint32_t>(n);
    file_pos_ += static_cast<uint64_t>(n);
    return true;
}

// False when the socket would block (or the connection was dropped).
bool StreamSink::send_some(uint64_t budget) {
    uint64_t sent = 0;
    for (;;) {
        if (out_pos_ >= out_len_) {
            out_pos_ = out_len_ = 0;
            if (state_ != kStreaming || sent >= budget || !fill()) return true;
        }
        ssize_t n = send(fd_, out_ + out_pos_, out_len_ - out_pos_, MSG_DONTWAIT | kSendFlags);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) drop_errno();
            return false;
        }
        out_pos_ += static_cast<uint32_t>(n);
        sent += static_cast<uint64_t>(n);
        total_sent_ += static_cast<uint64_t>(n);
    }
}

void StreamSink::finish() {
    // The last frames, COUNTERS and END: worth a short wait, never a long one (mt_stop waits).
    uint64_t start = mono_ns(), last_progress = start;
    while (state_ == kStreaming) {
        uint64_t before = total_sent_;
        next_status_ns_ = UINT64_MAX;  // no STATUS now: the END is what the host waits for
        read_control();
        if (state_ != kStreaming) break;
        if (send_some(UINT64_MAX) && out_pos_ >= out_len_ && file_pos_ >= committed_) {
            live_log("sent the whole capture (%llu bytes) to host %s", static_cast<unsigned long long>(committed_), peer_);
            shutdown(fd_, SHUT_WR);
            return;
        }
        uint64_t now = mono_ns();
        if (total_sent_ != before) last_progress = now;
        if (now - start > kFinishNs || now - last_progress > kFinishStallNs) {
            drop("too slow to take the end of the capture; it has the frames sent so far (the file has all)");
            return;
        }
        pollfd p{fd_, POLLOUT, 0};
        poll(&p, 1, 50);
    }
}

}  // namespace mt::rt
