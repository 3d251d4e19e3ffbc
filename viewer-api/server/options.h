// options.h — memtracer-viewer's command line.
#ifndef MEMTRACER_VIEWER_OPTIONS_H
#define MEMTRACER_VIEWER_OPTIONS_H

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mt::viewer {

struct Limits {
    uint64_t max_upload = 512ull << 20;     // POST /api/runs body
    uint32_t max_header_bytes = 8 * 1024;   // request line + headers
    uint32_t max_headers = 64;              // header fields
    uint64_t max_body = 64 * 1024;          // any other request's body
    std::chrono::seconds header_timeout{15};   // also the keep-alive idle time
    std::chrono::seconds body_timeout{300};    // reading an upload
    std::chrono::seconds write_timeout{60};
    // Connections: at a limit the oldest idle one (waiting for a request) is closed to make room,
    // so idle connections cannot lock anyone out; a new one is refused only when none is idle.
    int max_connections = 256;
    int max_connections_per_client = 32;   // per peer address
    // Answers computed but not yet read by their clients. Over a limit, a client's next request
    // is answered 503 without being computed, so slow readers cannot grow the server's memory.
    uint64_t max_unread_per_client = 32ull << 20;
    uint64_t max_unread_total = 128ull << 20;
};

struct Options {
    std::string db;                  // run.db
    std::string host = "127.0.0.1";  // loopback unless asked otherwise
    uint16_t port = 8080;            // 0: an ephemeral port (printed on stdout)
    int threads = 4;
    std::string symbols;             // --symbols DIR, for uploads
    std::string data;                // --data DIR: uploads enabled when set
    std::string web;                 // page folder; default <bin>/../viewer-web
    std::string symbolizer;          // memtracer-symbolize; default <bin>/memtracer-symbolize
    std::string get;                 // --get PATH: answer one request on stdout and exit
    bool quiet = false;              // no per-request log lines
    bool allow_remote = false;       // required to listen on a non-loopback address
    std::string token;               // uploads must carry it; generated when remote and not given
    Limits limits;
    // --live ADDR: receive a live capture from the game at ADDR (live_mode.h); --token is then
    // the game's MEMTRACER_TOKEN, and --dsym/--elf/--symbols/--il2cpp-symbols go to the symbolizer.
    std::string live;
    std::string live_token;  // --token with --live (then no upload token)
    bool live_listen = false;  // --live-listen: listen on the --live address, the game connects out
    std::string live_out;    // --live-out: the run.mt written ("" = <db stem>-live.mt beside the db)
    std::vector<std::string> live_symbol_args;
};

// Fills `o` from argv; returns the exit status when parsing ends the program: --help, --version
// (0) or a usage error (2, said on stderr).
std::optional<int> parse_options(int argc, char **argv, Options &o);
const char *usage();
// "512M", "2G", "1000" -> bytes; throws std::invalid_argument.
uint64_t parse_size(const std::string &s, const std::string &opt = "--max-upload");

}  // namespace mt::viewer

#endif
