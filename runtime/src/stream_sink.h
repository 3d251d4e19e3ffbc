// stream_sink.h — live capture: the writer thread also sends every committed byte of run.mt to
// one host over TCP (protocol: memtracer/stream_proto.h, docs/live.md).
//
// The bytes sent are re-read from the capture's own file (pread on a second, read-only fd), so a
// slow or absent host costs no memory and loses nothing: the file is the buffer. The sink keeps
// the offsets where the writer's flushes ended (each a chunk boundary, most of them a frame
// commit); a host resumes from the last of those it holds, and data is sent in runs that end on
// them, so the sink's own messages (STATUS, ACK) only ever go between chunks.
//
// Only the writer thread touches the sink after mt_start (non-blocking sockets, no waiting but
// the bounded final send in finish()). No exceptions, no STL; memory is malloc'd at creation,
// plus the boundary index growing on the writer thread.
#ifndef MEMTRACER_RT_STREAM_SINK_H
#define MEMTRACER_RT_STREAM_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "hashmap.h"
#include "memtracer/memtracer.h"
#include "memtracer/stream_proto.h"

namespace mt::rt {

struct WriterCounters;

constexpr uint32_t kLiveInCap = 512;           // a HELLO or a CONTROL fits
constexpr uint32_t kLiveOutCap = 64 * 1024;    // bytes read from the file per send run
constexpr uint64_t kLiveHelloTimeoutNs = 5000000000ull;
// Listen mode: connections whose HELLO is being read, at most this many at once (more wait in
// the kernel's accept queue). The host slot goes only to one whose HELLO carries the token, so
// connections without it cannot hold it; each is closed after kLiveHelloTimeoutNs at the latest.
constexpr uint32_t kLivePending = 8;

struct LiveAddress {
    uint32_t ip = 0;    // host order
    uint16_t port = 0;
};

// "a.b.c.d:port", "localhost:port", ":port" or "port" (loopback). False if not one of those.
bool live_parse_address(const char *text, LiveAddress *out);

// The live fields of *c (NULL when c predates them), else MEMTRACER_LISTEN / MEMTRACER_CONNECT /
// MEMTRACER_TOKEN. Read on mt_start's thread.
struct LiveSettings {
    const char *listen = nullptr;
    const char *connect = nullptr;
    const char *token = nullptr;
};
LiveSettings live_settings(const mt_config *c);
// MT_OK, or the status (with mt_last_error set) for an address that does not parse / both given.
mt_status live_validate(const mt_config *c);

class StreamSink {
public:
    // Opens `path` for reading and starts listening (bind errors are logged and leave live
    // capture off; the capture itself runs on). nullptr when live capture was not asked for.
    static StreamSink *create(const mt_config *c, const char *path, uint64_t committed, uint64_t gen,
                              const WriterCounters *wc);
    static void destroy(StreamSink *s);

    void committed(uint64_t end_offset);  // writer: a flush ended here (a chunk boundary)
    void service();                       // writer: accept, read hello/control, send what fits
    void finish();                        // writer, last: send the rest, bounded (docs/live.md)

private:
    enum State { kIdle, kConnecting, kHello, kStreaming };
    bool begin(const LiveSettings &s, const char *path, uint64_t committed);
    struct Pending {  // a listen-mode connection whose HELLO is not complete yet
        int fd;
        uint64_t since_ns;
        uint32_t len;
        uint8_t in[MT_LIVE_HELLO_FIXED + MT_LIVE_MAX_TOKEN];
        char peer[32];
    };
    void accept_new();          // stream_accept.cpp
    void service_pending();     // stream_accept.cpp: read HELLOs, give the slot, refuse
    void read_pending(Pending &p);
    void refuse_pending(Pending &p, uint16_t status, const char *msg);
    void close_pending(Pending &p);
    void start_streaming(const uint8_t *hello);  // a checked HELLO with the right token
    void connect_out();
    void read_hello();
    void welcome(uint16_t status, uint64_t start, const char *msg);
    void read_control();
    bool recv_in(uint32_t cap, const char *closed);
    void apply_controls();
    bool send_some(uint64_t budget);
    bool fill();
    void drop(const char *why);
    void drop_errno();  // "disconnected (<strerror>)"
    uint64_t boundary_at_most(uint64_t off) const;
    void status_message();

    int file_fd_ = -1, listen_fd_ = -1, fd_ = -1;
    State state_ = kIdle;
    bool connect_mode_ = false;
    LiveAddress addr_{};
    char peer_[32] = {0};
    char token_[MT_LIVE_MAX_TOKEN + 1] = {0};
    uint64_t gen_ = 0;
    const WriterCounters *wc_ = nullptr;
    Vec<uint64_t> bounds_;  // flush ends, ascending; bounds_[0] = 0
    uint64_t committed_ = 0;
    uint64_t file_pos_ = 0;  // next file byte to put in out_
    uint8_t header_[64] = {0};
    bool have_header_ = false;
    uint64_t state_since_ns_ = 0, next_connect_ns_ = 0, next_status_ns_ = 0;
    Pending pending_[kLivePending];
    uint8_t in_[kLiveInCap];
    uint32_t in_len_ = 0;
    uint8_t *out_ = nullptr;  // kOutCap bytes
    uint32_t out_pos_ = 0, out_len_ = 0;
    uint16_t pending_ctl_[8];
    char pending_mark_[8][256] = {};  // each pending MARK's own label, at its pending_ctl_ index
    uint32_t n_pending_ = 0;
    struct AckItem {
        uint16_t control, result;
        uint64_t frame_before, frame_after;
    };
    AckItem acks_[8];
    uint32_t n_acks_ = 0;
    uint32_t marks_ = 0;
    bool stopping_ = false;
    bool refusing_ = false;  // a refusing WELCOME is queued; hang up once it is sent
    uint64_t total_sent_ = 0;
};

}  // namespace mt::rt

#endif  // MEMTRACER_RT_STREAM_SINK_H
