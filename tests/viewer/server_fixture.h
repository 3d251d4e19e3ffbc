// server_fixture.h — the in-process server of the HTTP tests: a real HttpServer on 127.0.0.1 with
// an ephemeral port, a small page folder, and a minimal valid run.mt to upload.
#pragma once

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "../remove_at_exit.h"
#include "app.h"
#include "memtracer/codec.h"
#include "http_server.h"
#include "memtracer/format.h"
#include "viewer_test_util.h"

namespace mt::test {

namespace fs = std::filesystem;
using mt::viewer::App;
using mt::viewer::HttpServer;
using mt::viewer::Options;

inline fs::path temp_dir(const std::string &name) {
    auto d = fs::temp_directory_path() / ("mt-viewer-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    remove_at_exit(d);
    return d;
}

// A small page folder, plus a secret next to it that traversal must never reach.
inline fs::path make_web(const fs::path &base) {
    fs::create_directories(base / "web" / "assets");
    std::ofstream(base / "web" / "index.html") << "<!doctype html><title>MemTracer</title>";
    std::ofstream(base / "web" / "assets" / "app.js") << "console.log('hi')";
    std::ofstream(base / "web" / ".env") << "SECRET=web-dotfile";
    std::ofstream(base / "secret.txt") << "SECRET=outside";
    fs::create_symlink(base / "secret.txt", base / "web" / "link.txt");
    return base / "web";
}

struct Server {
    std::unique_ptr<App> app;
    std::unique_ptr<HttpServer> http;
    uint16_t port = 0;
    explicit Server(Options o) {
        o.port = 0;
        o.quiet = true;
        o.threads = 3;
        app = std::make_unique<App>(o);
        http = std::make_unique<HttpServer>(*app, app->options());
        port = http->port();
        http->start();
    }
    ~Server() {
        http->stop();
        http.reset();
        app->jobs().stop();
    }
};

inline Options base_options(const fs::path &dir) {
    Options o;
    o.db = fixture_db();
    o.web = make_web(dir).string();
    o.limits.header_timeout = std::chrono::seconds(1);
    return o;
}

// A complete run.mt with no frames: the header, an INFO chunk and END.
inline std::string tiny_run_mt() {
    std::string f(64, '\0');
    auto *h = reinterpret_cast<uint8_t *>(f.data());
    std::memcpy(h, MT_FORMAT_MAGIC, 8);
    mt::codec::put_le32(h + 8, MT_FORMAT_VERSION);
    mt::codec::put_le32(h + 12, 64);
    mt::codec::put_le32(h + 40, 1);  // arch x86_64 at its offset
    mt::codec::put_le16(h + 36, 8);
    mt::codec::put_le32(h + 60, mt::codec::crc32c_update(0, h, 60));
    auto chunk = [&](uint16_t type, const std::string &payload) {
        uint8_t ch[16];
        mt::codec::put_le32(ch, MT_CHUNK_MAGIC);
        mt::codec::put_le16(ch + 4, type);
        mt::codec::put_le16(ch + 6, 0);
        mt::codec::put_le32(ch + 8, static_cast<uint32_t>(payload.size()));
        mt::codec::put_le32(ch + 12, mt::codec::chunk_crc(type, 0, static_cast<uint32_t>(payload.size()), payload.data()));
        f.append(reinterpret_cast<char *>(ch), 16);
        f += payload;
    };
    chunk(MT_CHUNK_INFO, std::string("\x01\x07process\x04test", 14));
    chunk(MT_CHUNK_END, std::string("\x00\x00", 2));
    return f;
}
}  // namespace mt::test
