// lifetimes.cpp — the live-object table and death detection for MT_FLAG_LIFETIMES (see
// lifetimes.h). Open addressing keyed by address (0 = empty, 1 = tombstone: objects are at
// least pointer-aligned so 1 is never an address, and a set low bit marks an entry the
// collector found dead). The collector only flags entries and appends their slot index; the
// writer takes them, leaves tombstones and does all growth, under the same mutex.
#include "lifetimes.h"

#include <atomic>
#include <initializer_list>  // range-for over a braced list
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridge.h"
#include "clock.h"
#include "state.h"

namespace mt::rt {

namespace {

constexpr uint64_t kEmpty = 0, kTomb = 1, kDead = 1;  // kDead: low address bit, found dead, not yet taken
constexpr uint32_t kMinCap = 1024;

// Frame seqs are kept in 32 bits (2^32 frames is two years at 60 fps) so an entry is 32 bytes.
struct Entry {
    uint64_t address, gc_size;
    uint32_t class_id, stack_id, alloc_seq, death_seq;
};

pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
Entry *g_tab = nullptr;  // g_cap slots
uint32_t g_cap = 0, g_live = 0, g_tombs = 0;
// Slots found dead by the collector, for the writer to take. Dead entries stay in place (so the
// collector never writes more than 4 bytes per death); g_dead_cap >= g_live + g_dead_n always.
uint32_t *g_dead = nullptr;
uint32_t g_dead_cap = 0, g_dead_n = 0;
std::atomic<bool> g_active{false};
std::atomic<bool> g_any_dead{false};  // g_dead_n > 0: lets an idle writer skip the mutex
std::atomic<uint64_t> g_req{0}, g_done{0};
std::atomic<uint64_t> g_total_deaths{0}, g_collections{0}, g_timeouts{0}, g_not_heap{0}, g_last_scan_ns{0},
    g_total_scan_ns{0};

uint32_t hash_slot(uint64_t a, uint32_t cap) {
    a ^= a >> 33;
    a *= 0xFF51AFD7ED558CCDull;
    a ^= a >> 33;
    return static_cast<uint32_t>(a) & (cap - 1);
}

PendingDeath death_of(const Entry &e, uint64_t epoch) {
    return PendingDeath{{e.address & ~kDead, e.alloc_seq, e.class_id, e.stack_id, e.gc_size}, epoch};
}

// Caller holds g_mu, no dead entries are pending, and the table has room. `overwritten` gets
// the previous object at the same address, if any.
bool put(const Entry &o, Entry *overwritten) {
    uint32_t tomb = UINT32_MAX;
    for (uint32_t i = hash_slot(o.address, g_cap);; i = (i + 1) & (g_cap - 1)) {
        Entry &e = g_tab[i];
        if (e.address == o.address) {
            *overwritten = e;
            e = o;
            return true;
        }
        if (e.address == kTomb && tomb == UINT32_MAX) tomb = i;
        if (e.address == kEmpty) {
            if (tomb != UINT32_MAX) {
                g_tab[tomb] = o;
                --g_tombs;
            } else {
                e = o;
            }
            ++g_live;
            return false;
        }
    }
}

bool rehash(uint32_t need_live) {
    uint64_t want = static_cast<uint64_t>(need_live) * 2;
    uint32_t cap = kMinCap;
    while (cap < want) {
        if (cap >= 0x80000000u) return false;
        cap *= 2;
    }
    auto *t = static_cast<Entry *>(calloc(cap, sizeof(Entry)));
    if (!t) return false;
    Entry *old = g_tab, dummy;
    uint32_t old_cap = g_cap;
    g_tab = t;
    g_cap = cap;
    g_live = g_tombs = 0;
    for (uint32_t i = 0; i < old_cap; ++i)
        if (old[i].address > kTomb) put(old[i], &dummy);
    free(old);
    return true;
}

bool reserve_dead(uint64_t need) {
    if (need <= g_dead_cap) return true;
    uint64_t cap = g_dead_cap ? g_dead_cap : kMinCap;
    while (cap < need) cap *= 2;
    if (cap > UINT32_MAX) return false;
    void *p = realloc(g_dead, cap * sizeof(uint32_t));
    if (!p) return false;
    g_dead = static_cast<uint32_t *>(p);
    g_dead_cap = static_cast<uint32_t>(cap);
    return true;
}

// Hands the pending deaths to `sink` in batches and turns their slots into tombstones. Caller
// holds g_mu.
using Sink = void (*)(void *, const PendingDeath *, uint32_t);
uint32_t take_locked(Sink sink, void *ctx) {
    PendingDeath batch[128];
    uint32_t n = 0;
    for (uint32_t i = 0; i < g_dead_n; ++i) {
        Entry &e = g_tab[g_dead[i]];
        batch[n++] = death_of(e, e.death_seq);
        e.address = kTomb;
        ++g_tombs;
        if (n == 128) {
            sink(ctx, batch, n);
            n = 0;
        }
    }
    if (n) sink(ctx, batch, n);
    uint32_t taken = g_dead_n;
    g_dead_n = 0;
    g_any_dead.store(false, std::memory_order_relaxed);
    return taken;
}

void free_all() {
    free(g_tab);
    free(g_dead);
    g_tab = nullptr;
    g_dead = nullptr;
    g_cap = g_live = g_tombs = g_dead_cap = g_dead_n = 0;
}

}  // namespace

// Boehm's mark bits through the bridge of a patched libil2cpp (bridge.h); set once connected.
bool lifetimes_supported() {
    bridge_connect();
    const mt_il2cpp_bridge &b = bridge();
    return b.gc_is_marked && b.gc_base && b.gc_set_on_collection_event;
}

bool lifetimes_begin() {
    if (!lifetimes_supported()) return false;
    pthread_mutex_lock(&g_mu);
    free_all();
    bool ok = rehash(0) && reserve_dead(kMinCap);
    for (auto *c : {&g_total_deaths, &g_collections, &g_timeouts, &g_not_heap, &g_last_scan_ns, &g_total_scan_ns})
        c->store(0, std::memory_order_relaxed);
    g_done.store(g_req.load(std::memory_order_relaxed), std::memory_order_relaxed);
    g_active.store(ok, std::memory_order_release);
    if (!ok) free_all();
    pthread_mutex_unlock(&g_mu);
    return ok;
}

void lifetimes_end() {
    pthread_mutex_lock(&g_mu);
    g_active.store(false, std::memory_order_release);
    free_all();
    pthread_mutex_unlock(&g_mu);
}

bool lifetimes_add(const LiveObject *o, uint32_t n, Sink sink, void *ctx) {
    if (!g_active.load(std::memory_order_acquire)) return true;
    if (n == 0 && !g_any_dead.load(std::memory_order_acquire)) return true;
    pthread_mutex_lock(&g_mu);
    take_locked(sink, ctx);  // slots must not move while the collector's indices point at them
    bool ok = true;
    if (static_cast<uint64_t>(g_live) + g_tombs + n > static_cast<uint64_t>(g_cap) * 7 / 10)
        ok = rehash(g_live + n);
    ok = ok && reserve_dead(static_cast<uint64_t>(g_live) + n);
    for (uint32_t i = 0; ok && i < n; ++i) {
        // An address the collector does not own (a test's fake object, a non-GC allocation)
        // could not be asked GC_is_marked later. GC_base needs no lock.
        void *p = reinterpret_cast<void *>(o[i].address);
        if (o[i].address <= kTomb || bridge().gc_base(p) != p) {
            g_not_heap.fetch_add(1, std::memory_order_relaxed);
            continue;
        }
        Entry e{o[i].address, o[i].gc_size, o[i].class_id, o[i].stack_id, static_cast<uint32_t>(o[i].alloc_seq), 0};
        Entry old;
        // The address was handed out again before a collection saw the old object die
        // (explicit free, or it died while still in a ring): count the old one dead now so
        // allocations minus deaths stays right.
        if (put(e, &old)) {
            if (old.alloc_seq > e.alloc_seq) {
                // Rings are drained thread by thread, not in time order: this object is the
                // older one (another thread's ring came first) and died before `old` got its
                // address. `old` stays the live one.
                Entry ignored;
                put(old, &ignored);
                PendingDeath d = death_of(e, old.alloc_seq);
                sink(ctx, &d, 1);
            } else {
                PendingDeath d = death_of(old, o[i].alloc_seq);
                sink(ctx, &d, 1);
            }
        }
    }
    pthread_mutex_unlock(&g_mu);
    return ok;
}

uint64_t lifetimes_drain_request() { return g_req.load(std::memory_order_acquire); }

void lifetimes_drain_done(uint64_t req) { g_done.store(req, std::memory_order_release); }

uint32_t lifetimes_take(Sink sink, void *ctx) {
    pthread_mutex_lock(&g_mu);
    uint32_t n = g_active.load(std::memory_order_relaxed) ? take_locked(sink, ctx) : 0;
    pthread_mutex_unlock(&g_mu);
    return n;
}

LifetimesStats lifetimes_stats() {
    pthread_mutex_lock(&g_mu);
    uint64_t live = g_live;
    pthread_mutex_unlock(&g_mu);
    return LifetimesStats{live,
                          g_total_deaths.load(std::memory_order_relaxed),
                          g_collections.load(std::memory_order_relaxed),
                          g_timeouts.load(std::memory_order_relaxed),
                          g_not_heap.load(std::memory_order_relaxed),
                          g_last_scan_ns.load(std::memory_order_relaxed),
                          g_total_scan_ns.load(std::memory_order_relaxed)};
}

void lifetimes_on_gc_start() {
    if (!g_active.load(std::memory_order_acquire)) return;
    // Objects still in rings would be missed by this collection's scan (and found dead only at
    // the next one): have the writer move everything pushed so far into the table first.
    uint64_t req = g_req.fetch_add(1, std::memory_order_acq_rel) + 1;
    wake_writer();
    uint64_t deadline = mono_ns() + kDrainWaitNs;
    for (uint32_t spins = 0; g_done.load(std::memory_order_acquire) < req; ++spins) {
        if (!g_active.load(std::memory_order_acquire)) return;
        if (mono_ns() > deadline) {
            g_timeouts.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        if (spins < 16) {
            sched_yield();
        } else {
            timespec d{0, 20000};
            nanosleep(&d, nullptr);
        }
    }
}

void lifetimes_on_reclaim_start(uint64_t epoch) {
    if (!g_active.load(std::memory_order_acquire)) return;
    uint64_t t0 = mono_ns();
    pthread_mutex_lock(&g_mu);
    uint64_t found = 0;
    if (g_active.load(std::memory_order_relaxed)) {
        for (uint32_t i = 0; i < g_cap; ++i) {
            Entry &e = g_tab[i];
            // Tombstones and entries already found dead have the low bit set.
            if ((e.address & kDead) || e.address == kEmpty) continue;
            void *obj = reinterpret_cast<void *>(e.address);
            // An entry can name memory that is no longer an object's start: a collection our
            // callback never saw (it had been replaced), or one whose cycle began before the
            // object's event reached the table (incremental cycles raise no START, and the
            // drain at PRE_STOP_WORLD gives up under load). Its block may be free or the middle of
            // a large object, where GC_is_marked reads a forwarding count as a header and
            // faults. GC_base is exact there: not a start means the object died, in a collection
            // up to this one.
            const bool gone = bridge().gc_base(obj) != obj;
            if (!gone && bridge().gc_is_marked(obj)) continue;
            if (g_dead_n == g_dead_cap) break;  // cannot happen: the writer keeps room for all
            e.address |= kDead;
            e.death_seq = static_cast<uint32_t>(epoch);
            g_dead[g_dead_n++] = i;
            --g_live;
            ++found;
        }
    }
    if (found) g_any_dead.store(true, std::memory_order_release);
    pthread_mutex_unlock(&g_mu);
    uint64_t dt = mono_ns() - t0;
    g_total_deaths.fetch_add(found, std::memory_order_relaxed);
    g_collections.fetch_add(1, std::memory_order_relaxed);
    g_last_scan_ns.store(dt, std::memory_order_relaxed);
    g_total_scan_ns.fetch_add(dt, std::memory_order_relaxed);
}

}  // namespace mt::rt
