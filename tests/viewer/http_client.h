// http_client.h — a blocking Beast client for the HTTP tests, plus raw-socket sends for
// requests no well-behaved client would make.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mt::test {

namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

struct HttpResult {
    int status = 0;
    std::string body, content_type, disposition;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

// A socket connected to the server on 127.0.0.1 from `source` (any 127.x.y.z: the server sees
// another client address).
inline tcp::socket connect_from(boost::asio::io_context &ioc, uint16_t port, const std::string &source = "127.0.0.1") {
    tcp::socket s(ioc);
    s.open(tcp::v4());
    s.bind(tcp::endpoint(boost::asio::ip::make_address(source), 0));
    s.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
    return s;
}

inline HttpResult fetch_from(const std::string &source, uint16_t port, http::verb method, const std::string &target,
                             const std::string &body = "", Headers headers = {}) {
    boost::asio::io_context ioc;
    boost::beast::tcp_stream s(connect_from(ioc, port, source));
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    for (auto &[k, v] : headers) req.set(k, v);
    req.body() = body;
    req.prepare_payload();
    http::write(s, req);
    boost::beast::flat_buffer buf;
    std::optional<http::response_parser<http::string_body>> p;
    do {  // past interim answers (100 Continue), as curl does
        p.emplace();
        p->body_limit(1ull << 30);
        http::read(s, buf, *p);
    } while (p->get().result_int() / 100 == 1);
    auto &res = p->get();
    return {static_cast<int>(res.result_int()), res.body(), std::string(res[http::field::content_type]),
            std::string(res[http::field::content_disposition])};
}

inline HttpResult fetch(uint16_t port, http::verb method, const std::string &target, const std::string &body = "",
                        Headers headers = {}) {
    return fetch_from("127.0.0.1", port, method, target, body, std::move(headers));
}

inline HttpResult get(uint16_t port, const std::string &target) { return fetch(port, http::verb::get, target); }

// Blocks until the server closes `s` (true) or sends something (false).
inline bool closed_by_server(tcp::socket &s) {
    struct timeval tv{120, 0};  // a safety net against hanging, not a measurement
    setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char c;
    boost::system::error_code ec;
    s.read_some(boost::asio::buffer(&c, 1), ec);
    return ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset;
}

// Sends raw bytes and returns everything the server answers until it closes (or `max` bytes).
inline std::string raw_exchange(uint16_t port, const std::string &bytes, size_t max = 1 << 20) {
    boost::asio::io_context ioc;
    tcp::socket s(ioc);
    s.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
    boost::asio::write(s, boost::asio::buffer(bytes));
    std::string out;
    char buf[4096];
    boost::system::error_code ec;
    while (out.size() < max) {
        size_t n = s.read_some(boost::asio::buffer(buf), ec);
        if (ec) break;
        out.append(buf, n);
    }
    return out;
}

inline int raw_status(const std::string &answer) {
    if (answer.rfind("HTTP/1.1 ", 0) != 0) return 0;
    return std::stoi(answer.substr(9, 3));
}

}  // namespace mt::test
