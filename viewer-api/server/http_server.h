// http_server.h — Boost.Beast over Boost.Asio: an acceptor and N threads running one
// io_context; transport only. Where a body goes and who answers a path is the route table's
// (routes.h: body_of, dispatch). A worker thread answers a request synchronously with its own
// read-only SQLite connection (db_pool.h), so queries run in parallel without sharing one.
#ifndef MEMTRACER_VIEWER_HTTP_SERVER_H
#define MEMTRACER_VIEWER_HTTP_SERVER_H

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <memtracer/viewer/routes.h>

#include "options.h"

namespace mt::viewer {

class HttpServer {
public:
    // Binds now (throws std::system_error with the reason if it cannot; std::runtime_error for a
    // non-loopback address without opts.allow_remote).
    HttpServer(Services &services, const Options &opts);
    ~HttpServer();
    uint16_t port() const { return port_; }
    // What uploads must carry: --token, or generated for a non-loopback address; "" = none.
    const std::string &token() const;
    bool remote() const;  // listening on a non-loopback address
    // Runs the worker threads until stop(). `with_signals`: SIGINT/SIGTERM call stop().
    void run(bool with_signals);
    void start();  // run(false) on background threads; returns at once (tests)
    void stop();   // stops accepting, ends the threads; idempotent

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
    uint16_t port_ = 0;
    std::vector<std::thread> threads_;
};

// One line per request on stderr: time, peer, method, path, status, bytes, ms.
void log_request(const std::string &method, const std::string &target, int status, uint64_t bytes, double ms);

}  // namespace mt::viewer

#endif
