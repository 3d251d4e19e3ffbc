#include "clickhouse.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <chrono>

namespace mt::fleet {

namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

ClickHouseUrl ClickHouseUrl::parse(std::string_view url) {
    ClickHouseUrl u;
    u.text = std::string(url);
    auto bad = [&](const std::string &why) {
        return std::invalid_argument(u.text + ": " + why + " (expected clickhouse://host:port/database)");
    };
    if (!is_url(url)) throw bad("not a clickhouse:// URL");
    std::string_view rest = url.substr(13);
    auto slash = rest.find('/');
    if (slash == std::string_view::npos || slash + 1 >= rest.size()) throw bad("no database");
    std::string_view hostport = rest.substr(0, slash);
    u.database = std::string(rest.substr(slash + 1));
    for (char c : u.database)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) throw bad("database names are letters, digits and _");
    auto colon = hostport.rfind(':');
    u.host = std::string(hostport.substr(0, colon));
    if (colon != std::string_view::npos) {
        std::string_view p = hostport.substr(colon + 1);
        unsigned v = 0;
        auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
        if (ec != std::errc() || end != p.data() + p.size() || v == 0 || v > 65535) throw bad("bad port");
        u.port = static_cast<uint16_t>(v);
    }
    if (u.host.empty()) throw bad("no host");
    return u;
}

namespace {
std::string url_encode(std::string_view s) {
    static const char *hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}
}  // namespace

std::string ClickHouse::execute(const std::string &sql, const std::string &data, bool in_database) {
    // A SELECT or DDL travels as the request body: a cross-run query names its runs and can be
    // longer than a URL may be (the server's max_query_size is raised to match); an INSERT keeps
    // its statement in the URL and its rows in the body.
    const bool sql_in_body = data.empty();
    std::string target = sql_in_body ? "/?max_query_size=16777216" : "/?query=" + url_encode(sql);
    if (in_database) target += "&database=" + url_encode(url_.database);
    // A Distributed insert returns once every shard has its rows, or fails: never a queue that a
    // later run row could overtake (and so never a visible run with rows still on the way).
    target += "&insert_distributed_sync=1";
    try {
        boost::asio::io_context ioc;
        tcp::resolver resolver(ioc);
        boost::beast::tcp_stream s(ioc);
        // A server that stops answering must not hang an export or a page: generous, bounded.
        s.expires_after(std::chrono::seconds(120));
        s.connect(resolver.resolve(url_.host, std::to_string(url_.port)));
        http::request<http::string_body> req{http::verb::post, target, 11};
        req.set(http::field::host, url_.host + ":" + std::to_string(url_.port));
        req.body() = sql_in_body ? sql : data;
        req.prepare_payload();
        http::write(s, req);
        boost::beast::flat_buffer buf;
        http::response_parser<http::string_body> p;
        p.body_limit(1ull << 32);
        http::read(s, buf, p);
        auto &res = p.get();
        if (res.result_int() != 200) {
            std::string msg = res.body();
            while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
            throw ClickHouseError("ClickHouse at " + url_.text + " refused: " + msg.substr(0, 600));
        }
        return std::move(res.body());
    } catch (const boost::system::system_error &e) {
        throw ClickHouseError("cannot reach ClickHouse at " + url_.text + ": " + e.code().message());
    }
}

std::vector<std::vector<std::string>> ClickHouse::rows(const std::string &sql) {
    std::string body = execute(sql + " FORMAT TabSeparated");
    std::vector<std::vector<std::string>> out;
    std::string_view rest = body;
    while (!rest.empty()) {
        auto nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        std::vector<std::string> row;
        for (size_t start = 0;;) {
            auto tab = line.find('\t', start);
            row.push_back(unescape_tsv(line.substr(start, tab - start)));
            if (tab == std::string_view::npos) break;
            start = tab + 1;
        }
        out.push_back(std::move(row));
        if (nl == std::string_view::npos) break;
        rest.remove_prefix(nl + 1);
    }
    return out;
}

void append_tsv(std::string &out, std::string_view field) {
    for (char c : field) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\0': out += "\\0"; break;
        default: out += c;
        }
    }
}

std::string unescape_tsv(std::string_view f) {
    std::string out;
    for (size_t i = 0; i < f.size(); ++i) {
        if (f[i] != '\\' || i + 1 == f.size()) {
            out += f[i];
            continue;
        }
        char n = f[++i];
        out += n == 't' ? '\t' : n == 'n' ? '\n' : n == '0' ? '\0' : n == 'r' ? '\r' : n;
    }
    return out;
}

std::string sql_quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    return out + "'";
}

}  // namespace mt::fleet
