// follow_main.cpp — memtracer-symbolize --follow: SIGTERM/SIGINT become a stop request (the run
// is finished and marked cut off, status 0), each committed batch one flushed line on stdout.
// So does the parent's death: the live viewer starts this as its child, and a viewer killed
// without a chance to send SIGTERM (SIGKILL, a crash) must not leave it following forever.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <thread>

#include "memtracer/symbolizer/errors.h"
#include "follow_main.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"

namespace mt::sym {

namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_stop_signal(int) { g_stop.store(true, std::memory_order_relaxed); }

// Polls getppid(): when the parent dies the process is re-parented (to init or a subreaper), so
// the id changes. Portable to macOS, where there is no PR_SET_PDEATHSIG.
class ParentWatch {
public:
    ParentWatch() : parent_(getppid()), thread_([this] { watch(); }) {}
    ~ParentWatch() {
        {
            std::lock_guard<std::mutex> lock(mu_);
            done_ = true;
        }
        cv_.notify_one();
        thread_.join();
    }
    ParentWatch(const ParentWatch &) = delete;
    ParentWatch &operator=(const ParentWatch &) = delete;

private:
    void watch() {
        std::unique_lock<std::mutex> lock(mu_);
        while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return done_; })) {
            if (getppid() != parent_) {
                g_stop.store(true, std::memory_order_relaxed);
                return;
            }
        }
    }
    const pid_t parent_;
    std::mutex mu_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;  // last: started once the members it reads exist
};

}  // namespace

int run_follow(const CliOptions &o, Symbolizer &sym, Progress &progress) {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;  // a signal during a database write or a read must not fail it
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    // The live viewer starts this child with both signals blocked (so its stop request can never
    // kill it by default action before this handler exists, losing the capture): unblocking now
    // delivers one that is pending to the handler. A follower started from a shell has nothing
    // blocked; unblocking is then a no-op.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
    auto error = [&](const std::string &m) { progress.message("memtracer-symbolize: error: " + m); };
    ParentWatch parent_watch;

    mt::store::OpenedDb odb = mt::store::open_database(o.output);
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
        mt::store::remove_database(o.output);  // a database we created for nothing is not left behind
    } else {
        mt::store::finish_database(odb.db);
    }
    return status;
}

}  // namespace mt::sym
