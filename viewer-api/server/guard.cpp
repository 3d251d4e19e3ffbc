#include "guard.h"

#include <boost/asio/ip/address.hpp>

#include <cctype>
#include <cstdio>
#include <random>

namespace mt::viewer {

namespace {
bool iequal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

// "name:port" -> "name"; "[v6]:port" -> "v6".
std::string_view host_name(std::string_view host) {
    if (!host.empty() && host.front() == '[') {
        auto end = host.find(']');
        return end == std::string_view::npos ? std::string_view() : host.substr(1, end - 1);
    }
    return host.substr(0, host.find(':'));
}

// Compares without an early exit, so the time taken does not tell how much of a guess was right.
bool same_secret(std::string_view a, std::string_view b) {
    unsigned diff = a.size() != b.size();
    for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned>(a[i] ^ (i < b.size() ? b[i] : 0));
    return diff == 0;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}
}  // namespace

bool loopback_host(std::string_view host) {
    if (host.empty()) return false;
    if (host.front() == '[') return host.rfind("[::1]", 0) == 0;
    auto name = host_name(host);
    if (iequal(name, "localhost")) return true;
    boost::system::error_code ec;
    auto a = boost::asio::ip::make_address_v4(std::string(name), ec);
    return !ec && a.is_loopback();
}

bool ip_literal_host(std::string_view host) {
    auto name = host_name(host);
    if (name.empty()) return false;
    boost::system::error_code ec;
    boost::asio::ip::make_address(std::string(name), ec);
    return !ec;
}

bool changes_state(std::string_view method) { return method != "GET" && method != "HEAD"; }

std::string cross_site_refusal(const RequestFacts &r) {
    // Browsers send Origin with every POST, and Sec-Fetch-Site with every request; a client that
    // sends neither (curl, scripts) is not a web page acting for someone else.
    if (r.has_origin) {
        std::string_view o = r.origin;
        std::string_view rest = o.rfind("http://", 0) == 0 ? o.substr(7) : o.rfind("https://", 0) == 0 ? o.substr(8) : "";
        if (rest.empty() || !iequal(rest, r.host))
            return "cross-site request refused: Origin '" + std::string(o.substr(0, 200)) +
                   "' is not this server (" + std::string(r.host.substr(0, 200)) + ")";
    }
    if (!r.fetch_site.empty() && r.fetch_site != "same-origin" && r.fetch_site != "none")
        return "cross-site request refused: Sec-Fetch-Site is '" + std::string(r.fetch_site.substr(0, 40)) +
               "'; only same-origin pages may change state";
    return "";
}

bool carries_token(const RequestFacts &r, const std::string &token) {
    if (!r.token_header.empty() && same_secret(trim(r.token_header), token)) return true;
    auto a = trim(r.authorization);
    if (a.size() > 7 && iequal(a.substr(0, 7), "Bearer ")) return same_secret(trim(a.substr(7)), token);
    return false;
}

std::optional<Response> guard(const RequestFacts &r, const GuardPolicy &p) {
    bool token_ok = !p.token.empty() && carries_token(r, p.token);
    if (p.loopback && !loopback_host(r.host))
        return error_response(403, "Host header must name a loopback address on a loopback server");
    // A remote server's own names: an IP literal, localhost or the machine's name. Another name
    // may be a DNS rebinding page's; a request that carries the token cannot be one.
    if (!p.loopback && !token_ok && !ip_literal_host(r.host) && !loopback_host(r.host) &&
        !(!p.machine_name.empty() && iequal(host_name(r.host), p.machine_name)))
        return error_response(403, "Host '" + std::string(r.host.substr(0, 200)) +
                                       "' is not this server's address or name; send the token to use another name");
    if (!changes_state(r.method)) return std::nullopt;
    if (auto why = cross_site_refusal(r); !why.empty()) return error_response(403, why);
    if (!p.token.empty() && !token_ok)
        return error_response(401, r.authorization.empty() && r.token_header.empty()
                                       ? "this server needs its token for uploads: send 'Authorization: Bearer TOKEN' "
                                         "or 'X-MemTracer-Token: TOKEN' (printed by memtracer-viewer at start)"
                                       : "wrong token");
    return std::nullopt;
}

std::string random_token() {
    std::random_device rd;  // /dev/urandom on Linux
    std::string t;
    char buf[9];
    for (int i = 0; i < 4; ++i) {
        std::snprintf(buf, sizeof buf, "%08x", rd());
        t += buf;
    }
    return t;
}

}  // namespace mt::viewer
