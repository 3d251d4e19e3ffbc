// stream_net.h — the small pieces of live capture (stream_net.cpp): the runtime's log, socket
// set-up, IPv4 addresses without the resolver, tokens. Internal to the runtime; the settings
// themselves (live_parse_address, live_settings, live_validate) are declared in stream_sink.h.
#ifndef MEMTRACER_RT_STREAM_NET_H
#define MEMTRACER_RT_STREAM_NET_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "stream_sink.h"

namespace mt::rt {

#if defined(MSG_NOSIGNAL)
constexpr int kSendFlags = MSG_NOSIGNAL;
#else
constexpr int kSendFlags = 0;  // Apple: SO_NOSIGPIPE on the socket instead (tune_socket)
#endif

// "memtracer live: ..." to stderr (Xcode's console, a terminal) and, on Android, logcat.
void live_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void set_nonblocking(int fd);  // and close-on-exec
void tune_socket(int fd);      // TCP_NODELAY; SO_NOSIGPIPE where that is how SIGPIPE is avoided
sockaddr_in to_sockaddr(const LiveAddress &a);
LiveAddress from_sockaddr(const sockaddr_in &sa);
void format_address(const LiveAddress &a, char *out, size_t cap);  // "a.b.c.d:port"
// Compares all MT_LIVE_MAX_TOKEN bytes whatever the first difference (no timing oracle).
bool same_token(const char *want, const uint8_t *got, uint32_t got_len);
void random_token(char *out, size_t cap);
// A WELCOME into w (MT_LIVE_WELCOME_FIXED + MT_LIVE_MAX_MSG bytes), msg cut to MT_LIVE_MAX_MSG;
// returns its length.
uint32_t put_welcome(uint8_t *w, uint16_t status, uint64_t start, const char *msg);  // hex, from /dev/urandom (else the clock)
uint64_t dropped_now(uint64_t gen);        // the capture's dropped allocations so far

}  // namespace mt::rt

#endif  // MEMTRACER_RT_STREAM_NET_H
