// live_test.cpp — live capture with real processes on loopback: memtracer-sample-game streaming
// (MEMTRACER_LISTEN via --listen) and memtracer-capture receiving. Every step waits for the state
// it asserts (a log line, frames in a file), polled with a generous bound; nothing sleeps to sync.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <regex>
#include <atomic>
#include <thread>

#include "live_game.h"
#include "live_process.h"
#include "memtracer/reader.h"
#include "memtracer/stream_proto.h"
#include "stream_parser.h"

using namespace mt::livetest;

namespace {

// "memtracer-capture: pause applied (open frame 12 before, 12 after)" -> 12, 12.
bool ack_frames(const std::string &log, const std::string &control, uint64_t &before, uint64_t &after) {
    std::smatch m;
    std::regex re(control + " applied \\(open frame ([0-9]+) before, ([0-9]+) after\\)");
    if (!std::regex_search(log, m, re)) return false;
    before = std::stoull(m[1]);
    after = std::stoull(m[2]);
    return true;
}

}  // namespace

TEST_CASE("live: the host's file is the game's file, byte for byte", "[live]") {
    std::string dir = temp_dir("same");
    RemoveOnExit cleanup{dir};
    Game game(dir, 240, 120);
    Child host(capture_argv(game, dir + "/host.mt"), dir + "/host.log");
    REQUIRE(host.wait() == 0);
    REQUIRE(game.child.wait() == 0);
    CHECK(read_text(dir + "/host.mt") == read_text(game.out));
    auto run = mt::reader::load_file(dir + "/host.mt");
    CHECK(run.result.stop == mt::reader::Stop::End);
    CHECK(run.frames.size() == 241);  // 240 frame ends and the FINAL frame
    CHECK(contains(host.log(), "capture complete: 241 frames"));
}

TEST_CASE("live: the game killed mid-stream leaves the host every committed frame, marked cut off", "[live]") {
    std::string dir = temp_dir("killgame");
    RemoveOnExit cleanup{dir};
    Game game(dir, 1000000, 60);
    Child host(capture_argv(game, dir + "/host.mt"), dir + "/host.log");
    REQUIRE(eventually([&] { return frames_in(dir + "/host.mt") >= 30; }));
    game.child.kill9();
    REQUIRE(game.child.wait() == 128 + SIGKILL);
    REQUIRE(host.wait() == 3);
    CHECK(contains(host.log(), "cut off"));
    auto h = mt::reader::load_file(dir + "/host.mt");
    auto g = mt::reader::load_file(game.out);
    CHECK(h.result.stop == mt::reader::Stop::Eof);  // no END: the reader says the run was cut off
    REQUIRE(h.frames.size() >= 30);
    REQUIRE(h.frames.size() <= g.frames.size());
    for (size_t i = 0; i < h.frames.size(); ++i) REQUIRE(h.frames[i] == g.frames[i]);
    // Only whole chunks: the host's bytes are a prefix of the game's.
    std::string hb = read_text(dir + "/host.mt"), gb = read_text(game.out);
    CHECK(gb.compare(0, hb.size(), hb) == 0);
}

TEST_CASE("live: a killed host leaves the game undisturbed, and a new host resumes with the rest", "[live]") {
    std::string dir = temp_dir("killhost");
    RemoveOnExit cleanup{dir};
    Game game(dir, 600, 60);
    {
        Child first(capture_argv(game, dir + "/host.mt"), dir + "/host1.log");
        REQUIRE(eventually([&] { return frames_in(dir + "/host.mt") >= 20; }));
        first.kill9();
        REQUIRE(first.wait() == 128 + SIGKILL);
    }
    // The game noticed (EOF, reset or broken pipe), so the next host is not refused as busy.
    REQUIRE(eventually([&] { return contains(game.child.log(), ": disconnected"); }));
    auto argv = capture_argv(game, dir + "/host.mt");
    argv.push_back("--resume");
    Child second(argv, dir + "/host2.log");
    REQUIRE(second.wait() == 0);
    REQUIRE(game.child.wait() == 0);
    auto g = mt::reader::load_file(game.out);
    auto h = mt::reader::load_file(dir + "/host.mt");
    CHECK(g.result.stop == mt::reader::Stop::End);
    CHECK(g.frames.size() == 601);
    REQUIRE(h.frames.size() == g.frames.size());
    for (size_t i = 0; i < h.frames.size(); ++i) REQUIRE(h.frames[i] == g.frames[i]);
    CHECK(read_text(dir + "/host.mt") == read_text(game.out));
    CHECK(!contains(second.log(), "from byte 0\n"));  // resumed, not resent
}

