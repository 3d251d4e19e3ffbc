// lifecycle.cpp — mt_start / mt_stop / mt_pause / mt_resume / mt_get_counters /
// mt_set_thread_name, and the quiescence that makes freeing ring memory safe.
//
// Quiescence: producers set their slot's in_hook, then (compiler barrier only) re-check
// `enabled`. mt_stop clears `enabled`, then issues a process-wide memory barrier
// (membarrier(2) PRIVATE_EXPEDITED, else GLOBAL) and waits for every in_hook to read 0. After
// that no producer can touch a ring until the next capture re-initialises it. Where no such
// barrier exists (Apple, old kernels) or a thread stays in the hook for over 2 s (stopped in a
// debugger), the rings stay with their slots rather than risk a use after unmap, and the next
// capture reuses them (see release_rings).
#include <errno.h>
#include <initializer_list>  // the braced signal list below
#include <new>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#endif

#include "bridge.h"
#include "classes.h"
#include "clock.h"
#include "frames.h"
#include "errors.h"
#include "info.h"
#include "lifecycle.h"
#include "stream_sink.h"
#include "writer.h"

namespace mt::rt {

namespace {

pthread_mutex_t g_life = PTHREAD_MUTEX_INITIALIZER;
Writer *g_writer = nullptr;
StreamSink *g_sink = nullptr;  // live capture of the running capture, if asked for
uint64_t g_last_late = 0;   // late events of the last capture (see late_events())
pthread_t g_writer_thread;
mt_counters g_final{};      // counters of the last capture, once it stopped
uint64_t g_gen_counter = 0;
int g_barrier = -1;         // -1 unknown, 0 none, 1 private expedited, 2 global
bool g_atexit = false;
bool g_barrier_forced_off = false;  // tests: behave as a platform without membarrier

void barrier_init() {
    if (g_barrier >= 0 || g_barrier_forced_off) return;
    g_barrier = 0;
#if defined(__linux__) && defined(SYS_membarrier)
    long q = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
        g_barrier = 1;
    else if (q > 0 && (q & MEMBARRIER_CMD_GLOBAL))
        g_barrier = 2;
#endif
}

bool heavy_barrier() {
    if (g_barrier_forced_off) return false;
#if defined(__linux__) && defined(SYS_membarrier)
    if (g_barrier == 1) return syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
    if (g_barrier == 2) return syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0;
#endif
    return false;
}

bool quiesce() {
    bool fenced = heavy_barrier();
    uint64_t deadline = mono_ns() + 2000000000ull;
    for (uint32_t i = 0; i < MT_MAX_THREADS; ++i) {
        while (g.slots[i].in_hook.load(std::memory_order_acquire)) {
            if (mono_ns() > deadline) return false;
            timespec d{0, 50000};
            nanosleep(&d, nullptr);
        }
    }
    return fenced;
}

// Quiescent: every ring is unmapped. Not proven (no process-wide barrier, as on Apple, or a
// thread held in the hook): the rings of exited threads are unmapped, and each live thread's
// ring stays with its slot; the owner reuses it in the next capture, or unmaps it there if the
// size changed (slot_ring_ensure). So repeated captures never pile up ring memory: between
// captures at most one ring per live traced thread stays mapped.
void release_rings(bool quiescent) {
    if (!quiescent) return slots_release_unowned_rings();
    for (uint32_t i = 0; i < MT_MAX_THREADS; ++i) slot_ring_release(&g.slots[i]);
}

void *writer_main(void *arg) {
    static_cast<Writer *>(arg)->run();
    return nullptr;
}

void destroy_writer() {
    StreamSink::destroy(g_sink);
    g_sink = nullptr;
    if (!g_writer) return;
    g_writer->~Writer();
    free(g_writer);
    g_writer = nullptr;
}

// Undoes a start that got as far as creating the writer (file and memory).
void abandon_start(const char *path) {
    bool regular = g_writer && g_writer->created_regular_file();
    gc_hooks_remove();
    g.live.store(0, std::memory_order_relaxed);
    g.gen.store(0, std::memory_order_relaxed);
    destroy_writer();
    classes_end();
    if (regular) unlink(path);  // never a device such as /dev/full
}

// Pause or resume under g_life. libil2cpp's hook slot (bridge_set_recording) is set before
// recording starts and cleared after it stopped, so no allocation of a recording period is
// missed and a game thread that loaded the hook just before the clear still finds enabled == 0.
void set_recording(bool on) {
    g.paused.store(on ? 0 : 1, std::memory_order_relaxed);
    if (on) bridge_set_recording(true);
    g.enabled.store(on ? 1 : 0, std::memory_order_release);
    if (!on) bridge_set_recording(false);
}

mt_status stop_locked(uint32_t reason, const char *message) {
    // Collections since the last frame end that a replaced callback missed (gc_hooks.cpp).
    gc_hooks_poll();
    g.enabled.store(0, std::memory_order_relaxed);
    g.live.store(0, std::memory_order_release);
    bridge_set_recording(false);  // after disabling: a thread mid-call still sees enabled == 0
    bool quiet = quiesce();
    g_writer->stop(now_ticks(), reason, message);
    pthread_join(g_writer_thread, nullptr);
    gc_hooks_remove();
    classes_end();
    bool failed = g_writer->failed();
    counters_snapshot(g_writer, &g_final);
    g_last_late = g_writer->counters.late_events.load(std::memory_order_relaxed);
    g_final.running = 0;
    g_final.paused = 0;
    release_rings(quiet);
    destroy_writer();
    g.gen.store(0, std::memory_order_relaxed);
    g.paused.store(0, std::memory_order_relaxed);
    return failed ? MT_ERR_DISABLED : MT_OK;
}

void stop_at_exit() {
    pthread_mutex_lock(&g_life);
    if (g.live.load(std::memory_order_relaxed)) stop_locked(MT_END_THREAD_EXIT, "process exit without mt_stop");
    pthread_mutex_unlock(&g_life);
}

mt_status start_locked(const mt_config *c) {
    if (g.live.load(std::memory_order_relaxed)) {
        set_last_error("MT_ERR_ALREADY_STARTED: a capture is already running");
        return MT_ERR_ALREADY_STARTED;
    }
    clear_last_error();
    mt_status st = validate_config(c);
    if (st != MT_OK) return st;
    if (!slots_init()) {
        set_last_error("MT_ERR_NO_MEMORY: could not map the thread slot table (%s)", strerror(errno));
        return MT_ERR_NO_MEMORY;
    }
    barrier_init();
    double tick_hz = calibrate_tick_hz();
    classes_lookup_api();
    slots_capture_begin();

    g.max_depth = c->max_stack_depth;
    g.max_threads = c->max_threads;
    g.unwinder = c->unwinder;
    g.on_full = c->on_full;
    g.ring_cap = c->ring_capacity;
    g.sample_interval = c->sample_interval_bytes;
    g.seed = c->random_seed ? c->random_seed : mono_ns() ^ (static_cast<uint64_t>(getpid()) << 32);
    g.next_thread_id.store(0, std::memory_order_relaxed);
    g.noslot_dropped.store(0, std::memory_order_relaxed);
    g.noslot_seen.store(0, std::memory_order_relaxed);
    g.disabled.store(0, std::memory_order_relaxed);
    g.paused.store(0, std::memory_order_relaxed);
    uint64_t start_tick = now_ticks();
    frames_reset(start_tick);

    WriterConfig wc;
    wc.mode = c->mode;
    wc.sample_interval = c->sample_interval_bytes;
    wc.drain_interval_us = c->drain_interval_us;
    wc.flags = c->flags;
    wc.gen = ++g_gen_counter;
    void *mem = malloc(sizeof(Writer));
    if (!mem) {
        set_last_error("MT_ERR_NO_MEMORY: could not allocate the writer");
        return MT_ERR_NO_MEMORY;
    }
    g_writer = new (mem) Writer();
    trace::FileHeaderParams hp;
    fill_header(*c, wall_ns(), &hp);
    InfoList info;
    build_info(*c, tick_hz, &info);
    if (!g_writer->begin(c->output_path, wc, hp, info.kv, info.n)) {
        set_last_error("MT_ERR_OPEN_OUTPUT: %s", g_writer->error()[0] ? g_writer->error() : "out of memory");
        abandon_start(c->output_path);
        return MT_ERR_OPEN_OUTPUT;
    }
    g_sink = StreamSink::create(c, c->output_path, g_writer->counters.bytes_written.load(std::memory_order_relaxed),
                                wc.gen, &g_writer->counters);
    g_writer->set_sink(g_sink);
    g.gc_frame_stats = (c->flags & MT_FLAG_GC_EVENTS) && gc_present();
    if (c->flags & (MT_FLAG_GC_EVENTS | MT_FLAG_LIFETIMES)) gc_hooks_install(c->flags & MT_FLAG_GC_EVENTS);
    g.gen.store(wc.gen, std::memory_order_release);
    g.live.store(1, std::memory_order_release);

    // Process-directed signals must not run the game's handlers on the writer thread. Only the
    // classic asynchronous ones are blocked: synchronous faults must stay deliverable, and
    // emulators and runtimes keep real-time signals for themselves (blocking every signal
    // around pthread_create hangs qemu-user, for one).
    sigset_t block, old;
    sigemptyset(&block);
    for (int sig : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGCHLD, SIGPROF,
                    SIGVTALRM, SIGWINCH, SIGIO, SIGURG, SIGTSTP, SIGTTIN, SIGTTOU})
        sigaddset(&block, sig);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int rc = pthread_create(&g_writer_thread, nullptr, writer_main, g_writer);
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (rc != 0) {
        set_last_error("MT_ERR_THREAD: pthread_create failed: %s", strerror(rc));
        abandon_start(c->output_path);
        return MT_ERR_THREAD;
    }
#if defined(__GLIBC__)
    pthread_setname_np(g_writer_thread, "memtracer");
#endif
    if (!g_atexit) g_atexit = atexit(stop_at_exit) == 0;
    bridge_set_recording(true);  // before enabling: no allocation of the capture is missed
    g.enabled.store(1, std::memory_order_release);
    return MT_OK;
}

}  // namespace

