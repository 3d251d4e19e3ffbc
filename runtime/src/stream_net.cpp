// stream_net.cpp — live capture's small pieces (see stream_net.h): the runtime's log, socket
// set-up, addresses, tokens, and reading the live settings from mt_config or the environment.
#include "stream_net.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__ANDROID__)
#include <dlfcn.h>
#endif

#include "clock.h"
#include "errors.h"
#include "lifecycle.h"
#include "state.h"

namespace mt::rt {

namespace {

bool parse_u32(const char *&p, uint32_t max, uint32_t *out) {
    if (*p < '0' || *p > '9') return false;
    uint64_t v = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + static_cast<uint32_t>(*p++ - '0');
        if (v > max) return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
}

const char *env_or(const char *given, const char *name) {
    if (given && given[0]) return given;
    const char *e = getenv(name);
    return e && e[0] ? e : nullptr;
}

}  // namespace

// The runtime's log: stderr (Xcode's console, a terminal), and logcat on Android.
void live_log(const char *fmt, ...) {
    char msg[400];
    int n = snprintf(msg, sizeof msg, "memtracer live: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    va_end(ap);
    size_t len = strlen(msg);
    if (len + 1 < sizeof msg) {
        msg[len] = '\n';
        ssize_t w = write(2, msg, len + 1);
        (void)w;
        msg[len] = 0;
    }
#if defined(__ANDROID__)
    using LogWrite = int (*)(int, const char *, const char *);
    static LogWrite lw = reinterpret_cast<LogWrite>(dlsym(RTLD_DEFAULT, "__android_log_write"));
    if (lw) lw(4 /* ANDROID_LOG_INFO */, "memtracer", msg + 16);
#endif
}

void set_nonblocking(int fd) {
    int fl = fcntl(fd, F_GETFL, 0);
    if (fl >= 0) fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
}

void tune_socket(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // a commit is sent as it lands
#if defined(SO_NOSIGPIPE)
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
}

sockaddr_in to_sockaddr(const LiveAddress &a) {
    sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
#if defined(__APPLE__)
    sa.sin_len = sizeof sa;
#endif
    sa.sin_family = AF_INET;
    uint8_t *port = reinterpret_cast<uint8_t *>(&sa.sin_port);  // network order, no htons needed
    port[0] = static_cast<uint8_t>(a.port >> 8);
    port[1] = static_cast<uint8_t>(a.port);
    uint8_t *ip = reinterpret_cast<uint8_t *>(&sa.sin_addr);
    for (int i = 0; i < 4; ++i) ip[i] = static_cast<uint8_t>(a.ip >> (24 - 8 * i));
    return sa;
}

LiveAddress from_sockaddr(const sockaddr_in &sa) {
    const uint8_t *port = reinterpret_cast<const uint8_t *>(&sa.sin_port);
    const uint8_t *ip = reinterpret_cast<const uint8_t *>(&sa.sin_addr);
    LiveAddress a;
    a.port = static_cast<uint16_t>(port[0] << 8 | port[1]);
    a.ip = static_cast<uint32_t>(ip[0]) << 24 | ip[1] << 16 | ip[2] << 8 | ip[3];
    return a;
}

void format_address(const LiveAddress &a, char *out, size_t cap) {
    snprintf(out, cap, "%u.%u.%u.%u:%u", a.ip >> 24, (a.ip >> 16) & 255, (a.ip >> 8) & 255, a.ip & 255, a.port);
}



// Compares every byte whatever the first difference, so the time taken says nothing of the token.
bool same_token(const char *want, const uint8_t *got, uint32_t got_len) {
    size_t want_len = strlen(want);
    uint32_t diff = static_cast<uint32_t>(want_len ^ got_len);
    for (uint32_t i = 0; i < MT_LIVE_MAX_TOKEN; ++i) {
        uint8_t a = i < want_len ? static_cast<uint8_t>(want[i]) : 0;
        uint8_t b = i < got_len ? got[i] : 0;
        diff |= static_cast<uint32_t>(a ^ b);
    }
    return diff == 0;
}

uint32_t put_welcome(uint8_t *w, uint16_t status, uint64_t start, const char *msg) {
    size_t n = msg ? strlen(msg) : 0;
    if (n > MT_LIVE_MAX_MSG) n = MT_LIVE_MAX_MSG;
    memcpy(w, MT_LIVE_WELCOME_MAGIC, 4);
    mt_live_put16(w + 4, MT_LIVE_VERSION);
    mt_live_put16(w + 6, status);
    mt_live_put64(w + 8, start);
    mt_live_put16(w + 16, static_cast<uint16_t>(n));
    mt_live_put16(w + 18, 0);
    if (n) memcpy(w + MT_LIVE_WELCOME_FIXED, msg, n);
    return static_cast<uint32_t>(MT_LIVE_WELCOME_FIXED + n);
}

void random_token(char *out, size_t cap) {
    uint8_t bytes[8] = {0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    bool ok = fd >= 0 && read(fd, bytes, sizeof bytes) == static_cast<ssize_t>(sizeof bytes);
    if (fd >= 0) close(fd);
    if (!ok) {
        uint64_t v = mono_ns() * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(getpid());
        memcpy(bytes, &v, sizeof bytes);
    }
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (uint8_t b : bytes) {
        if (n + 2 >= cap) break;
        out[n++] = hex[b >> 4];
        out[n++] = hex[b & 15];
    }
    out[n] = 0;
}

uint64_t dropped_now(uint64_t gen) {
    uint64_t n = g.noslot_dropped.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < g.max_threads; ++i) {
        const ThreadSlot &s = g.slots[i];
        if (s.counters_gen.load(std::memory_order_acquire) == gen) n += s.counters.dropped.load(std::memory_order_relaxed);
    }
    return n;
}

bool live_parse_address(const char *text, LiveAddress *out) {
    if (!text) return false;
    const char *p = text;
    uint32_t ip = 0x7f000001u;  // loopback unless an address is given
    if (strncmp(p, "localhost:", 10) == 0) {
        p += 10;
    } else if (*p == ':') {
        ++p;
    } else if (strchr(p, ':')) {
        ip = 0;
        for (int i = 0; i < 4; ++i) {
            uint32_t part;
            if (!parse_u32(p, 255, &part)) return false;
            ip = ip << 8 | part;
            if (*p++ != (i < 3 ? '.' : ':')) return false;
        }
    }
    uint32_t port;
    if (!parse_u32(p, 65535, &port) || *p) return false;
    out->ip = ip;
    out->port = static_cast<uint16_t>(port);
    return true;
}

LiveSettings live_settings(const mt_config *c) {
    LiveSettings s;
    bool has_fields = c->struct_size >= offsetof(mt_config, live_token) + sizeof c->live_token;
    s.listen = env_or(has_fields ? c->live_listen : nullptr, "MEMTRACER_LISTEN");
    s.connect = env_or(has_fields ? c->live_connect : nullptr, "MEMTRACER_CONNECT");
    s.token = env_or(has_fields ? c->live_token : nullptr, "MEMTRACER_TOKEN");
    return s;
}

mt_status live_validate(const mt_config *c) {
    LiveSettings s = live_settings(c);
    LiveAddress a;
    if (s.listen && s.connect) {
        set_last_error("MT_ERR_LIVE: live_listen (MEMTRACER_LISTEN) and live_connect (MEMTRACER_CONNECT) are both set; "
                       "choose one");
        return MT_ERR_LIVE;
    }
    const char *addr = s.listen ? s.listen : s.connect;
    if (addr && !live_parse_address(addr, &a)) {
        set_last_error("MT_ERR_LIVE: %s '%s' is not host:port (an IPv4 address, localhost, or just the port)",
                       s.listen ? "live_listen" : "live_connect", addr);
        return MT_ERR_LIVE;
    }
    if (s.connect && a.port == 0) {
        set_last_error("MT_ERR_LIVE: live_connect '%s' has port 0", s.connect);
        return MT_ERR_LIVE;
    }
    if (s.token && strlen(s.token) > MT_LIVE_MAX_TOKEN) {
        set_last_error("MT_ERR_LIVE: live_token is longer than %u bytes", MT_LIVE_MAX_TOKEN);
        return MT_ERR_LIVE;
    }
    return MT_OK;
}

}  // namespace mt::rt
