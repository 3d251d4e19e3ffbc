#include "http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>

#include "connection_table.h"
#include "guard.h"

namespace mt::viewer {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct HttpServer::Impl {
    Services &services;  // what the route table reaches (app.cpp)
    Limits lim;
    bool quiet;
    int threads;
    ConnectionTable table;  // before ioc: the sessions it still holds release their slots on destruction
    GuardPolicy policy;
    asio::io_context ioc;
    tcp::acceptor acceptor{ioc};
    std::optional<asio::signal_set> signals;
    Impl(Services &s, const Options &o)
        : services(s), lim(o.limits), quiet(o.quiet), threads(o.threads),
          table(ConnectionLimits{o.limits.max_connections, o.limits.max_connections_per_client,
                                 o.limits.max_unread_per_client, o.limits.max_unread_total}),
          ioc(o.threads) {}
    void accept();
};

void log_request(const std::string &method, const std::string &target, int status, uint64_t bytes, double ms) {
    static std::mutex mu;
    std::string t = target.substr(0, 200);
    for (char &c : t)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';  // never let a client forge log lines
    char when[32];
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    std::lock_guard lk(mu);
    std::fprintf(stderr, "%s %s %s %d %llu %.2fms\n", when, method.c_str(), t.c_str(), status,
                 static_cast<unsigned long long>(bytes), ms);
}

namespace {
std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }

// ENOSPC (disk full), EFBIG (over the file size limit), EDQUOT (over quota): the server's
// storage, not the client's request, is what failed.
bool storage_full(const beast::error_code &ec) {
    return ec.category() == boost::system::system_category() &&
           (ec.value() == ENOSPC || ec.value() == EFBIG || ec.value() == EDQUOT);
}

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket s, HttpServer::Impl &srv, std::shared_ptr<ConnectionTable::Slot> slot)
        : stream_(std::move(s)), srv_(srv), slot_(std::move(slot)) {}
    void start() {
        // The table may close this connection from any thread to make room: on its strand.
        srv_.table.set_closer(*slot_, [w = weak_from_this(), ex = stream_.get_executor()] {
            asio::post(ex, [w] {
                if (auto self = w.lock()) self->close();
            });
        });
        read_header();
    }

