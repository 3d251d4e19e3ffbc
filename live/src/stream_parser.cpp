// stream_parser.cpp — see stream_parser.h.
#include "stream_parser.h"

#include <cstring>

#include "memtracer/codec.h"
#include "memtracer/format.h"
#include "memtracer/stream_proto.h"

namespace mt::live {

namespace {

bool get_varint(std::span<const uint8_t> p, size_t &at, uint64_t &out) {
    out = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (at >= p.size()) return false;
        uint8_t b = p[at++];
        out |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

}  // namespace

std::optional<FrameSummary> decode_frame(std::span<const uint8_t> chunk) {
    if (chunk.size() < sizeof(mt_chunk_header)) return std::nullopt;
    auto payload = chunk.subspan(sizeof(mt_chunk_header));
    uint64_t v[8];
    size_t at = 0;
    for (auto &x : v)
        if (!get_varint(payload, at, x)) return std::nullopt;
    return FrameSummary{v[0], v[1], v[2], v[3], v[4], v[7]};
}

std::optional<double> decode_tick_hz(std::span<const uint8_t> chunk) {
    if (chunk.size() < sizeof(mt_chunk_header)) return std::nullopt;
    auto payload = chunk.subspan(sizeof(mt_chunk_header));
    size_t at = 0;
    uint64_t n = 0;
    if (!get_varint(payload, at, n)) return std::nullopt;
    auto str = [&](std::string &out) {
        uint64_t len = 0;
        if (!get_varint(payload, at, len) || len > payload.size() - at) return false;
        out.assign(reinterpret_cast<const char *>(payload.data() + at), len);
        at += len;
        return true;
    };
    for (uint64_t i = 0; i < n; ++i) {
        std::string key, value;
        if (!str(key) || !str(value)) return std::nullopt;
        if (key == "tick_hz") {
            try {
                return std::stod(value);
            } catch (const std::exception &) {
                return std::nullopt;
            }
        }
    }
    return std::nullopt;
}

bool StreamParser::fail(std::string why) {
    error_ = std::move(why) + " (at stream byte " + std::to_string(consumed_) + ")";
    return false;
}

bool StreamParser::feed(std::span<const uint8_t> bytes) {
    if (!error_.empty()) return false;
    buf_.insert(buf_.end(), bytes.begin(), bytes.end());
    for (;;) {
        bool progress = false;
        if (!step(progress)) return false;
        if (!progress) break;
    }
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));  // keep only the unfinished item
    pos_ = 0;
    return true;
}

// One item if it is complete in buf_; `progress` says whether one was consumed.
bool StreamParser::step(bool &progress) {
    const uint8_t *p = buf_.data() + pos_;
    size_t left = buf_.size() - pos_;
    auto take = [&](size_t n) {
        pos_ += n;
        consumed_ += n;
        progress = true;
    };
    switch (phase_) {
    case Phase::Welcome: {
        if (left < 4) return true;
        if (std::memcmp(p, MT_LIVE_WELCOME_MAGIC, 4) != 0)
            return fail("the peer is not a MemTracer runtime: it answered with bytes that are not a WELCOME");
        if (left < MT_LIVE_WELCOME_FIXED) return true;
        uint16_t len = mt_live_get16(p + 16);
        if (mt_live_get16(p + 4) != MT_LIVE_VERSION)
            return fail("the runtime speaks live protocol version " + std::to_string(mt_live_get16(p + 4)) +
                        ", this host knows 1");
        if (len > MT_LIVE_MAX_MSG) return fail("WELCOME message of " + std::to_string(len) + " bytes is too long");
        if (left < MT_LIVE_WELCOME_FIXED + len) return true;
        Welcome w{mt_live_get16(p + 6), mt_live_get64(p + 8),
                  std::string(reinterpret_cast<const char *>(p + MT_LIVE_WELCOME_FIXED), len)};
        take(MT_LIVE_WELCOME_FIXED + len);
        phase_ = w.start_offset == 0 ? Phase::Header : Phase::Items;
        if (h_.welcome) h_.welcome(w);
        return true;
    }
    case Phase::Header: {
        if (left < sizeof(mt_file_header)) return true;
        if (std::memcmp(p, MT_FORMAT_MAGIC, 8) != 0) return fail("the stream does not start with a run.mt header");
        if (codec::crc32c_update(0, p, 60) != codec::get_le32(p + 60)) return fail("the run.mt header fails its CRC");
        std::span<const uint8_t> hdr(p, sizeof(mt_file_header));
        take(sizeof(mt_file_header));
        phase_ = Phase::Items;
        if (h_.header) h_.header(hdr);
        return true;
    }
    case Phase::Items:
        break;
    }
    if (left < 8) return true;
    if (std::memcmp(p, MT_LIVE_MESSAGE_MAGIC, 4) == 0) {
        uint16_t type = mt_live_get16(p + 4), len = mt_live_get16(p + 6);
        if (left < MT_LIVE_MSG_HEADER + len) return true;
        const uint8_t *m = p + MT_LIVE_MSG_HEADER;
        if (type == MT_LIVE_MSG_STATUS && len >= MT_LIVE_STATUS_SIZE) {
            Status s{mt_live_get64(m), mt_live_get64(m + 8), mt_live_get64(m + 16), mt_live_get64(m + 24),
                     mt_live_get32(m + 32), mt_live_get32(m + 36)};
            take(MT_LIVE_MSG_HEADER + len);
            if (h_.status) h_.status(s);
        } else if (type == MT_LIVE_MSG_ACK && len >= MT_LIVE_ACK_SIZE) {
            Ack a{mt_live_get16(m), mt_live_get16(m + 2), mt_live_get64(m + 4), mt_live_get64(m + 12)};
            take(MT_LIVE_MSG_HEADER + len);
            if (h_.ack) h_.ack(a);
        } else {
            take(MT_LIVE_MSG_HEADER + len);  // a message type of a later runtime: skipped
        }
        return true;
    }
    if (codec::get_le32(p) != MT_CHUNK_MAGIC) return fail("expected a chunk ('MTCK') or a runtime message ('MTLM')");
    if (left < sizeof(mt_chunk_header)) return true;
    uint16_t type = codec::get_le16(p + 4), flags = codec::get_le16(p + 6);
    uint32_t size = codec::get_le32(p + 8);
    if (size > MT_MAX_CHUNK_PAYLOAD) return fail("chunk of " + std::to_string(size) + " bytes is over the format's limit");
    if (left < sizeof(mt_chunk_header) + size) return true;
    if (codec::chunk_crc(type, flags, size, p + sizeof(mt_chunk_header)) != codec::get_le32(p + 12))
        return fail("chunk of type " + std::to_string(type) + " fails its CRC");
    std::span<const uint8_t> chunk(p, sizeof(mt_chunk_header) + size);
    take(chunk.size());
    if (h_.chunk) h_.chunk(type, chunk);
    return true;
}

}  // namespace mt::live
