#include "options.h"

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace mt::viewer {

const char *usage() {
    return "usage: memtracer-viewer run.db [--host 127.0.0.1] [--port 8080] [--threads N]\n"
           "                        [--symbols DIR] [--data DIR] [--max-upload SIZE] [--web DIR]\n"
           "                        [--symbolizer PATH] [--quiet] [--get /api/PATH]\n";
}

namespace {
uint64_t number(std::string_view s, const std::string &opt) {
    uint64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw std::invalid_argument(opt + " wants a number, got '" + std::string(s) + "'");
    return v;
}
}  // namespace

uint64_t parse_size(const std::string &s) {
    std::string_view v = s;
    uint64_t mult = 1;
    if (!v.empty()) {
        char u = v.back();
        if (u == 'K' || u == 'k') mult = 1ull << 10;
        if (u == 'M' || u == 'm') mult = 1ull << 20;
        if (u == 'G' || u == 'g') mult = 1ull << 30;
        if (mult != 1) v.remove_suffix(1);
    }
    uint64_t n = number(v, "--max-upload");
    if (n == 0 || n > (1ull << 40) / mult) throw std::invalid_argument("--max-upload out of range: " + s);
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
        else if (a == "--max-upload") o.limits.max_upload = parse_size(value());
        else if (a == "--get") o.get = value();
        else if (a == "--quiet") o.quiet = true;
        else if (a == "-h" || a == "--help") throw std::invalid_argument("");
        else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a);
        else if (o.db.empty()) o.db = a;
        else throw std::invalid_argument("one database only; extra argument '" + a + "'");
    }
    if (o.db.empty()) throw std::invalid_argument("missing run.db");
    return o;
}

}  // namespace mt::viewer
