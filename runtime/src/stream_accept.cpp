// stream_accept.cpp — the listening sink's accept path (docs/live.md, "One host at a time").
// The one host slot (fd_) goes only to a connection whose HELLO carried the token: until then a
// connection is one of kLivePending handshakes, each read without blocking and closed after
// kLiveHelloTimeoutNs at the latest. So a client without the token, idle or reconnecting, never
// holds the slot: a host with the token is served as soon as its HELLO is read, or, when every
// handshake place is taken, once the oldest of them times out. Bytes that cannot begin a HELLO
// (an HTTP request, garbage) are answered with WELCOME status 3 at once, not after the timeout.
#include "stream_sink.h"

#include "stream_net.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "errors.h"

namespace mt::rt {

void StreamSink::accept_new() {
    for (Pending &p : pending_) {
        if (p.fd >= 0) continue;
        sockaddr_in sa;
        socklen_t len = sizeof sa;
        int fd = accept(listen_fd_, reinterpret_cast<sockaddr *>(&sa), &len);
        if (fd < 0) return;  // EAGAIN: nobody waiting (other errors: try again next time)
        set_nonblocking(fd);
        tune_socket(fd);
        p.fd = fd;
        p.since_ns = mono_ns();
        p.len = 0;
        format_address(from_sockaddr(sa), p.peer, sizeof p.peer);
        live_log("host %s connected", p.peer);
    }
    // Every place taken: the rest wait in the accept queue until one frees (a timeout at most).
}

void StreamSink::service_pending() {
    for (Pending &p : pending_)
        if (p.fd >= 0) read_pending(p);
}

void StreamSink::close_pending(Pending &p) {
    close(p.fd);
    p.fd = -1;
}

// Best effort, never waits: a fresh socket's send buffer takes the WELCOME. What the peer sent
// beyond it is read off first, so the close is a FIN after the answer rather than a reset that
// could discard it before the peer reads it.
void StreamSink::refuse_pending(Pending &p, uint16_t status, const char *msg) {
    uint8_t w[MT_LIVE_WELCOME_FIXED + MT_LIVE_MAX_MSG];
    uint32_t n = put_welcome(w, status, 0, msg);
    ssize_t sent = send(p.fd, w, n, MSG_DONTWAIT | kSendFlags);
    (void)sent;
    shutdown(p.fd, SHUT_WR);
    uint8_t sink[512];
    for (int i = 0; i < 64 && recv(p.fd, sink, sizeof sink, MSG_DONTWAIT) > 0; ++i) {
    }
    close_pending(p);
}

// Reads no further than the HELLO, so a CONTROL sent right behind it stays in the socket.
void StreamSink::read_pending(Pending &p) {
    for (;;) {
        uint32_t want = p.len < 8 ? MT_LIVE_HELLO_FIXED : MT_LIVE_HELLO_FIXED + mt_live_get16(p.in + 6);
        if (p.len >= want) break;
        ssize_t n = recv(p.fd, p.in + p.len, want - p.len, MSG_DONTWAIT);
        if (n == 0) {
            live_log("host %s: closed the connection before its HELLO", p.peer);
            return close_pending(p);
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            return close_pending(p);
        }
        p.len += static_cast<uint32_t>(n);
        // Judged on the first bytes: a peer that is not a host is told at once.
        uint32_t magic = p.len < 4 ? p.len : 4;
        bool bad = memcmp(p.in, MT_LIVE_HELLO_MAGIC, magic) != 0 ||
                   (p.len >= 8 && (mt_live_get16(p.in + 4) != MT_LIVE_VERSION || mt_live_get16(p.in + 6) > MT_LIVE_MAX_TOKEN));
        if (bad) {
            char what[64];
            uint8_t b[4] = {0, 0, 0, 0};
            memcpy(b, p.in, p.len < 4 ? p.len : 4);
            snprintf(what, sizeof what, "sent no HELLO (first bytes %02x %02x %02x %02x); hung up", b[0], b[1], b[2], b[3]);
            set_last_error("memtracer live: host %s %s", p.peer, what);
            live_log("host %s %s", p.peer, what);
            return refuse_pending(p, MT_LIVE_BAD_HELLO, "expected a MemTracer live HELLO ('MTLH', version 1)");
        }
    }
    if (p.len < MT_LIVE_HELLO_FIXED || p.len < MT_LIVE_HELLO_FIXED + mt_live_get16(p.in + 6)) {
        if (mono_ns() - p.since_ns > kLiveHelloTimeoutNs) {
            live_log("host %s: no HELLO within 5 s; hung up", p.peer);
            refuse_pending(p, MT_LIVE_BAD_HELLO, "no HELLO within 5 s");
        }
        return;
    }
    if (!same_token(token_, p.in + MT_LIVE_HELLO_FIXED, mt_live_get16(p.in + 6))) {
        set_last_error("memtracer live: refused host %s: wrong token", p.peer);
        live_log("refused host %s: wrong token", p.peer);
        return refuse_pending(p, MT_LIVE_BAD_TOKEN, "wrong token (MEMTRACER_TOKEN of the game)");
    }
    if (fd_ >= 0) {
        live_log("refused host %s: another host (%s) is being served", p.peer, peer_);
        return refuse_pending(p, MT_LIVE_BUSY, "another host is being served");
    }
    // Authenticated and the slot is free: this connection becomes the host.
    fd_ = p.fd;
    p.fd = -1;
    memcpy(peer_, p.peer, sizeof peer_);
    in_len_ = out_pos_ = out_len_ = 0;
    state_since_ns_ = mono_ns();
    start_streaming(p.in);
}

}  // namespace mt::rt
