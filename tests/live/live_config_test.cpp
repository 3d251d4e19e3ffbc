// live_config_test.cpp — the runtime's live settings, in process: MT_ERR_LIVE for addresses that
// do not parse or both modes at once, an mt_config from before the live fields, the environment
// variables, and a listen port that cannot be bound (the capture runs on, the error says why).
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "memtracer/memtracer.h"
#include "memtracer/stream_proto.h"

namespace {

std::string out_path(const char *tag) { return "/tmp/mt-live-config-" + std::to_string(getpid()) + tag + ".mt"; }

int listener(int *port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    REQUIRE(bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) == 0);
    REQUIRE(listen(fd, 1) == 0);
    REQUIRE(getsockname(fd, reinterpret_cast<sockaddr *>(&sa), &len) == 0);
    *port = ntohs(sa.sin_port);
    return fd;
}

}  // namespace

TEST_CASE("live config: bad addresses and both modes are MT_ERR_LIVE, nothing started", "[live]") {
    std::string out = out_path("bad");
    mt_config c;
    mt_config_init(&c);
    c.output_path = out.c_str();
    c.live_listen = "127.0.0.1:99999";
    CHECK(mt_start(&c) == MT_ERR_LIVE);
    CHECK(std::string(mt_last_error()).find("live_listen '127.0.0.1:99999'") != std::string::npos);
    c.live_listen = "my-phone:34999";
    CHECK(mt_start(&c) == MT_ERR_LIVE);
    c.live_listen = ":34999";
    c.live_connect = "127.0.0.1:34999";
    CHECK(mt_start(&c) == MT_ERR_LIVE);
    CHECK(std::string(mt_last_error()).find("both") != std::string::npos);
    c.live_connect = nullptr;
    std::string long_token(65, 'x');
    c.live_token = long_token.c_str();
    CHECK(mt_start(&c) == MT_ERR_LIVE);
    CHECK(access(out.c_str(), F_OK) != 0);  // refused before the file was created
}

TEST_CASE("live config: an mt_config from before the live fields still starts", "[live]") {
    std::string out = out_path("v1");
    mt_config c;
    mt_config_init(&c);
    c.output_path = out.c_str();
    c.live_listen = "not an address";  // beyond struct_size: must not be read
    c.struct_size = MT_CONFIG_SIZE_V1;
    REQUIRE(mt_start(&c) == MT_OK);
    CHECK(mt_stop() == MT_OK);
    unlink(out.c_str());
}

TEST_CASE("live config: MEMTRACER_CONNECT and MEMTRACER_TOKEN are read when the fields are NULL", "[live]") {
    int port = 0;
    int ls = listener(&port);
    std::string addr = "127.0.0.1:" + std::to_string(port);
    setenv("MEMTRACER_CONNECT", addr.c_str(), 1);
    setenv("MEMTRACER_TOKEN", "envtoken", 1);
    std::string out = out_path("env");
    mt_config c;
    mt_config_init(&c);
    c.output_path = out.c_str();
    REQUIRE(mt_start(&c) == MT_OK);
    unsetenv("MEMTRACER_CONNECT");
    unsetenv("MEMTRACER_TOKEN");
    int fd = accept(ls, nullptr, nullptr);  // the runtime connected out to us
    REQUIRE(fd >= 0);
    // A wrong token is refused even in connect mode once a token is set.
    uint8_t hello[MT_LIVE_HELLO_FIXED + 5] = {};
    memcpy(hello, MT_LIVE_HELLO_MAGIC, 4);
    mt_live_put16(hello + 4, MT_LIVE_VERSION);
    mt_live_put16(hello + 6, 5);
    memcpy(hello + MT_LIVE_HELLO_FIXED, "guess", 5);
    REQUIRE(send(fd, hello, sizeof hello, 0) == static_cast<ssize_t>(sizeof hello));
    uint8_t reply[MT_LIVE_WELCOME_FIXED + MT_LIVE_MAX_MSG];
    ssize_t n = recv(fd, reply, sizeof reply, MSG_WAITALL);
    REQUIRE(n >= static_cast<ssize_t>(MT_LIVE_WELCOME_FIXED));
    CHECK(mt_live_get16(reply + 6) == MT_LIVE_BAD_TOKEN);
    close(fd);
    CHECK(mt_stop() == MT_OK);
    CHECK(std::string(mt_last_error()).find("wrong token") != std::string::npos);
    close(ls);
    unlink(out.c_str());
}