private:
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    HttpServer::Impl &srv_;
    std::shared_ptr<ConnectionTable::Slot> slot_;
    std::optional<http::request_parser<http::empty_body>> head_;
    std::optional<http::request_parser<http::string_body>> body_;
    std::optional<http::request_parser<http::file_body>> upload_;
    std::shared_ptr<http::response<http::string_body>> res_;
    std::string method_, target_, upload_path_;
    bool keep_alive_ = false, head_only_ = false;
    Clock::time_point t0_;
    uint64_t drained_ = 0;
    std::array<char, 16384> sink_;

    void read_header() {
        if (!srv_.table.idle(*slot_)) return close();
        head_.emplace();
        head_->header_limit(srv_.lim.max_header_bytes);
        // Judged per route once the header says where the body goes. (Not boost::none: Beast
        // 1.74 compares a length with an empty optional as "over the limit".)
        head_->body_limit(std::numeric_limits<uint64_t>::max());
        stream_.expires_after(srv_.lim.header_timeout);
        http::async_read_header(stream_, buffer_, *head_,
                                beast::bind_front_handler(&Session::on_header, shared_from_this()));
    }

    void on_header(beast::error_code ec, size_t) {
        t0_ = Clock::now();
        if (!srv_.table.busy(*slot_)) return close();
        method_ = "-";
        target_ = "-";
        if (ec == http::error::header_limit)
            return reply(error_response(431, "request header over " + std::to_string(srv_.lim.max_header_bytes) +
                                                 " bytes"), false);
        if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::eof ||
            ec == asio::error::operation_aborted || ec == asio::error::connection_reset)
            return close();
        if (ec) return reply(error_response(400, "malformed request: " + ec.message()), false);
        auto &req = head_->get();
        method_ = std::string(req.method_string());
        target_ = std::string(req.target());
        keep_alive_ = req.keep_alive();
        head_only_ = req.method() == http::verb::head;
        if (std::distance(req.begin(), req.end()) > static_cast<long>(srv_.lim.max_headers))
            return reply(error_response(431, "more than " + std::to_string(srv_.lim.max_headers) + " header fields"),
                         false);
        RequestFacts facts{sv(req.method_string()), sv(req[http::field::host]), sv(req[http::field::origin]),
                           sv(req["Sec-Fetch-Site"]), sv(req[http::field::authorization]), sv(req["X-MemTracer-Token"]),
                           req.find(http::field::origin) != req.end()};
        if (auto refused = guard(facts, srv_.policy)) return reply(std::move(*refused), false);
        if (body_of(method_, target_) == Body::Upload) return start_upload();
        if (auto len = head_->content_length(); len && *len > srv_.lim.max_body)
            return reply(error_response(413, "request body over " + std::to_string(srv_.lim.max_body) + " bytes"),
                         false);
        body_.emplace(std::move(*head_));
        body_->body_limit(srv_.lim.max_body);
        http::async_read(stream_, buffer_, *body_, beast::bind_front_handler(&Session::on_body, shared_from_this()));
    }

    // A body Beast could not parse (a bad chunk size or extension in a chunked body) is the
    // client's error and gets a 400 saying so; a connection that went away is not answered.
    static bool malformed_body(const beast::error_code &ec) {
        return ec.category() == make_error_code(http::error::bad_chunk).category() && ec != http::error::end_of_stream &&
               ec != http::error::partial_message && ec != http::error::body_limit;
    }

    void on_body(beast::error_code ec, size_t) {
        if (ec == http::error::body_limit)
            return reply(error_response(413, "request body over " + std::to_string(srv_.lim.max_body) + " bytes"),
                         false);
        if (malformed_body(ec)) return reply(error_response(400, "malformed request body: " + ec.message()), false);
        if (ec) return close();
        body_.reset();
        // Slow readers must not grow the server: past its budget of unread answers a client's
        // next answer is not computed.
        if (auto why = srv_.table.over_budget(*slot_); !why.empty()) return reply(error_response(503, why), keep_alive_);
        reply(dispatch(srv_.services, method_, target_), keep_alive_);
    }

    void start_upload() {
        auto file = srv_.services.upload_file();
        if (!file) return reply(uploads_off(403), false);
        auto len = head_->content_length();
        if (len && *len > srv_.lim.max_upload) return reply(too_large(*len), false);
        upload_path_ = *file;
        upload_.emplace(std::move(*head_));
        upload_->body_limit(srv_.lim.max_upload);
        beast::error_code ec;
        upload_->get().body().open(upload_path_.c_str(), beast::file_mode::write, ec);
        if (ec) {
            upload_.reset();
            std::error_code ignored;
            std::filesystem::remove(upload_path_, ignored);
            return reply(storage_full(ec) ? full_disk(ec) : error_response(500, "cannot store the upload: " + ec.message()),
                         false);
        }
        stream_.expires_after(srv_.lim.body_timeout);
        if (beast::iequals(upload_->get()[http::field::expect], "100-continue")) {
            static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
            return asio::async_write(stream_, asio::buffer(kContinue, sizeof kContinue - 1),
                                     [self = shared_from_this()](beast::error_code e, size_t) {
                                         if (e) return self->close();
                                         self->read_upload();
                                     });
        }
        read_upload();
    }

    void read_upload() {
        http::async_read(stream_, buffer_, *upload_, beast::bind_front_handler(&Session::on_upload, shared_from_this()));
    }

    Response too_large(uint64_t n) {
        return error_response(413, "upload of " + std::to_string(n) + " bytes is over the limit of " +
                                       std::to_string(srv_.lim.max_upload) + " bytes (--max-upload)", "body");
    }

    Response full_disk(const beast::error_code &ec) {
        return error_response(507, "cannot store the upload: " + ec.message() + " (the server's data folder is full)",
                              "body");
    }

    void on_upload(beast::error_code ec, size_t) {
        upload_->get().body().close();
        std::error_code ignored;
        uint64_t size = std::filesystem::file_size(upload_path_, ignored);
        upload_.reset();
        if (ec) {
            std::filesystem::remove(upload_path_, ignored);  // a partial file is of no use to anyone
            if (ec == http::error::body_limit) return reply(too_large(srv_.lim.max_upload + 1), false);
            if (storage_full(ec)) return reply(full_disk(ec), false);
            if (malformed_body(ec)) return reply(error_response(400, "malformed upload body: " + ec.message(), "body"), false);
            return close();
        }
        StoredUpload stored{upload_path_, size};
        reply(dispatch(srv_.services, method_, target_, &stored), keep_alive_);
    }

    void reply(Response r, bool keep_alive) {
        res_ = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(r.status), 11);
        res_->set(http::field::server, "memtracer-viewer");
        res_->set(http::field::content_type, r.content_type);
        res_->set("X-Content-Type-Options", "nosniff");
        res_->set("X-Frame-Options", "DENY");
        res_->set("Referrer-Policy", "no-referrer");
        bool api = target_.rfind("/api", 0) == 0;
        res_->set(http::field::cache_control, api ? "no-store" : "no-cache");
        if (r.content_type.rfind("text/html", 0) == 0)
            res_->set("Content-Security-Policy",
                      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                      "connect-src 'self'; frame-ancestors 'none'");
        if (!r.filename.empty()) res_->set(http::field::content_disposition, "attachment; filename=\"" + r.filename + "\"");
        if (r.status == 202) res_->set(http::field::location, "/api/jobs");
        if (r.status == 401) res_->set(http::field::www_authenticate, "Bearer");
        if (r.status == 503) res_->set(http::field::retry_after, "1");
        res_->keep_alive(keep_alive);
        uint64_t bytes = r.body.size();
        if (head_only_) {
            res_->content_length(bytes);
        } else {
            res_->body() = std::move(r.body);
            res_->prepare_payload();
        }
        if (!srv_.quiet)
            log_request(method_, target_, r.status, bytes,
                        std::chrono::duration<double, std::milli>(Clock::now() - t0_).count());
        srv_.table.hold(*slot_, res_->body().capacity());  // what the answer really holds until written
        stream_.expires_after(srv_.lim.write_timeout);
        http::async_write(stream_, *res_, beast::bind_front_handler(&Session::on_write, shared_from_this(), keep_alive));
    }

    void on_write(bool keep_alive, beast::error_code ec, size_t) {
        res_.reset();
        srv_.table.unhold(*slot_);
        if (ec) return close();
        if (!keep_alive) return linger();
        read_header();
    }

    // After refusing a request whose body was not read, read and drop what the client is still
    // sending for a moment, so closing does not reset the connection before it saw the answer.
    void linger() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        stream_.expires_after(std::chrono::seconds(2));
        stream_.async_read_some(asio::buffer(sink_), [self = shared_from_this()](beast::error_code e, size_t n) {
            self->drained_ += n;
            if (e || self->drained_ > (64u << 20)) return self->close();
            self->linger_more();
        });
    }
    void linger_more() {
        stream_.async_read_some(asio::buffer(sink_), [self = shared_from_this()](beast::error_code e, size_t n) {
            self->drained_ += n;
            if (e || self->drained_ > (64u << 20)) return self->close();
            self->linger_more();
        });
    }

    void close() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
        stream_.socket().close(ec);
    }
};
}  // namespace

