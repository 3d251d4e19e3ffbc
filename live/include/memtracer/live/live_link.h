// live_link.h — how a program embedding the capture (memtracer-viewer --live) watches it and
// steers it: the capture's thread reports into it, any thread sends controls through it.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "memtracer/live/messages.h"

namespace mt::live {

// Where the capture is; an embedder maps it to its own words (the viewer: server/live_mode.cpp).
enum class CaptureState {
    Connecting,    // waiting for the game (or for it to connect, --listen)
    Streaming,     // WELCOME received: chunks are being stored
    Reconnecting,  // cut off without END; waiting for the game to come back (--reconnect)
    Ended,         // the game's END chunk: a complete capture
    CutOff,        // the game went away before its END
    Error,         // the capture failed; `why` says how
};

class LiveLink {
public:
    // Called on the capture's thread, once per FRAME chunk stored (a reader of the run.mt prefix
    // of stored_bytes sees exactly the frames reported so far).
    std::function<void(const StoredFrame &)> on_frame;
    std::function<void(const Status &)> on_status;
    std::function<void(const Ack &)> on_ack;
    // Each change of state; `why` is the reason for CaptureState::Error, "" otherwise.
    std::function<void(CaptureState, const std::string &why)> on_state;

    // From any thread: queue a control (MT_LIVE_CTL_*) for the connection; false when there is
    // none (not connected yet, or the capture ended).
    bool send(uint16_t type, const std::string &payload = {}) {
        std::lock_guard lk(mu_);
        if (!sender_) return false;
        sender_(type, payload);
        return true;
    }
    // The capture's side.
    void set_sender(std::function<void(uint16_t, std::string)> s) {
        std::lock_guard lk(mu_);
        sender_ = std::move(s);
    }

private:
    std::mutex mu_;
    std::function<void(uint16_t, std::string)> sender_;
};

}  // namespace mt::live
