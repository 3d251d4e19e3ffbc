#include "options.h"

#include <memtracer/cli.h>

#include <charconv>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace mt::viewer {

const char *usage() {
    return "usage: memtracer-viewer run.db [--host 127.0.0.1] [--port 8080] [--threads N]\n"
           "                        [--symbols DIR] [--data DIR] [--max-upload SIZE] [--web DIR]\n"
           "                        [--symbolizer PATH] [--quiet] [--get /api/PATH]\n"
           "                        [--allow-remote] [--token TOKEN] [--max-connections N]\n"
           "                        [--max-connections-per-client N] [--max-unread SIZE]\n"
           "                        [--max-unread-total SIZE]\n"
           "                        [--live ADDR [--live-listen] [--token T] [--live-out run.mt] [--dsym B]... [--elf F]...\n"
           "                         [--il2cpp-symbols D]]\n";
}

namespace {
uint64_t number(std::string_view s, const std::string &opt) {
    uint64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw std::invalid_argument(opt + " wants a number, got '" + std::string(s) + "'");
    return v;
}
// A header value: printable ASCII without spaces, long enough not to be guessed.
void check_token(const std::string &token) {
    if (token.size() < 16 || token.size() > 256 ||
        token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=") != std::string::npos)
        throw std::invalid_argument("wants 16..256 characters of A-Z a-z 0-9 - . _ ~ + / =");
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

std::optional<int> parse_options(int argc, char **argv, Options &o) {
    mt::cli::Parser cli({"memtracer-viewer", "run.db [options]", 2, usage(), "", true});
    CLI::App &app = cli.app();
    // Values through the old checks, so a bad one names its option as before.
    auto checked = [](auto convert) {
        return CLI::Validator([convert](std::string &v) {
            try {
                convert(v);
            } catch (const std::invalid_argument &e) {
                return std::string(e.what());
            }
            return std::string();
        }, "");
    };
    std::vector<std::string> dbs;
    std::string max_upload, max_unread, max_unread_total;
    app.add_option("run.db", dbs, "the database to serve");
    app.add_option("--host", o.host, "address to listen on");
    app.add_option("--port", o.port, "port; 0 = ephemeral")->check(mt::cli::range(0, 65535));
    app.add_option("--threads", o.threads, "HTTP threads")->check(mt::cli::range(1, 256));
    app.add_option("--symbols", o.symbols, "symbol directory for uploads");
    app.add_option("--data", o.data, "upload directory (enables uploads)");
    app.add_option("--web", o.web, "page folder");
    app.add_option("--symbolizer", o.symbolizer, "memtracer-symbolize to run for uploads");
    app.add_option("--max-upload", max_upload, "upload size limit")->check(checked([](auto &v) { parse_size(v, "size"); }));
    app.add_option("--max-unread", max_unread, "unread answers per client")->check(checked([](auto &v) { parse_size(v, "size"); }));
    app.add_option("--max-unread-total", max_unread_total, "unread answers in all")->check(checked([](auto &v) { parse_size(v, "size"); }));
    app.add_option("--max-connections", o.limits.max_connections, "connections")->check(mt::cli::range(1, 100000));
    app.add_option("--max-connections-per-client", o.limits.max_connections_per_client, "per peer address")->check(mt::cli::range(1, 100000));
    app.add_flag("--allow-remote", o.allow_remote, "allow a non-loopback --host");
    app.add_option("--token", o.token, "upload token (with --live: the game's MEMTRACER_TOKEN)");
    std::vector<std::string> dsyms, elfs, il2cpp;
    app.add_option("--live", o.live, "receive a live capture from the game at host:port (docs/live.md)");
    app.add_flag("--live-listen", o.live_listen, "with --live: listen on ADDR; the game connects out (MEMTRACER_CONNECT, Wi-Fi)");
    app.add_option("--live-out", o.live_out, "with --live: the run.mt to write (default: <db>-live.mt beside the db)");
    app.add_option("--dsym", dsyms, "with --live: a dSYM for the symbolizer");
    app.add_option("--elf", elfs, "with --live: an ELF with symbols for the symbolizer");
    app.add_option("--il2cpp-symbols", il2cpp, "with --live: Unity's IL2CPP files for the symbolizer");
    app.add_option("--get", o.get, "answer one GET on stdout and exit");
    app.add_flag("--quiet", o.quiet, "no per-request log lines");
    if (auto code = cli.parse(argc, argv)) return code;
    if (o.live.empty() && !o.token.empty()) {
        try {
            check_token(o.token);
        } catch (const std::invalid_argument &e) {
            return cli.usage_error(std::string("--token: ") + e.what());
        }
    }
    if (!o.live.empty()) o.live_token = std::exchange(o.token, std::string());
    if (o.live.empty() && !(dsyms.empty() && elfs.empty() && il2cpp.empty() && o.live_out.empty() && !o.live_listen))
        return cli.usage_error("--live-listen, --live-out, --dsym, --elf and --il2cpp-symbols go with --live");
    for (auto &[flag, values] : {std::pair{"--dsym", &dsyms}, {"--elf", &elfs}, {"--il2cpp-symbols", &il2cpp}})
        for (auto &v : *values) o.live_symbol_args.insert(o.live_symbol_args.end(), {flag, v});
    if (!o.live.empty() && !o.symbols.empty()) o.live_symbol_args.insert(o.live_symbol_args.end(), {"--symbols", o.symbols});
    if (!max_upload.empty()) o.limits.max_upload = parse_size(max_upload, "--max-upload");
    if (!max_unread.empty()) o.limits.max_unread_per_client = parse_size(max_unread, "--max-unread");
    if (!max_unread_total.empty()) o.limits.max_unread_total = parse_size(max_unread_total, "--max-unread-total");
    if (dbs.empty()) return cli.usage_error("missing run.db");
    if (dbs.size() > 1) return cli.usage_error("one database only; extra argument '" + dbs[1] + "'");
    o.db = dbs[0];
    if (o.limits.max_connections_per_client > o.limits.max_connections)
        o.limits.max_connections_per_client = o.limits.max_connections;
    return std::nullopt;
}

}  // namespace mt::viewer
