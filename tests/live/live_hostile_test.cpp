// live_hostile_test.cpp — the live link as an attacker or an unlucky user meets it (issue 21):
// clients without the token cannot keep a host with it out, BUSY is retried within --wait, a
// listener answers a short HTTP request at once, and chunks that pass magic, size and CRC but
// not the reader's rules are refused with the file left at the exact good prefix. Each step
// waits for the state it asserts; nothing depends on how long anything takes.
#include <catch2/catch.hpp>

#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <regex>

#include "fake_game.h"
#include "live_game.h"
#include "live_process.h"
#include "memtracer/format.h"
#include "memtracer/reader.h"
#include "memtracer/stream_proto.h"

using namespace mt::livetest;

namespace {

size_t count_of(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// What an unauthenticated client was sent: nothing, or a refusing WELCOME; never capture bytes.
void check_got_no_capture(int fd) {
    shutdown(fd, SHUT_WR);
    std::string got = recv_all(fd);
    close(fd);
    if (got.empty()) return;
    REQUIRE(got.size() >= MT_LIVE_WELCOME_FIXED);
    CHECK(got.compare(0, 4, "MTLW") == 0);
    CHECK(mt_live_get16(reinterpret_cast<const uint8_t *>(got.data()) + 6) != MT_LIVE_OK);
    CHECK(got.size() < 300);
}

}  // namespace

TEST_CASE("live: clients without the token never hold the host slot", "[live][hostile]") {
    std::string dir = temp_dir("lockout");
    RemoveOnExit cleanup{dir};
    Game game(dir, 1000000, 60);
    // Three handshakes the game cannot finish: two idle connections and a HELLO cut after its
    // version (the rest never comes). Before the fix the first of them took the one host slot.
    int idle1 = connect_to(game.port), idle2 = connect_to(game.port), partial = connect_to(game.port);
    uint8_t head[6];
    std::memcpy(head, MT_LIVE_HELLO_MAGIC, 4);
    mt_live_put16(head + 4, MT_LIVE_VERSION);
    REQUIRE(send(partial, head, sizeof head, 0) == static_cast<ssize_t>(sizeof head));
    REQUIRE(eventually([&] { return count_of(game.child.log(), " connected") >= 3; }));
    auto argv = capture_argv(game, dir + "/host.mt");
    argv.insert(argv.end(), {"--stop-after-frames", "30"});
    Child host(argv, dir + "/host.log");
    REQUIRE(host.wait() == 0);
    INFO(host.log() << "\n--- game\n" << game.child.log());
    CHECK(contains(host.log(), "capture complete"));
    // Served at once: never told "busy", never retried.
    CHECK_FALSE(contains(host.log(), "another host"));
    CHECK_FALSE(contains(game.child.log(), "is being served"));
    CHECK(mt::reader::load_file(dir + "/host.mt").result.stop == mt::reader::Stop::End);
    for (int fd : {idle1, idle2, partial}) check_got_no_capture(fd);
}

TEST_CASE("live: --wait retries a runtime that serves another host", "[live][hostile]") {
    std::string dir = temp_dir("busy");
    RemoveOnExit cleanup{dir};
    Game game(dir, 1000000, 60);
    Child first(capture_argv(game, dir + "/first.mt"), dir + "/first.log");
    REQUIRE(eventually([&] { return frames_in(dir + "/first.mt") >= 5; }));
    auto argv = capture_argv(game, dir + "/second.mt");
    argv.insert(argv.end(), {"--wait", "120", "--stop-after-frames", "20"});
    Child second(argv, dir + "/second.log");
    // Refused as busy, and it keeps asking (before the fix it exited 2 at once).
    REQUIRE(eventually([&] { return contains(second.log(), "serves another host; asking again"); }));
    first.kill9();
    REQUIRE(first.wait() == 128 + SIGKILL);
    REQUIRE(second.wait() == 0);
    INFO(second.log());
    CHECK(contains(second.log(), "capture complete"));
    CHECK(mt::reader::load_file(dir + "/second.mt").result.stop == mt::reader::Stop::End);
}

TEST_CASE("live: a short HTTP request to the game's listener is answered with status 3 at once", "[live][hostile]") {
    std::string dir = temp_dir("http");
    RemoveOnExit cleanup{dir};
    Game game(dir, 1000000, 60);
    int fd = connect_to(game.port);
    std::string http = "GET / HTTP/1.0\r\n\r\n";  // shorter than a HELLO: once the whole was awaited
    REQUIRE(send(fd, http.data(), http.size(), 0) == static_cast<ssize_t>(http.size()));
    std::string reply = recv_all(fd);
    close(fd);
    INFO(game.child.log());
    REQUIRE(reply.size() >= MT_LIVE_WELCOME_FIXED);
    CHECK(reply.compare(0, 4, "MTLW") == 0);
    CHECK(mt_live_get16(reinterpret_cast<const uint8_t *>(reply.data()) + 6) == MT_LIVE_BAD_HELLO);
    CHECK(contains(game.child.log(), "sent no HELLO (first bytes 47 45 54 20)"));
    CHECK_FALSE(contains(game.child.log(), "no HELLO within 5 s"));
}

namespace {

struct Span {
    size_t offset, end;
    uint16_t type;
};

std::vector<Span> chunks_of(const std::string &b) {
    std::vector<Span> out;
    auto le = [&](size_t at, int n) {
        uint32_t v = 0;
        for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
        return v;
    };
    for (size_t at = sizeof(mt_file_header); at + sizeof(mt_chunk_header) <= b.size();) {
        size_t end = at + sizeof(mt_chunk_header) + le(at + 8, 4);
        out.push_back({at, end, static_cast<uint16_t>(le(at + 4, 2))});
        at = end;
    }
    return out;
}

// The n-th chunk of `type`.
Span nth(const std::vector<Span> &chunks, uint16_t type, int n) {
    for (const Span &s : chunks)
        if (s.type == type && n-- == 0) return s;
    FAIL("no such chunk");
    return {};
}

// What the host must keep of `stream`: the bytes the reader accepts, up to the first chunk it
// refuses or to END (a header it refuses: nothing).
size_t good_prefix(const std::string &stream, std::string &reason) {
    struct Null : mt::reader::Visitor {} v;
    try {
        auto r = mt::reader::read_buffer(reinterpret_cast<const uint8_t *>(stream.data()), stream.size(), v);
        reason = r.stop_reason;
        return r.stop_offset;
    } catch (const mt::reader::FormatError &e) {
        reason = e.what();
        return 0;
    }
}

}  // namespace

TEST_CASE("live: chunks with a good CRC but content the reader refuses end the capture at the good prefix",
          "[live][hostile]") {
    std::string dir = temp_dir("badchunks");
    RemoveOnExit cleanup{dir};
    Child rec({MT_SAMPLE_GAME, "--frames", "20", "--quiet", "--out", dir + "/good.mt"}, dir + "/rec.log");
    REQUIRE(rec.wait() == 0);
    const std::string good = read_text(dir + "/good.mt");
    const std::vector<Span> chunks = chunks_of(good);
    const Span frame5 = nth(chunks, MT_CHUNK_FRAME, 5), frame6 = nth(chunks, MT_CHUNK_FRAME, 6);
    const Span end = nth(chunks, MT_CHUNK_END, 0);
    auto chunk = [&](const Span &s) { return good.substr(s.offset, s.end - s.offset); };

    struct Case {
        const char *name;
        std::string stream;
        const char *reason;  // in the reader's words, which the host repeats
    };
    std::vector<Case> cases;
    {
        std::string s = good;
        s.insert(frame5.end, chunk(frame5));
        cases.push_back({"a frame twice", s, "frame_seq is 5, expected 6"});
    }
    {
        std::string s = good;
        s.erase(frame5.offset, frame5.end - frame5.offset);
        cases.push_back({"a frame missing (out of order)", s, "frame_seq is 6, expected 5"});
    }
    {
        std::string s = good;
        s[frame6.offset + sizeof(mt_chunk_header)] = 9;  // FRAME's seq varint: 6 -> 9, CRC recomputed
        fix_crcs(s);
        cases.push_back({"a payload changed, CRC recomputed", s, "frame_seq is 9, expected 6"});
    }
    {
        std::string s = good;
        s[frame6.offset + 4] = 99;  // chunk type 99, CRC recomputed
        fix_crcs(s);
        cases.push_back({"an unknown chunk type", s, "unknown chunk type"});
    }
    {
        std::string s = good;
        s[8] = 99;  // format version 99, header CRC recomputed
        fix_crcs(s);
        cases.push_back({"format version 99", s, "format version 99"});
    }
    {
        std::string s = good + chunk(frame5);
        cases.push_back({"a chunk after END", s, "after the END chunk"});
    }
    for (const Case &c : cases) {
        DYNAMIC_SECTION(c.name) {
            std::string reason;
            size_t keep = good_prefix(c.stream, reason);
            REQUIRE(keep < c.stream.size());
            if (std::string(c.name) == "a chunk after END") REQUIRE(keep == end.end);
            FakeGame game(c.stream);
            std::string out = dir + "/host.mt";
            Child host({MT_CAPTURE, game.addr(), "-o", out, "--token", "t", "--status-interval", "0", "--no-commands"},
                       dir + "/host.log");
            int rc = host.wait();
            std::string log = host.log();
            INFO(log << "\nreader: " << reason);
            CHECK(rc == 2);
            CHECK_FALSE(contains(log, "capture complete"));
            CHECK(contains(log, c.reason));
            std::string stored = read_text(out);
            CHECK(stored.size() == keep);
            CHECK(c.stream.compare(0, stored.size(), stored) == 0);
            if (keep > 0) {
                auto r = mt::reader::load_file(out);
                CHECK(r.result.usable());
                CHECK((r.result.stop == mt::reader::Stop::Eof || r.result.stop == mt::reader::Stop::End));
            }
        }
    }
}
