// fake_game.cpp — see fake_game.h.
#include "fake_game.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "memtracer/codec.h"
#include "memtracer/format.h"
#include "memtracer/stream_proto.h"

namespace mt::livetest {

FakeGame::FakeGame(std::string stream, uint16_t status) : stream_(std::move(stream)), status_(status) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(0x7f000001);
    socklen_t len = sizeof sa;
    if (listen_fd_ < 0 || bind(listen_fd_, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 ||
        listen(listen_fd_, 4) != 0 || getsockname(listen_fd_, reinterpret_cast<sockaddr *>(&sa), &len) != 0)
        throw std::runtime_error("fake game: cannot listen");
    port_ = ntohs(sa.sin_port);
    thread_ = std::thread([this] { serve(); });
}

FakeGame::~FakeGame() {
    shutdown(listen_fd_, SHUT_RDWR);  // an accept still waiting returns
    thread_.join();
    close(listen_fd_);
}

void FakeGame::serve() {
    int fd = accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) return;
    uint8_t hello[MT_LIVE_HELLO_FIXED + MT_LIVE_MAX_TOKEN];
    size_t got = 0, want = MT_LIVE_HELLO_FIXED;
    while (got < want) {
        ssize_t n = recv(fd, hello + got, want - got, 0);
        if (n <= 0) return (void)close(fd);
        got += static_cast<size_t>(n);
        if (got == MT_LIVE_HELLO_FIXED) want += std::min<size_t>(mt_live_get16(hello + 6), MT_LIVE_MAX_TOKEN);
    }
    std::string out(MT_LIVE_WELCOME_FIXED, '\0');
    auto *w = reinterpret_cast<uint8_t *>(out.data());
    std::memcpy(w, MT_LIVE_WELCOME_MAGIC, 4);
    mt_live_put16(w + 4, MT_LIVE_VERSION);
    mt_live_put16(w + 6, status_);
    out += stream_;
    for (size_t at = 0; at < out.size();) {
        ssize_t n = send(fd, out.data() + at, out.size() - at, MSG_NOSIGNAL);
        if (n <= 0) break;  // the host hung up (it refused a chunk): nothing more to say
        at += static_cast<size_t>(n);
    }
    shutdown(fd, SHUT_WR);
    char sink[4096];
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, 60000) > 0 && recv(fd, sink, sizeof sink, 0) > 0) {
    }
    close(fd);
}

void fix_crcs(std::string &bytes) {
    auto *b = reinterpret_cast<uint8_t *>(bytes.data());
    if (bytes.size() < sizeof(mt_file_header)) return;
    codec::put_le32(b + 60, codec::crc32c_update(0, b, 60));
    size_t at = sizeof(mt_file_header);
    while (at + sizeof(mt_chunk_header) <= bytes.size()) {
        uint32_t size = codec::get_le32(b + at + 8);
        if (size > MT_MAX_CHUNK_PAYLOAD || at + sizeof(mt_chunk_header) + size > bytes.size()) return;
        codec::put_le32(b + at + 12, codec::chunk_crc(codec::get_le16(b + at + 4), codec::get_le16(b + at + 6), size,
                                                      b + at + sizeof(mt_chunk_header)));
        at += sizeof(mt_chunk_header) + size;
    }
}

}  // namespace mt::livetest
