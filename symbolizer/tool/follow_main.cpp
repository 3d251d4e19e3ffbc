// follow_main.cpp — memtracer-symbolize --follow: SIGTERM/SIGINT become a stop request (the run
// is finished and marked cut off, status 0), each committed batch one flushed line on stdout.
#include <csignal>
#include <cstdio>

#include "errors.h"
#include "follow_main.h"
#include "store_use.h"

namespace mt::sym {

namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_stop_signal(int) { g_stop.store(true, std::memory_order_relaxed); }

}  // namespace

int run_follow(const CliOptions &o, Symbolizer &sym, Progress &progress) {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;  // a signal during a database write or a read must not fail it
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    auto error = [&](const std::string &m) { progress.message("memtracer-symbolize: error: " + m); };

    OpenedDb odb = open_database(o.output);
    FollowOptions opt;
    opt.poll_ms = o.follow_poll_ms;
    opt.stop = &g_stop;
    bool committed = false;
    opt.on_batch = [&](const FollowBatch &b) {
        committed = true;
        std::string line = progress_line(b) + "\n";
        fputs(line.c_str(), stdout);
        fflush(stdout);
    };
    int status = 0;
    try {
        InputResult r = sym.follow(odb.db, o.inputs[0], opt);
        if (!o.quiet && r.run_id)
            progress.message(o.inputs[0] + " -> " + o.output + " (run " + std::to_string(r.run_id) + "): " +
                             std::to_string(r.totals.frames) + " frames, " + std::to_string(r.stacks) + " stacks");
    } catch (const Error &e) {
        error(e.what());
        status = static_cast<int>(e.code);
    } catch (const mt::store::Error &e) {
        error(e.what());
        status = static_cast<int>(database_error(e).code);
    }
    if (odb.created && !committed) {
        odb.db.close();
        remove_database(o.output);  // a database we created for nothing is not left behind
    } else {
        finish_database(odb.db);
    }
    return status;
}

}  // namespace mt::sym
