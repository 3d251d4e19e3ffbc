// fake_game.h — a fake game speaking the live wire protocol (memtracer/stream_proto.h) on
// loopback: it accepts one host, reads its HELLO, answers WELCOME with `status` and then sends
// `stream` (run.mt bytes, possibly damaged; the caller decides), then closes its side. Used by
// live_test.cpp's bad-chunk cases and by the protocol fuzz target (tests/live/fuzz_live_stream.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <thread>

namespace mt::livetest {

class FakeGame {
public:
    explicit FakeGame(std::string stream, uint16_t status = 0);
    ~FakeGame();  // waits for the host to hang up (or for the listener to be shut down)
    FakeGame(const FakeGame &) = delete;
    FakeGame &operator=(const FakeGame &) = delete;
    int port() const { return port_; }
    std::string addr() const { return "127.0.0.1:" + std::to_string(port_); }

private:
    void serve();
    std::string stream_;
    uint16_t status_;
    int listen_fd_ = -1, port_ = 0;
    std::thread thread_;
};

// Walks a run.mt (header, then chunks) and recomputes every CRC: the header's and each whole
// chunk's, so a stream damaged on purpose passes the framing checks and only its content is wrong.
void fix_crcs(std::string &bytes);

}  // namespace mt::livetest