void HttpServer::Impl::accept() {
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket s) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
        if (!ec) {
            beast::error_code peer_ec;
            auto peer = s.remote_endpoint(peer_ec);
            auto slot = peer_ec ? nullptr : table.admit(peer.address().to_string());
            if (!slot) {
                beast::error_code ignored;
                s.close(ignored);  // every connection at the limit is busy: refuse rather than queue without bound
            } else {
                std::make_shared<Session>(std::move(s), *this, std::move(slot))->start();
            }
        }
        accept();
    });
}

HttpServer::HttpServer(Services &services, const Options &opts) : impl_(std::make_unique<Impl>(services, opts)) {
    auto addr = asio::ip::make_address(opts.host);
    impl_->policy.loopback = addr.is_loopback();
    if (!addr.is_loopback() && !opts.allow_remote)
        throw std::runtime_error("--host " + opts.host +
                                 " is reachable from other machines: add --allow-remote (uploads then need the token)");
    impl_->policy.token = opts.token;
    if (!addr.is_loopback() && impl_->policy.token.empty()) impl_->policy.token = random_token();
    char name[256] = {0};
    if (gethostname(name, sizeof name - 1) == 0) impl_->policy.machine_name = name;
    tcp::endpoint ep(addr, opts.port);
    auto &a = impl_->acceptor;
    a.open(ep.protocol());
    a.set_option(asio::socket_base::reuse_address(true));
    a.bind(ep);
    a.listen(asio::socket_base::max_listen_connections);
    port_ = a.local_endpoint().port();
}

const std::string &HttpServer::token() const { return impl_->policy.token; }
bool HttpServer::remote() const { return !impl_->policy.loopback; }

HttpServer::~HttpServer() {
    stop();
    for (auto &t : threads_)
        if (t.joinable()) t.join();
}

void HttpServer::run(bool with_signals) {
    if (with_signals) {
        impl_->signals.emplace(impl_->ioc, SIGINT, SIGTERM);
        impl_->signals->async_wait([this](beast::error_code ec, int sig) {
            if (ec) return;
            std::fprintf(stderr, "memtracer-viewer: signal %d, shutting down\n", sig);
            stop();
        });
    }
    impl_->accept();
    int n = std::max(1, impl_->threads);
    std::vector<std::thread> more;
    for (int i = 1; i < n; ++i) more.emplace_back([this] { impl_->ioc.run(); });
    impl_->ioc.run();
    for (auto &t : more) t.join();
}

void HttpServer::start() {
    threads_.emplace_back([this] { run(false); });
}

void HttpServer::stop() {
    asio::post(impl_->ioc, [this] {
        beast::error_code ec;
        impl_->acceptor.close(ec);
        if (impl_->signals) impl_->signals->cancel(ec);
        impl_->ioc.stop();
    });
}

}  // namespace mt::viewer
