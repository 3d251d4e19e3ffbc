// stream_parser.h — the host's side of the live protocol (memtracer/stream_proto.h): turns the
// bytes a runtime sends into a WELCOME, the file header, whole checked chunks and the runtime's
// messages. Pure (no I/O), fed in any pieces, so it is tested without sockets.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "memtracer/live/messages.h"

namespace mt::live {

class StreamParser {
public:
    struct Handlers {
        std::function<void(const Welcome &)> welcome;
        std::function<void(std::span<const uint8_t>)> header;  // 64 bytes, checked
        // A whole chunk (header + payload) whose CRC matched; type from its header.
        std::function<void(uint16_t type, std::span<const uint8_t>)> chunk;
        std::function<void(const Status &)> status;
        std::function<void(const Ack &)> ack;
    };
    explicit StreamParser(Handlers h) : h_(std::move(h)) {}

    // Consumes what it can; false on a protocol error (error() says what and at which stream byte).
    bool feed(std::span<const uint8_t> bytes);
    const std::string &error() const { return error_; }

private:
    enum class Phase { Welcome, Header, Items };
    bool step(bool &progress);
    bool fail(std::string why);

    Handlers h_;
    Phase phase_ = Phase::Welcome;
    std::vector<uint8_t> buf_;
    size_t pos_ = 0;
    uint64_t consumed_ = 0;
    std::string error_;
};

// The FRAME chunk's seq, index, events and dropped; nullopt if the payload does not decode.
std::optional<FrameSummary> decode_frame(std::span<const uint8_t> chunk);
// INFO's tick_hz (ticks per second of the runtime's clock); nullopt if absent or malformed.
std::optional<double> decode_tick_hz(std::span<const uint8_t> chunk);

}  // namespace mt::live