TEST_CASE("live: a garbage peer is refused with a clear error and the game streams on", "[live]") {
    std::string dir = temp_dir("garbage");
    RemoveOnExit cleanup{dir};
    Game game(dir, 300, 60);
    int fd = connect_to(game.port);
    std::string http;
    for (int i = 0; i < 4; ++i) http += "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    // One write: the runtime answers the first bytes and hangs up, so a later write could meet a
    // closed socket (EPIPE, and SIGPIPE without MSG_NOSIGNAL) depending on timing.
    REQUIRE(send(fd, http.data(), http.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(http.size()));
    std::string reply = recv_all(fd);  // the runtime answers and hangs up
    close(fd);
    REQUIRE(reply.size() >= MT_LIVE_WELCOME_FIXED);
    CHECK(reply.compare(0, 4, "MTLW") == 0);
    CHECK(mt_live_get16(reinterpret_cast<const uint8_t *>(reply.data()) + 6) == MT_LIVE_BAD_HELLO);
    CHECK(reply.size() < 300);  // nothing of the capture was sent
    CHECK(contains(game.child.log(), "sent no HELLO (first bytes 47 45 54 20)"));
    Child host(capture_argv(game, dir + "/host.mt"), dir + "/host.log");
    REQUIRE(host.wait() == 0);
    REQUIRE(game.child.wait() == 0);
    CHECK(read_text(dir + "/host.mt") == read_text(game.out));
}

TEST_CASE("live: a wrong token is refused and logged, nothing is stored", "[live]") {
    std::string dir = temp_dir("token");
    RemoveOnExit cleanup{dir};
    Game game(dir, 200, 60);
    Child bad(capture_argv(game, dir + "/bad.mt", "guess"), dir + "/bad.log");
    REQUIRE(bad.wait() == 2);
    CHECK(contains(bad.log(), "refused by the runtime: wrong token"));
    CHECK(access((dir + "/bad.mt").c_str(), F_OK) != 0);
    CHECK(contains(game.child.log(), "wrong token"));
    Child good(capture_argv(game, dir + "/good.mt"), dir + "/good.log");
    REQUIRE(good.wait() == 0);
    REQUIRE(game.child.wait() == 0);
    CHECK(read_text(dir + "/good.mt") == read_text(game.out));
}

TEST_CASE("live: a host that is not a runtime's peer makes memtracer-capture fail clearly", "[live]") {
    // A listener that answers HTTP: the capture tool must say so and store nothing.
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(0x7f000001);
    REQUIRE(bind(ls, reinterpret_cast<sockaddr *>(&sa), sizeof sa) == 0);
    REQUIRE(listen(ls, 1) == 0);
    socklen_t len = sizeof sa;
    getsockname(ls, reinterpret_cast<sockaddr *>(&sa), &len);
    std::string dir = temp_dir("notruntime");
    RemoveOnExit cleanup{dir};
    Child host({MT_CAPTURE, "127.0.0.1:" + std::to_string(ntohs(sa.sin_port)), "-o", dir + "/x.mt", "--status-interval",
                "0"},
               dir + "/host.log");
    int fd = accept(ls, nullptr, nullptr);
    REQUIRE(fd >= 0);
    std::string junk = "HTTP/1.1 400 Bad Request\r\n\r\n";
    REQUIRE(send(fd, junk.data(), junk.size(), 0) == static_cast<ssize_t>(junk.size()));
    REQUIRE(host.wait() == 2);
    close(fd);
    close(ls);
    CHECK(contains(host.log(), "not a MemTracer runtime"));
    CHECK(access((dir + "/x.mt").c_str(), F_OK) != 0);
}

TEST_CASE("live: memtracer-capture refuses a negative or unreadable count or time before connecting", "[live]") {
    // Before the check, --wait -1 tried once and said "cannot connect", --status-interval -5 and
    // --stop-after-frames -3 were taken as given.
    std::string dir = temp_dir("badopts");
    RemoveOnExit cleanup{dir};
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--wait", "-1"}, "--wait: '-1' is not a number of seconds >= 0"},
        {{"--reconnect", "later"}, "--reconnect: 'later' is not a number of seconds >= 0"},
        {{"--status-interval", "-5"}, "--status-interval: '-5' is not a number of seconds >= 0"},
        {{"--stop-after-frames", "-3"}, "--stop-after-frames: '-3' is not a whole number in [0, 18446744073709551615]"},
    };
    int n = 0;
    for (const auto &[args, message] : cases) {
        INFO(message);
        std::vector<std::string> argv = {MT_CAPTURE, "127.0.0.1:1", "-o", dir + "/x.mt"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::string log = dir + "/capture" + std::to_string(n++) + ".log";
        Child host(argv, log);
        CHECK(host.wait() == 2);
        CHECK(contains(host.log(), message));
        CHECK_FALSE(contains(host.log(), "cannot connect"));
    }
    CHECK(access((dir + "/x.mt").c_str(), F_OK) != 0);
}

TEST_CASE("live: memtracer-capture's terminal prints its status line while streaming and the latency at the end", "[live]") {
    // The terminal front end (live/src/terminal.cpp) sees the capture only through its LiveLink:
    // its counters must be the stored frames', its summary the stored run's frame count.
    std::string dir = temp_dir("terminal");
    RemoveOnExit cleanup{dir};
    Game game(dir, 1000000, 60);
    auto argv = capture_argv(game, dir + "/host.mt");
    argv.back() = "0.05";  // --status-interval
    argv.push_back("--latency");
    Child host(argv, dir + "/host.log", /*stdin_pipe=*/true);
    const std::regex status_re("live: frames ([0-9]+) \\([0-9.]+/s\\), events [0-9]+/s, lag [0-9]+ frames, drops [0-9]+, "
                               "([0-9.]+) MiB");
    std::smatch m;
    REQUIRE(eventually([&] {
        const std::string log = host.log();
        for (auto it = std::sregex_iterator(log.begin(), log.end(), status_re); it != std::sregex_iterator(); ++it)
            if (std::stoull((*it)[1]) >= 5 && std::stod((*it)[2]) > 0) return true;
        return false;
    }));
    host.write_line("stop");
    REQUIRE(host.wait() == 0);
    auto run = mt::reader::load_file(dir + "/host.mt");
    REQUIRE(run.result.stop == mt::reader::Stop::End);
    const std::string log = host.log();
    const std::regex latency_re("latency mt_frame_end -> stored: p50 [0-9.]+ ms, p95 [0-9.]+ ms, max [0-9.]+ ms over "
                                "([0-9]+) frames; [0-9]+ events/s over ([0-9.]+) s of game time, [0-9]+ dropped");
    REQUIRE(std::regex_search(log, m, latency_re));
    CHECK(std::stoull(m[1]) == run.frames.size());
    CHECK(std::stod(m[2]) > 0);
}

TEST_CASE("live: pause, resume and mark from the host apply at the next drain", "[live]") {
    std::string dir = temp_dir("pause");
    RemoveOnExit cleanup{dir};
    Game game(dir, 1000000, 60);
    auto argv = capture_argv(game, dir + "/host.mt");
    Child host(argv, dir + "/host.log", /*stdin_pipe=*/true);
    REQUIRE(eventually([&] { return frames_in(dir + "/host.mt") >= 10; }));
    host.write_line("pause");
    uint64_t before = 0, paused_after = 0, resumed_before = 0, resumed_after = 0;
    REQUIRE(eventually([&] { return ack_frames(host.log(), "pause", before, paused_after); }));
    REQUIRE(eventually([&] { return frames_in(dir + "/host.mt") >= paused_after + 10; }));
    host.write_line("resume");
    REQUIRE(eventually([&] { return ack_frames(host.log(), "resume", resumed_before, resumed_after); }));
    REQUIRE(resumed_before >= paused_after + 10);
    REQUIRE(eventually([&] { return frames_in(dir + "/host.mt") >= resumed_after + 10; }));
    // Two marks back to back, usually applied in one pass of the writer: each keeps its own label.
    host.write_line("mark boss-fight");
    host.write_line("mark boss-phase-2");
    uint64_t mark_before = 0, mark_after = 0;
    REQUIRE(eventually([&] { return ack_frames(host.log(), "mark", mark_before, mark_after); }));
    REQUIRE(eventually([&] {
        const std::string log = host.log();
        const std::regex re("mark applied");
        return std::distance(std::sregex_iterator(log.begin(), log.end(), re), std::sregex_iterator()) == 2;
    }));
    host.write_line("stop");
    REQUIRE(host.wait() == 0);
    auto run = mt::reader::load_file(dir + "/host.mt");
    REQUIRE(run.result.stop == mt::reader::Stop::End);
    CHECK(run.result.end_message.find("stopped by the live host") != std::string::npos);
    // The sample game allocates only inside a frame's Update and jobs, all done before its
    // mt_frame_end, so a frame that opened after the pause applied and ended before the resume
    // did records nothing, and every frame opened after the resume records again.
    REQUIRE(run.frames.size() > resumed_after + 9);
    for (uint64_t i = paused_after + 1; i < resumed_before; ++i) CHECK(run.frames[i].events == 0);
    for (uint64_t i = resumed_after + 1; i < resumed_after + 9; ++i) CHECK(run.frames[i].events > 0);
    for (uint64_t i = 1; i < before; ++i) CHECK(run.frames[i].events > 0);
    // The mark reached the host's file, in the frame that was open when the game applied it
    // (the game's own scripted "level loaded" is in frame 0).
    std::vector<uint64_t> marked, second;
    for (const auto &f : run.frames)
        for (const auto &m : f.marks) {
            if (m.label == "boss-fight") marked.push_back(f.seq);
            if (m.label == "boss-phase-2") second.push_back(f.seq);
        }
    REQUIRE(second.size() == 1);
    REQUIRE(!run.frames.empty());
    REQUIRE(run.frames[0].marks.size() == 1);
    CHECK(run.frames[0].marks[0].label == "level loaded");
    REQUIRE(marked.size() == 1);
    CHECK(marked[0] >= mark_before);
    CHECK(marked[0] <= mark_after);
    game.child.kill9();
}

TEST_CASE("live: the stream parser checks every chunk and names what is wrong", "[live]") {
    using namespace mt::live;
    int chunks = 0;
    StreamParser::Handlers h;
    h.chunk = [&](uint16_t, std::span<const uint8_t>) { ++chunks; };
    SECTION("not a runtime") {
        StreamParser p(h);
        std::string junk = "HTTP/1.1 200 OK\r\n";
        CHECK_FALSE(p.feed({reinterpret_cast<const uint8_t *>(junk.data()), junk.size()}));
        CHECK(contains(p.error(), "not a MemTracer runtime"));
    }
    SECTION("a flipped payload byte is refused, the chunk is not delivered") {
        std::vector<uint8_t> s(MT_LIVE_WELCOME_FIXED, 0);
        std::memcpy(s.data(), MT_LIVE_WELCOME_MAGIC, 4);
        mt_live_put16(s.data() + 4, MT_LIVE_VERSION);
        mt_live_put64(s.data() + 8, 64);  // resuming after the header: chunks come next
        uint8_t payload[3] = {1, 2, 3};
        std::vector<uint8_t> c(16 + 3);
        mt_live_put32(c.data(), 0x4B43544Du);
        mt_live_put16(c.data() + 4, 3);
        mt_live_put32(c.data() + 8, 3);
        std::memcpy(c.data() + 16, payload, 3);
        uint8_t head[8] = {3, 0, 0, 0, 3, 0, 0, 0};
        // CRC computed by the same codec the reader uses, then the payload damaged.
        extern uint32_t live_test_crc(const uint8_t *, size_t, const uint8_t *, size_t);
        mt_live_put32(c.data() + 12, live_test_crc(head, 8, payload, 3));
        StreamParser ok(h);
        std::vector<uint8_t> good = s;
        good.insert(good.end(), c.begin(), c.end());
        for (uint8_t b : good) REQUIRE(ok.feed({&b, 1}));  // one byte at a time
        CHECK(chunks == 1);
        c[17] ^= 1;
        std::vector<uint8_t> bad = s;
        bad.insert(bad.end(), c.begin(), c.end());
        StreamParser p(h);
        CHECK_FALSE(p.feed(bad));
        CHECK(contains(p.error(), "fails its CRC"));
        CHECK(chunks == 1);
    }
}

namespace {

// A TCP forwarder standing in for a network between the game and the host: the first connection
// is cut (both sides closed) after `cut_after` bytes from the game plus part of the next read,
// at an arbitrary byte, usually inside a chunk; later connections are forwarded whole.
class CuttingProxy {
public:
    CuttingProxy(int target_port, size_t cut_after) : target_(target_port), cut_after_(cut_after) {
        ls_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_addr.s_addr = htonl(0x7f000001);
        socklen_t len = sizeof sa;
        REQUIRE(bind(ls_, reinterpret_cast<sockaddr *>(&sa), sizeof sa) == 0);
        REQUIRE(listen(ls_, 4) == 0);
        getsockname(ls_, reinterpret_cast<sockaddr *>(&sa), &len);
        port = ntohs(sa.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~CuttingProxy() {
        done_ = true;
        shutdown(ls_, SHUT_RDWR);
        close(ls_);
        thread_.join();
    }
    int port = 0;
    std::atomic<int> cuts{0};

private:
    void serve() {
        for (int n = 0; !done_; ++n) {
            int game = accept(ls_, nullptr, nullptr);
            if (game < 0) return;
            int host = connect_to(target_);
            forward(game, host, n == 0);
            close(game);
            close(host);
        }
    }
    void forward(int game, int host, bool cut) {
        size_t from_game = 0;
        char buf[16384];
        for (;;) {
            pollfd p[2] = {{game, POLLIN, 0}, {host, POLLIN, 0}};
            if (poll(p, 2, 200) < 0 || done_) return;
            for (int i = 0; i < 2; ++i) {
                if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                ssize_t n = recv(p[i].fd, buf, sizeof buf, 0);
                if (n <= 0) return;
                int to = i == 0 ? host : game;
                if (i == 0 && cut && from_game + static_cast<size_t>(n) > cut_after_) {
                    size_t part = static_cast<size_t>(n) / 2 + 7 < static_cast<size_t>(n) ? static_cast<size_t>(n) / 2 + 7 : 1;
                    send(to, buf, part, MSG_NOSIGNAL);
                    ++cuts;
                    return;
                }
                if (send(to, buf, static_cast<size_t>(n), MSG_NOSIGNAL) != n) return;
                if (i == 0) from_game += static_cast<size_t>(n);
            }
        }
    }
    int ls_ = -1, target_;
    size_t cut_after_;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

int logged_capture_port(const Child &host) {
    std::smatch m;
    std::string log = host.log();
    static const std::regex re("memtracer-capture: listening on 127\\.0\\.0\\.1:([0-9]+)");
    return std::regex_search(log, m, re) ? std::stoi(m[1]) : 0;
}

}  // namespace

TEST_CASE("live: a network cut mid-chunk stores no partial chunk, then the game reconnects and the host resumes", "[live]") {
    std::string dir = temp_dir("netcut");
    RemoveOnExit cleanup{dir};
    Child host({MT_CAPTURE, "--listen", "127.0.0.1:0", "-o", dir + "/host.mt", "--token", "s3cret", "--reconnect", "60",
                "--status-interval", "0"},
               dir + "/host.log");
    int host_port = 0;
    REQUIRE(eventually([&] { return (host_port = logged_capture_port(host)) != 0; }));
    CuttingProxy proxy(host_port, 60000);
    Child game({MT_SAMPLE_GAME, "--frames", "480", "--fps", "60", "--connect", "127.0.0.1:" + std::to_string(proxy.port),
                "--token", "s3cret", "--out", dir + "/game.mt", "--quiet"},
               dir + "/game.log");
    REQUIRE(eventually([&] { return contains(host.log(), "connection lost"); }));
    CHECK(proxy.cuts == 1);
    // What the host holds at the cut: whole chunks only, a prefix of the game's file.
    std::string held = read_text(dir + "/host.mt");
    auto at_cut = mt::reader::load_buffer(reinterpret_cast<const uint8_t *>(held.data()), held.size());
    CHECK(at_cut.result.stop == mt::reader::Stop::Eof);
    CHECK(read_text(dir + "/game.mt").compare(0, held.size(), held) == 0);
    REQUIRE(host.wait() == 0);
    REQUIRE(game.wait() == 0);
    CHECK(contains(game.log(), "connected to"));
    CHECK(read_text(dir + "/host.mt") == read_text(dir + "/game.mt"));
    CHECK(mt::reader::load_file(dir + "/host.mt").result.stop == mt::reader::Stop::End);
}
