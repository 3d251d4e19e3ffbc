// frames.cpp — mt_frame_end, the frame-end queue and the writer's wake-up.
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "clock.h"
#include "frames.h"

namespace mt::rt {

namespace {

constexpr uint32_t kFrameWakeAt = kFrameQueue / 4;  // queued frame ends at which mt_frame_end wakes the writer

void fq_lock() {
    while (g.fq_lock.exchange(1, std::memory_order_acquire)) {
        while (g.fq_lock.load(std::memory_order_relaxed)) sched_yield();
    }
}
void fq_unlock() { g.fq_lock.store(0, std::memory_order_release); }

}  // namespace

void frames_reset(uint64_t start_tick) {
    fq_lock();
    g.fq_head = g.fq_count = g.fq_merge = 0;
    g.start_tick = start_tick;
    g.epoch.store(0, std::memory_order_release);
    fq_unlock();
}

uint32_t frames_pop(FrameEnd *out, uint32_t max) {
    fq_lock();
    uint32_t n = 0;
    while (n < max && g.fq_count > 0) {
        out[n++] = g.fq[g.fq_head];
        g.fq_head = (g.fq_head + 1) % kFrameQueue;
        --g.fq_count;
    }
    fq_unlock();
    return n;
}

uint32_t frames_pending_merge(uint64_t *last_index) {
    fq_lock();
    uint32_t n = g.fq_merge;
    *last_index = g.fq_merge_index;
    fq_unlock();
    return n;
}

#if defined(__linux__)
// The wake-up on Linux is a futex on g.wake_word (issue 22, eleventh session). glibc's condition
// variable cost the writer two system calls per sleep: the timed wait, and a FUTEX_WAKE on the
// mutex at every unlock after it (the wait re-locks the mutex marked contended, whether or not
// anyone waits for it), about 4 futex calls per committed frame; and it had the game's threads
// that wake the writer (mt_frame_end with 16 frame ends queued, a thread's exit, a collection
// with lifetimes on, MT_ON_FULL_BLOCK) take that mutex. Now a sleep is one FUTEX_WAIT, and a
// wake is one exchange, plus a FUTEX_WAKE only when the writer is asleep: never a lock.
//
// The contract is the condition variable's: after wake_writer() returns, the writer starts an
// iteration (a drain) that begins after the call. The writer marks the word kWakeSleeping only
// if no wake is pending, and sleeps only while the word still says so (the kernel compares it
// under its own lock), so a wake between the mark and the sleep makes the sleep return at once;
// a wake that lands after the writer woke for another reason is consumed by the exchange below
// and served by the iteration the writer is about to run.
//
// The idle sleep (issue 22, twelfth session): after an iteration that found nothing, the writer
// sleeps up to kIdleSleepUs with the word kWakeSleepingIdle, and whatever publishes work that
// must not wait that long wakes it: a frame end, a mark, a GC event (wake_writer_if_idle, after
// the publish), a ring passing cap / kRingWakeAt bytes (ring.h), and, as before, a thread's exit,
// a rename, a collection with lifetimes on, MT_ON_FULL_BLOCK and mt_stop (wake_writer). The
// publisher's fence and the writer's (below) order "publish, then read the word" against "mark
// the word, then look for work": either the publisher sees kWakeSleepingIdle and wakes it, or the
// writer's look finds the work and it does not sleep.
namespace {

constexpr uint32_t kWakeIdle = 0, kWakePending = 1, kWakeSleeping = 2, kWakeSleepingIdle = 3;

long futex_call(std::atomic<uint32_t> *word, int op, uint32_t val, const timespec *ts) {
    return syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), op, val, ts, nullptr, FUTEX_BITSET_MATCH_ANY);
}

// FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline (plain FUTEX_WAIT a relative one):
// the deadline mono_ns() gives. It returns on a wake, at the deadline, on a signal, or at once if
// the word no longer holds `as`: each ends the sleep, as a condition variable's spurious wake-up did.
void sleep_as(uint32_t as, uint64_t timeout_us) {
    uint64_t at = mono_ns() + timeout_us * 1000;
    timespec ts{static_cast<time_t>(at / 1000000000ull), static_cast<long>(at % 1000000000ull)};
    futex_call(&g.wake_word, FUTEX_WAIT_BITSET_PRIVATE, as, &ts);
}

// What was pending, the coming iteration serves. An exchange, not a store: its acquire pairs with
// the waker's release, so the iteration sees what the waker published before its wake.
void wait_done() { g.wake_word.exchange(kWakeIdle, std::memory_order_acq_rel); }

}  // namespace