void lifecycle_test_force_no_barrier(bool off) {
    pthread_mutex_lock(&g_life);
    g_barrier_forced_off = off;
    pthread_mutex_unlock(&g_life);
}

int live_try_set_paused(uint64_t gen, bool paused) {
    if (pthread_mutex_trylock(&g_life) != 0) return -1;
    int result = 1;
    if (g.live.load(std::memory_order_relaxed) && g.gen.load(std::memory_order_relaxed) == gen &&
        !g.disabled.load(std::memory_order_relaxed)) {
        set_recording(!paused);
        result = 0;
    }
    pthread_mutex_unlock(&g_life);
    return result;
}

namespace {

void *live_stop_main(void *arg) {
    uint64_t gen = reinterpret_cast<uintptr_t>(arg);
    pthread_mutex_lock(&g_life);
    // The game may have stopped (and started another capture) meanwhile: only this one ends.
    if (g.live.load(std::memory_order_relaxed) && g.gen.load(std::memory_order_relaxed) == gen)
        stop_locked(MT_END_STOPPED, "stopped by the live host");
    pthread_mutex_unlock(&g_life);
    return nullptr;
}

}  // namespace

bool live_request_stop(uint64_t gen) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return false;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    // Created by the writer thread, so it inherits its signal mask: no game handler runs on it.
    pthread_t t;
    int rc = pthread_create(&t, &attr, live_stop_main, reinterpret_cast<void *>(static_cast<uintptr_t>(gen)));
    pthread_attr_destroy(&attr);
    return rc == 0;
}

