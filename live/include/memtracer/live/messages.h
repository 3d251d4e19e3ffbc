// messages.h — what the host learns from a runtime's live stream (trace/include/memtracer/
// stream_proto.h is the wire itself): its WELCOME, STATUS and ACK messages and the first fields of
// each FRAME chunk, as live/'s parser decodes them and a LiveLink hands them to an embedder.
#pragma once

#include <cstdint>
#include <string>

namespace mt::live {

struct Welcome {
    uint16_t status = 0;
    uint64_t start_offset = 0;
    std::string message;
};

struct Status {  // MT_LIVE_MSG_STATUS
    uint64_t open_frame = 0, frames_committed = 0, bytes_committed = 0, dropped = 0;
    uint32_t flags = 0, marks = 0;
};

struct Ack {
    uint16_t control = 0, result = 0;
    uint64_t frame_before = 0, frame_after = 0;  // the open frame just before / after it applied
};

struct FrameSummary {  // the first fields of a FRAME chunk
    uint64_t seq = 0, index = 0, start_tick = 0, end_tick = 0, events = 0, dropped = 0;
};

// A FRAME chunk the capture has just stored.
struct StoredFrame {
    FrameSummary frame;
    uint64_t stored_bytes = 0;  // run.mt's size after the chunk: always a chunk boundary
    double end_unix_ns = 0;     // when the game ended it (mt_frame_end) on its wall clock; 0 before
                                // the header and INFO told it
    double game_seconds = 0;    // its end, in seconds of the runtime's clock since frame 0 started
};

}  // namespace mt::live