void wake_writer() {
    if (g.wake_word.exchange(kWakePending, std::memory_order_acq_rel) >= kWakeSleeping)
        futex_call(&g.wake_word, FUTEX_WAKE_PRIVATE, 1, nullptr);
}

void wake_writer_if_idle() {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // the publish before, the word's read after
    if (g.wake_word.load(std::memory_order_relaxed) == kWakeSleepingIdle) wake_writer();
}

void writer_wait(uint64_t timeout_us) {
    uint32_t idle = kWakeIdle;
    if (g.wake_word.compare_exchange_strong(idle, kWakeSleeping, std::memory_order_acq_rel)) sleep_as(kWakeSleeping, timeout_us);
    wait_done();
}

void writer_wait_idle(uint64_t timeout_us, bool (*work_waiting)()) {
    uint32_t idle = kWakeIdle;
    if (g.wake_word.compare_exchange_strong(idle, kWakeSleepingIdle, std::memory_order_seq_cst)) {
        std::atomic_thread_fence(std::memory_order_seq_cst);  // the word's mark before, the look after
        if (!work_waiting()) sleep_as(kWakeSleepingIdle, timeout_us);
    }
    wait_done();
}
#else
void wake_writer() {
    pthread_mutex_lock(&g.wake_mu);
    g.wake_flag = 1;
    pthread_cond_signal(&g.wake_cv);
    pthread_mutex_unlock(&g.wake_mu);
}

void writer_wait(uint64_t timeout_us) {
    pthread_mutex_lock(&g.wake_mu);
    if (!g.wake_flag) {
#if defined(__APPLE__)
        timespec rel{static_cast<time_t>(timeout_us / 1000000), static_cast<long>(timeout_us % 1000000) * 1000};
        pthread_cond_timedwait_relative_np(&g.wake_cv, &g.wake_mu, &rel);
#else
        uint64_t wall = wall_ns() + timeout_us * 1000;
        timespec wts{static_cast<time_t>(wall / 1000000000ull), static_cast<long>(wall % 1000000000ull)};
        pthread_cond_timedwait(&g.wake_cv, &g.wake_mu, &wts);
#endif
    }
    g.wake_flag = 0;
    pthread_mutex_unlock(&g.wake_mu);
}

// Elsewhere the writer keeps its drain interval (no idle sleep), so nothing needs this wake.
void wake_writer_if_idle() {}
void writer_wait_idle(uint64_t timeout_us, bool (*)()) { writer_wait(timeout_us); }
#endif

bool frames_queued() {
    fq_lock();
    const bool any = g.fq_count > 0;
    fq_unlock();
    return any;
}

}  // namespace mt::rt

using namespace mt::rt;

extern "C" MT_API mt_status mt_frame_end(uint64_t frame_index) {
    if (!g.live.load(std::memory_order_acquire)) return MT_ERR_NOT_STARTED;
    if (g.disabled.load(std::memory_order_relaxed)) return MT_ERR_DISABLED;
    uint64_t tick = now_ticks();
    uint64_t heap = 0, free_bytes = 0;
    gc_hooks_poll();  // before the epoch moves on: what it records belongs to the ending frame
    if (g.gc_frame_stats) gc_heap_sample(&heap, &free_bytes);
    fq_lock();
    uint32_t queued = g.fq_count;
    if (g.fq_count < kFrameQueue) {
        uint64_t e = g.epoch.load(std::memory_order_relaxed);
        g.fq[(g.fq_head + g.fq_count) % kFrameQueue] = FrameEnd{e, frame_index, tick, heap, free_bytes, g.fq_merge};
        ++g.fq_count;
        g.fq_merge = 0;
        g.epoch.store(e + 1, std::memory_order_release);
    } else {
        ++g.fq_merge;  // the writer is behind: this frame continues into the next
        g.fq_merge_index = frame_index;
    }
    fq_unlock();
    // A writer polling every drain interval gets the frame within one interval, and it waits its
    // 1 ms grace anyway: a wake-up per frame bought about 1 ms of commit latency on average, and
    // cost the game a futex call (and, on a busy core, a switch to the writer) every frame. So
    // the writer is woken when the queue fills up, or when it sleeps past its drain interval
    // (idle: it found nothing to do), which the frame's latency bound cannot wait for.
    if (queued >= kFrameWakeAt) wake_writer();
    else wake_writer_if_idle();
    return MT_OK;
}