// Records that arrived after their frame was committed (moved to the oldest open frame), in the
// running or last capture. Internal: for tests; the END message says it too.
uint64_t late_events() { return g_writer ? g_writer->counters.late_events.load(std::memory_order_relaxed) : g_last_late; }

}  // namespace mt::rt

using namespace mt::rt;

extern "C" MT_API mt_status mt_start(const mt_config *config) {
    pthread_mutex_lock(&g_life);
    mt_status st = start_locked(config);
    pthread_mutex_unlock(&g_life);
    return st;
}

extern "C" MT_API mt_status mt_stop(void) {
    pthread_mutex_lock(&g_life);
    mt_status st = MT_ERR_NOT_STARTED;
    if (g.live.load(std::memory_order_relaxed)) st = stop_locked(MT_END_STOPPED, "mt_stop");
    pthread_mutex_unlock(&g_life);
    return st;
}

static mt_status set_paused(uint32_t paused) {
    pthread_mutex_lock(&g_life);
    mt_status st = MT_OK;
    if (!g.live.load(std::memory_order_relaxed)) {
        st = MT_ERR_NOT_STARTED;
    } else if (g.disabled.load(std::memory_order_relaxed)) {
        st = MT_ERR_DISABLED;
    } else {
        set_recording(paused == 0);
    }
    pthread_mutex_unlock(&g_life);
    return st;
}

extern "C" MT_API mt_status mt_pause(void) { return set_paused(1); }
extern "C" MT_API mt_status mt_resume(void) { return set_paused(0); }

extern "C" MT_API mt_status mt_get_counters(mt_counters *out) {
    if (!out) {
        set_last_error("MT_ERR_ARGUMENT: mt_get_counters(NULL)");
        return MT_ERR_ARGUMENT;
    }
    pthread_mutex_lock(&g_life);
    if (g_writer)
        counters_snapshot(g_writer, out);
    else
        *out = g_final;
    pthread_mutex_unlock(&g_life);
    return MT_OK;
}

// Kept in thread-local storage so a name given before the capture (or before the thread's first
// allocation) is still written; published to the slot now if the thread is traced.
extern "C" MT_API mt_status mt_set_thread_name(const char *name) {
    if (!name) {
        set_last_error("MT_ERR_ARGUMENT: mt_set_thread_name(NULL)");
        return MT_ERR_ARGUMENT;
    }
    uint32_t len = static_cast<uint32_t>(strnlen(name, kNameMax - 1));
    memcpy(t_tls.name, name, len);
    t_tls.name[len] = 0;
    t_tls.name_len = len;
    ThreadSlot *s = t_tls.slot;
    if (!s || s->in_hook.load(std::memory_order_relaxed)) return MT_OK;
    s->in_hook.store(1, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (g.live.load(std::memory_order_relaxed) && s->gen.load(std::memory_order_relaxed) == g.gen.load(std::memory_order_relaxed))
        slot_publish_name(*s, t_tls.name, len);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    s->in_hook.store(0, std::memory_order_release);
    wake_writer();
    return MT_OK;
}
