// marks.cpp — mt_mark: any thread may label the open frame without taking a lock or touching the
// heap. Labels go through a bounded lock-free queue (Vyukov's: each cell has a sequence number
// telling producers and the consumer whose turn it is); the writer drains it every iteration and
// files each mark under the frame whose epoch the caller read, like an allocation.
#include <string.h>

#include "clock.h"
#include "errors.h"
#include "marks.h"
#include "state.h"

namespace mt::rt {
namespace {

constexpr uint64_t kCells = MT_MAX_PENDING_MARKS;
static_assert((kCells & (kCells - 1)) == 0, "the mark queue's size is a power of two");

// `turn` is stored minus the cell's index so the zero-initialised table is a valid empty queue
// (no constructor runs in a runtime that may be loaded before any initialiser): a cell at
// index i is free for position p when turn + i == p, and holds p's mark when turn + i == p + 1.
struct Cell {
    std::atomic<uint64_t> turn;
    PendingMark mark;
};

Cell g_cells[kCells];
std::atomic<uint64_t> g_enqueue{0};
std::atomic<uint64_t> g_dequeue{0};  // only the writer moves it; atomic for the next capture's writer

uint64_t turn_of(uint64_t i) { return g_cells[i].turn.load(std::memory_order_acquire) + i; }

}  // namespace

uint32_t mark_label_len(const char *label) {
    size_t len = strnlen(label, MT_MAX_MARK_LABEL + 1);
    if (len <= MT_MAX_MARK_LABEL) return static_cast<uint32_t>(len);
    len = MT_MAX_MARK_LABEL;
    // The first byte dropped continues a character: drop that character's lead bytes too.
    while (len > 0 && (static_cast<unsigned char>(label[len]) & 0xC0) == 0x80) --len;
    return static_cast<uint32_t>(len);
}

bool marks_queued() {
    const uint64_t pos = g_dequeue.load(std::memory_order_relaxed);
    return turn_of(pos & (kCells - 1)) == pos + 1;  // a producer still copying wakes the writer after
}

uint32_t marks_pop(PendingMark *out, uint32_t max) {
    uint32_t n = 0;
    uint64_t pos = g_dequeue.load(std::memory_order_relaxed);
    while (n < max) {
        uint64_t i = pos & (kCells - 1);
        if (turn_of(i) != pos + 1) break;  // empty, or its producer is still copying
        out[n++] = g_cells[i].mark;
        g_cells[i].turn.store(pos + kCells - i, std::memory_order_release);
        ++pos;
    }
    g_dequeue.store(pos, std::memory_order_relaxed);
    return n;
}

}  // namespace mt::rt

using namespace mt::rt;

extern "C" MT_API mt_status mt_mark(const char *label) {
    if (!label) {
        set_last_error("MT_ERR_ARGUMENT: mt_mark needs a label");
        return MT_ERR_ARGUMENT;
    }
    if (!g.live.load(std::memory_order_acquire)) return MT_ERR_NOT_STARTED;
    if (g.disabled.load(std::memory_order_relaxed)) return MT_ERR_DISABLED;
    const uint64_t tick = now_ticks();
    const uint64_t epoch = g.epoch.load(std::memory_order_acquire);
    const uint64_t gen = g.gen.load(std::memory_order_acquire);
    uint64_t pos = g_enqueue.load(std::memory_order_relaxed);
    Cell *cell;
    for (;;) {
        cell = &g_cells[pos & (kCells - 1)];
        int64_t diff = static_cast<int64_t>(turn_of(pos & (kCells - 1)) - pos);
        if (diff == 0) {
            if (g_enqueue.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) break;
        } else if (diff < 0) {
            set_last_error("mt_mark: %u marks are waiting for the writer; '%.*s' was dropped",
                           static_cast<unsigned>(kCells), MT_MAX_MARK_LABEL, label);
            return MT_ERR_MARKS_FULL;
        } else {
            pos = g_enqueue.load(std::memory_order_relaxed);
        }
    }
    PendingMark &m = cell->mark;
    m.gen = gen;
    m.epoch = epoch;
    m.tick = tick;
    m.len = mark_label_len(label);
    memcpy(m.label, label, m.len);
    m.label[m.len] = 0;
    cell->turn.store(pos + 1 - (pos & (kCells - 1)), std::memory_order_release);
    wake_writer_if_idle();  // the queue is bounded: an idle writer must not leave it to fill
    return MT_OK;
}
