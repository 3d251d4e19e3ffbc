// live_game.h — what the live tests share: the sample game listening on loopback (its port read
// from its log), memtracer-capture's command line, and small socket and file helpers.
#pragma once

#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "live_process.h"
#include "memtracer/reader.h"

namespace mt::livetest {

// The port the game's runtime logged ("memtracer live: listening on 127.0.0.1:PORT"); 0 if none yet.
inline int logged_port(const Child &game) {
    std::smatch m;
    std::string log = game.log();
    static const std::regex re("listening on 127\\.0\\.0\\.1:([0-9]+)");
    return std::regex_search(log, m, re) ? std::stoi(m[1]) : 0;
}

struct Game {
    std::string dir, out, log;
    Child child;
    int port = 0;
    Game(const std::string &d, uint64_t frames, int fps)
        : dir(d), out(d + "/game.mt"), log(d + "/game.log"),
          child({MT_SAMPLE_GAME, "--frames", std::to_string(frames), "--fps", std::to_string(fps), "--listen",
                 "127.0.0.1:0", "--token", "s3cret", "--out", out, "--quiet"},
                log) {
        REQUIRE(eventually([&] { return (port = logged_port(child)) != 0; }));
    }
    std::string addr() const { return "127.0.0.1:" + std::to_string(port); }
};

inline std::vector<std::string> capture_argv(const Game &g, const std::string &out, const std::string &token = "s3cret") {
    return {MT_CAPTURE, g.addr(), "-o", out, "--token", token, "--status-interval", "0"};
}

// Frames a (possibly growing) file holds now; a file not there yet holds none.
inline uint64_t frames_in(const std::string &path) {
    if (access(path.c_str(), R_OK) != 0) return 0;
    try {
        return mt::reader::load_file(path).frames.size();
    } catch (const std::exception &) {
        return 0;
    }
}

inline bool contains(const std::string &text, const std::string &what) { return text.find(what) != std::string::npos; }

inline int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<uint16_t>(port));
    sa.sin_addr.s_addr = htonl(0x7f000001);
    REQUIRE(connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) == 0);
    return fd;
}

inline std::string recv_all(int fd) {
    std::string got;
    char buf[4096];
    ssize_t n;
    while ((n = recv(fd, buf, sizeof buf, 0)) > 0) got.append(buf, static_cast<size_t>(n));
    return got;
}

}  // namespace mt::livetest
