// main.cpp — memtracer-capture ADDR -o run.mt [--token T] ...: the capture (memtracer/live/capture.h)
// with the terminal front end (terminal.h); docs/live.md.
#include <memtracer/cli.h>

#include "terminal.h"

int main(int argc, char **argv) {
    mt::live::CaptureOptions o;
    mt::live::TerminalOptions t;
    // Usage errors exit 2, as the tool's other refusals do (docs/live.md).
    mt::cli::Parser cli({"memtracer-capture", "ADDR -o run.mt [--token T] [--listen] [--resume] [options]", 2});
    CLI::App &app = cli.app();
    app.description("memtracer-capture: receive a live MemTracer capture into run.mt");
    app.add_option("address", o.address, "host:port of the game (MEMTRACER_LISTEN), or where to listen with --listen");
    app.add_option("-o,--out", o.out, "run.mt to write (whole chunks only; kill-tolerant)");
    app.add_option("--token", o.token, "the game's MEMTRACER_TOKEN");
    app.add_flag("--listen", o.listen, "listen at ADDR for a game that connects out (MEMTRACER_CONNECT)");
    app.add_flag("--resume", o.resume, "keep the whole chunks already in --out and receive only the rest");
    // Counts and times are refused when negative or not numbers, before anything connects.
    app.add_option("--stop-after-frames", o.stop_after_frames, "send stop once this many frames are stored")
        ->check(mt::cli::range(0, UINT64_MAX));
    app.add_option("--wait", o.wait_seconds, "keep trying to connect this many seconds")->check(mt::cli::seconds());
    app.add_option("--reconnect", o.reconnect_seconds,
                   "after a lost connection, wait this many seconds for the game and resume (0: exit, cut off)")
        ->check(mt::cli::seconds());
    app.add_option("--status-interval", t.status_seconds, "seconds between status lines (0: none)")
        ->check(mt::cli::seconds());
    app.add_flag("--latency", t.latency, "print mt_frame_end -> stored latency (p50/p95) and events/s at the end");
    bool no_commands = false;
    app.add_flag("--no-commands", no_commands, "do not read pause/resume/stop/mark NAME from stdin");
    if (auto code = cli.parse(argc, argv)) return *code;
    if (o.address.empty()) return cli.usage_error("ADDR: the game's host:port is required");
    t.commands = !no_commands;
    return mt::live::run_terminal_capture(o, t);
}
