#include "options.h"

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace mt::viewer {

const char *usage() {
    return "usage: memtracer-viewer run.db [--host 127.0.0.1] [--port 8080] [--threads N]\n"
           "                        [--symbols DIR] [--data DIR] [--max-upload SIZE] [--web DIR]\n"
           "                        [--symbolizer PATH] [--quiet] [--get /api/PATH]\n"
           "                        [--allow-remote] [--token TOKEN] [--max-connections N]\n"
           "                        [--max-connections-per-client N] [--max-unread SIZE]\n"
           "                        [--max-unread-total SIZE]\n";
}

namespace {
uint64_t number(std::string_view s, const std::string &opt) {
    uint64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw std::invalid_argument(opt + " wants a number, got '" + std::string(s) + "'");
    return v;
}
int count(std::string_view s, const std::string &opt) {
    auto v = number(s, opt);
    if (v < 1 || v > 100000) throw std::invalid_argument(opt + " must be 1..100000");
    return static_cast<int>(v);
}
}  // namespace

uint64_t parse_size(const std::string &s, const std::string &opt) {
    std::string_view v = s;
    uint64_t mult = 1;
    if (!v.empty()) {
        char u = v.back();
        if (u == 'K' || u == 'k') mult = 1ull << 10;
        if (u == 'M' || u == 'm') mult = 1ull << 20;
        if (u == 'G' || u == 'g') mult = 1ull << 30;
        if (mult != 1) v.remove_suffix(1);
    }
    uint64_t n = number(v, opt);
    if (n == 0 || n > (1ull << 40) / mult) throw std::invalid_argument(opt + " out of range: " + s);
    return n * mult;
}

Options parse_options(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
            return argv[++i];
        };
        if (a == "--host") o.host = value();
        else if (a == "--port") {
            auto v = number(value(), a);
            if (v > 65535) throw std::invalid_argument("--port must be 0..65535");
            o.port = static_cast<uint16_t>(v);
        } else if (a == "--threads") {
            auto v = number(value(), a);
            if (v < 1 || v > 256) throw std::invalid_argument("--threads must be 1..256");
            o.threads = static_cast<int>(v);
        } else if (a == "--symbols") o.symbols = value();
        else if (a == "--data") o.data = value();
        else if (a == "--web") o.web = value();
        else if (a == "--symbolizer") o.symbolizer = value();
        else if (a == "--max-upload") o.limits.max_upload = parse_size(value(), a);
        else if (a == "--max-unread") o.limits.max_unread_per_client = parse_size(value(), a);
        else if (a == "--max-unread-total") o.limits.max_unread_total = parse_size(value(), a);
        else if (a == "--max-connections") o.limits.max_connections = count(value(), a);
        else if (a == "--max-connections-per-client") o.limits.max_connections_per_client = count(value(), a);
        else if (a == "--allow-remote") o.allow_remote = true;
        else if (a == "--token") {
            o.token = value();
            // A header value: printable ASCII without spaces, long enough not to be guessed.
            if (o.token.size() < 16 || o.token.size() > 256 ||
                o.token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=") !=
                    std::string::npos)
                throw std::invalid_argument("--token wants 16..256 characters of A-Z a-z 0-9 - . _ ~ + / =");
        }
        else if (a == "--get") o.get = value();
        else if (a == "--quiet") o.quiet = true;
        else if (a == "-h" || a == "--help") throw std::invalid_argument("");
        else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a);
        else if (o.db.empty()) o.db = a;
        else throw std::invalid_argument("one database only; extra argument '" + a + "'");
    }
    if (o.db.empty()) throw std::invalid_argument("missing run.db");
    if (o.limits.max_connections_per_client > o.limits.max_connections)
        o.limits.max_connections_per_client = o.limits.max_connections;
    return o;
}

}  // namespace mt::viewer