TEST_CASE("live config: a listen port in use leaves the capture running without streaming", "[live]") {
    int port = 0;
    int ls = listener(&port);
    std::string addr = "127.0.0.1:" + std::to_string(port);
    std::string out = out_path("busy");
    mt_config c;
    mt_config_init(&c);
    c.output_path = out.c_str();
    c.live_listen = addr.c_str();
    c.live_token = "t";
    REQUIRE(mt_start(&c) == MT_OK);
    CHECK(std::string(mt_last_error()).find("cannot listen on " + addr) != std::string::npos);
    CHECK(mt_frame_end(0) == MT_OK);
    CHECK(mt_stop() == MT_OK);
    close(ls);
    unlink(out.c_str());
}

namespace {

// What a host stores from a stream: the file bytes (header and chunks), without the runtime's
// messages. Minimal on purpose (memtracer-capture's parser is tested in live_tests).
struct Received {
    std::string file;
    std::vector<std::pair<uint16_t, uint16_t>> acks;  // (control, result)
    bool ok = false;
};

Received split_stream(const std::string &s) {
    Received r;
    if (s.size() < MT_LIVE_WELCOME_FIXED || s.compare(0, 4, "MTLW") != 0) return r;
    const auto *p = reinterpret_cast<const uint8_t *>(s.data());
    size_t at = MT_LIVE_WELCOME_FIXED + mt_live_get16(p + 16);
    if (mt_live_get16(p + 6) != MT_LIVE_OK || s.size() < at + 64) return r;
    r.file.append(s, at, 64);
    at += 64;
    while (at + 8 <= s.size()) {
        if (s.compare(at, 4, "MTLM") == 0) {
            if (mt_live_get16(p + at + 4) == MT_LIVE_MSG_ACK)
                r.acks.emplace_back(mt_live_get16(p + at + 8), mt_live_get16(p + at + 10));
            at += MT_LIVE_MSG_HEADER + mt_live_get16(p + at + 6);
        } else if (s.compare(at, 4, "MTCK") == 0 && at + 16 <= s.size()) {
            size_t n = 16 + mt_live_get32(p + at + 8);
            if (at + n > s.size()) return r;
            r.file.append(s, at, n);
            at += n;
        } else {
            return r;
        }
    }
    r.ok = at == s.size();
    return r;
}

std::string read_all(const std::string &path) {
    std::string s;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) return s;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    fclose(f);
    return s;
}

}  // namespace

TEST_CASE("live in process: a host thread gets exactly the file, and its STOP ends the capture", "[live]") {
    int port = 0;
    int ls = listener(&port);
    std::string addr = "127.0.0.1:" + std::to_string(port);
    std::string out = out_path("stream");
    std::string stream;
    std::atomic<bool> stop_sent{false};
    std::thread host([&] {
        int fd = accept(ls, nullptr, nullptr);
        uint8_t hello[MT_LIVE_HELLO_FIXED] = {};
        memcpy(hello, MT_LIVE_HELLO_MAGIC, 4);
        mt_live_put16(hello + 4, MT_LIVE_VERSION);
        if (send(fd, hello, sizeof hello, 0) != static_cast<ssize_t>(sizeof hello)) return;
        char buf[65536];
        ssize_t n;
        while ((n = recv(fd, buf, sizeof buf, 0)) > 0) {
            stream.append(buf, static_cast<size_t>(n));
            if (!stop_sent && stream.size() > 20000) {  // some frames in: pause, resume, stop from the host
                uint8_t ctl[3 * MT_LIVE_MSG_HEADER];
                mt_live_put_header(ctl, MT_LIVE_CONTROL_MAGIC, MT_LIVE_CTL_PAUSE, 0);
                mt_live_put_header(ctl + 8, MT_LIVE_CONTROL_MAGIC, MT_LIVE_CTL_RESUME, 0);
                mt_live_put_header(ctl + 16, MT_LIVE_CONTROL_MAGIC, MT_LIVE_CTL_STOP, 0);
                if (send(fd, ctl, sizeof ctl, 0) == static_cast<ssize_t>(sizeof ctl)) stop_sent = true;
            }
        }
        close(fd);
    });
    mt_config c;
    mt_config_init(&c);
    c.output_path = out.c_str();
    c.live_connect = addr.c_str();
    REQUIRE(mt_start(&c) == MT_OK);
    std::thread worker([&] {  // a second allocating thread, until the capture ended
        mt_counters wk;
        while (mt_get_counters(&wk) == MT_OK && wk.running)
            for (int k = 0; k < 50; ++k) mt_on_alloc(reinterpret_cast<void *>(0x10000 + k * 64), reinterpret_cast<void *>(0x40), 32);
    });
    // The main thread plays the game's frame loop until the host's STOP ended the capture.
    uint64_t frame = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        for (int k = 0; k < 100; ++k) mt_on_alloc(reinterpret_cast<void *>(0x20000 + k * 64), reinterpret_cast<void *>(0x80), 48);
        if (mt_frame_end(frame++) == MT_ERR_NOT_STARTED) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // pacing only, orders nothing
    }
    worker.join();
    host.join();
    close(ls);
    CHECK(stop_sent);
    mt_counters k;
    REQUIRE(mt_get_counters(&k) == MT_OK);
    CHECK(k.running == 0);  // stopped by the host, not by this thread
    CHECK(mt_stop() == MT_ERR_NOT_STARTED);
    Received r = split_stream(stream);
    REQUIRE(r.ok);
    std::string file = read_all(out);
    CHECK(r.file.size() == file.size());
    CHECK(r.file == file);
    CHECK(file.find("stopped by the live host") != std::string::npos);  // the END chunk's message
    // Applied in order at the writer's next iterations, each acknowledged before the END.
    using A = std::pair<uint16_t, uint16_t>;
    CHECK(r.acks == std::vector<A>{A{MT_LIVE_CTL_PAUSE, MT_LIVE_ACK_APPLIED}, A{MT_LIVE_CTL_RESUME, MT_LIVE_ACK_APPLIED},
                                   A{MT_LIVE_CTL_STOP, MT_LIVE_ACK_APPLIED}});
    unlink(out.c_str());
}

