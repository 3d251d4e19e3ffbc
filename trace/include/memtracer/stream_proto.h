/*
 * stream_proto.h — the live-capture wire protocol between a game's runtime and a host
 * (memtracer-capture, memtracer-viewer --live): the third game<->host contract, owned by trace/
 * beside the file format it carries (format.h). One TCP connection, all integers little-endian.
 * See docs/live.md.
 *
 *   host -> runtime  HELLO    "MTLH" u16 version, u16 token_len, u64 resume_offset,
 *                             64 B the run.mt header the host holds (zeros if none), token bytes
 *   runtime -> host  WELCOME  "MTLW" u16 version, u16 status, u64 start_offset, u16 msg_len,
 *                             u16 0, msg bytes (a sentence when status != OK)
 *   runtime -> host  then the run.mt bytes from start_offset (the 64-byte file header first when
 *                    start_offset is 0), whole chunks "MTCK..." interleaved, only between chunks,
 *                    with MESSAGEs "MTLM" u16 type, u16 len, payload (STATUS, ACK)
 *   host -> runtime  CONTROL  "MTLC" u16 type, u16 len, payload (PAUSE, RESUME, STOP, MARK name)
 *
 * The host truncates its file to start_offset (never more than the resume_offset it sent), so
 * what it stores is always a prefix of the game's own file. Plain C, header only, no allocation:
 * the runtime and the host both use it.
 */
#ifndef MEMTRACER_STREAM_PROTO_H
#define MEMTRACER_STREAM_PROTO_H

#include <stdint.h>
#include <string.h>

#define MT_LIVE_VERSION 1u
#define MT_LIVE_MAX_TOKEN 64u
#define MT_LIVE_MAX_MSG 200u
#define MT_LIVE_MAX_MARK 255u
#define MT_LIVE_HELLO_FIXED 80u   /* bytes before the token */
#define MT_LIVE_WELCOME_FIXED 20u /* bytes before the message */
#define MT_LIVE_MSG_HEADER 8u     /* "MTLM"/"MTLC", type, len */
#define MT_LIVE_STATUS_SIZE 40u   /* STATUS payload */
#define MT_LIVE_ACK_SIZE 20u      /* ACK payload */

static const char MT_LIVE_HELLO_MAGIC[4] = {'M', 'T', 'L', 'H'};
static const char MT_LIVE_WELCOME_MAGIC[4] = {'M', 'T', 'L', 'W'};
static const char MT_LIVE_MESSAGE_MAGIC[4] = {'M', 'T', 'L', 'M'};
static const char MT_LIVE_CONTROL_MAGIC[4] = {'M', 'T', 'L', 'C'};

typedef enum mt_live_status {
    MT_LIVE_OK = 0,
    MT_LIVE_BAD_TOKEN = 1, /* the token is missing or wrong; nothing is streamed */
    MT_LIVE_BUSY = 2,      /* another host is being served */
    MT_LIVE_BAD_HELLO = 3  /* not a HELLO of this version */
} mt_live_status;

typedef enum mt_live_message {
    MT_LIVE_MSG_STATUS = 1, /* u64 open frame, u64 frames committed, u64 bytes committed,
                               u64 events dropped, u32 flags (1 paused, 2 stopping), u32 marks */
    MT_LIVE_MSG_ACK = 2     /* u16 control type, u16 result (mt_live_ack), u64 open frame just before
                               and u64 just after it was applied: after a pause, frames past the
                               second record nothing; after a resume, frames before the first
                               recorded nothing (since the pause) */
} mt_live_message;

typedef enum mt_live_control {
    MT_LIVE_CTL_PAUSE = 1,
    MT_LIVE_CTL_RESUME = 2,
    MT_LIVE_CTL_STOP = 3,
    MT_LIVE_CTL_MARK = 4 /* payload: the marker's name, 1..255 bytes */
} mt_live_control;

typedef enum mt_live_ack {
    MT_LIVE_ACK_APPLIED = 0,
    MT_LIVE_ACK_REFUSED = 1,     /* no capture to apply it to (stopped, disabled) */
    MT_LIVE_ACK_UNSUPPORTED = 2  /* this runtime cannot do it (mark before mt_mark exists) */
} mt_live_ack;

static inline void mt_live_put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void mt_live_put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void mt_live_put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t mt_live_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t mt_live_get32(const uint8_t *p) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
static inline uint64_t mt_live_get64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

/* An 8-byte MESSAGE or CONTROL header at p; returns 8. */
static inline uint32_t mt_live_put_header(uint8_t *p, const char magic[4], uint16_t type, uint16_t len) {
    memcpy(p, magic, 4);
    mt_live_put16(p + 4, type);
    mt_live_put16(p + 6, len);
    return MT_LIVE_MSG_HEADER;
}

#endif /* MEMTRACER_STREAM_PROTO_H */