namespace {

int connect_loopback(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<uint16_t>(port));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) == 0);
    return fd;
}

// The WELCOME's status, read whole (blocking: the writer thread answers when it gets to it).
int welcome_status(int fd) {
    uint8_t w[MT_LIVE_WELCOME_FIXED];
    size_t got = 0;
    while (got < sizeof w) {
        ssize_t n = recv(fd, w + got, sizeof w - got, 0);
        if (n <= 0) return -1;
        got += static_cast<size_t>(n);
    }
    return memcmp(w, "MTLW", 4) == 0 ? mt_live_get16(w + 6) : -1;
}

void send_hello(int fd, const char *token) {
    uint8_t hello[MT_LIVE_HELLO_FIXED + 8] = {};
    memcpy(hello, MT_LIVE_HELLO_MAGIC, 4);
    mt_live_put16(hello + 4, MT_LIVE_VERSION);
    size_t n = strlen(token);
    mt_live_put16(hello + 6, static_cast<uint16_t>(n));
    memcpy(hello + MT_LIVE_HELLO_FIXED, token, n);
    REQUIRE(send(fd, hello, MT_LIVE_HELLO_FIXED + n, 0) == static_cast<ssize_t>(MT_LIVE_HELLO_FIXED + n));
}

}  // namespace

TEST_CASE("live in process: listening, the host slot goes only to a HELLO with the token", "[live]") {
    // The accept path of stream_accept.cpp under the sanitizer builds: an idle connection and
    // a wrong token hold nothing, garbage is answered at once, the token gets the slot, and a
    // second host with the token is told BUSY.
    int port = 0;
    close(listener(&port));  // a free port (the runtime binds it next)
    std::string addr = "127.0.0.1:" + std::to_string(port);
    std::string out = out_path("listen");
    mt_config c;
    mt_config_init(&c);
    c.output_path = out.c_str();
    c.live_listen = addr.c_str();
    c.live_token = "t0ken";
    REQUIRE(mt_start(&c) == MT_OK);
    int idle = connect_loopback(port);
    int garbage = connect_loopback(port);
    REQUIRE(send(garbage, "GET / HTTP/1.0\r\n\r\n", 18, 0) == 18);
    CHECK(welcome_status(garbage) == MT_LIVE_BAD_HELLO);
    int wrong = connect_loopback(port);
    send_hello(wrong, "guess");
    CHECK(welcome_status(wrong) == MT_LIVE_BAD_TOKEN);
    int host = connect_loopback(port);
    send_hello(host, "t0ken");
    CHECK(welcome_status(host) == MT_LIVE_OK);
    int second = connect_loopback(port);
    send_hello(second, "t0ken");
    CHECK(welcome_status(second) == MT_LIVE_BUSY);
    CHECK(mt_frame_end(0) == MT_OK);
    CHECK(mt_stop() == MT_OK);
    for (int fd : {idle, garbage, wrong, host, second}) close(fd);
    unlink(out.c_str());
}
