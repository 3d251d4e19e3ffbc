// lifetimes.cpp — the live-object table and death detection for MT_FLAG_LIFETIMES (see
// lifetimes.h). Open addressing keyed by address (0 = empty, 1 = tombstone: objects are at
// least pointer-aligned so 1 is never an address); the collector side only reads entries and
// turns them into tombstones, all growth happens on the writer under the same mutex.
#include "lifetimes.h"

#include <atomic>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "state.h"

extern "C" {
typedef void (*mt_gc_event_proc2)(int);
void GC_set_on_collection_event(mt_gc_event_proc2) __attribute__((weak));
int GC_is_marked(const void *) __attribute__((weak));
void *GC_base(void *) __attribute__((weak));
}

namespace mt::rt {

namespace {

constexpr uint64_t kEmpty = 0, kTomb = 1;
constexpr uint32_t kMinCap = 1024;

pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
LiveObject *g_tab = nullptr;  // g_cap slots
uint32_t g_cap = 0, g_live = 0, g_tombs = 0;
PendingDeath *g_deaths = nullptr;  // g_deaths_cap >= g_live + g_deaths_n, always
uint32_t g_deaths_cap = 0, g_deaths_n = 0;
std::atomic<bool> g_active{false};
std::atomic<uint64_t> g_req{0}, g_done{0};
std::atomic<uint64_t> g_total_deaths{0}, g_collections{0}, g_timeouts{0}, g_not_heap{0}, g_last_scan_ns{0},
    g_total_scan_ns{0};

uint32_t hash_slot(uint64_t a, uint32_t cap) {
    a ^= a >> 33;
    a *= 0xFF51AFD7ED558CCDull;
    a ^= a >> 33;
    return static_cast<uint32_t>(a) & (cap - 1);
}

// Caller holds g_mu and has made room in g_deaths (an overwrite adds one).
void put(const LiveObject &o) {
    uint32_t tomb = UINT32_MAX;
    for (uint32_t i = hash_slot(o.address, g_cap);; i = (i + 1) & (g_cap - 1)) {
        LiveObject &e = g_tab[i];
        if (e.address == o.address) {
            // The address was handed out again before a collection saw the old object die
            // (explicit free, or it died while still in a ring): count the old one dead now so
            // allocations minus deaths stays right.
            g_deaths[g_deaths_n++] = PendingDeath{{e.address, e.alloc_seq, e.class_id, e.stack_id, e.gc_size}, o.alloc_seq};
            e = o;
            return;
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
            return;
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
    auto *t = static_cast<LiveObject *>(calloc(cap, sizeof(LiveObject)));
    if (!t) return false;
    LiveObject *old = g_tab;
    uint32_t old_cap = g_cap;
    g_tab = t;
    g_cap = cap;
    g_live = g_tombs = 0;
    for (uint32_t i = 0; i < old_cap; ++i)
        if (old[i].address > kTomb) put(old[i]);
    free(old);
    return true;
}

bool reserve_deaths(uint64_t need) {
    if (need <= g_deaths_cap) return true;
    uint64_t cap = g_deaths_cap ? g_deaths_cap : kMinCap;
    while (cap < need) cap *= 2;
    if (cap > UINT32_MAX) return false;
    void *p = realloc(g_deaths, cap * sizeof(PendingDeath));
    if (!p) return false;
    g_deaths = static_cast<PendingDeath *>(p);
    g_deaths_cap = static_cast<uint32_t>(cap);
    return true;
}

void free_all() {
    free(g_tab);
    free(g_deaths);
    g_tab = nullptr;
    g_deaths = nullptr;
    g_cap = g_live = g_tombs = g_deaths_cap = g_deaths_n = 0;
}

}  // namespace

bool lifetimes_supported() { return GC_is_marked && GC_base && GC_set_on_collection_event; }

bool lifetimes_begin() {
    if (!lifetimes_supported()) return false;
    pthread_mutex_lock(&g_mu);
    free_all();
    bool ok = rehash(0) && reserve_deaths(kMinCap);
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

bool lifetimes_add(const LiveObject *o, uint32_t n) {
    if (!n || !g_active.load(std::memory_order_acquire)) return true;
    // GC_base needs no lock; an address the collector does not own (a test's fake object, a
    // non-GC allocation) could not be asked GC_is_marked later.
    pthread_mutex_lock(&g_mu);
    bool ok = true;
    if (static_cast<uint64_t>(g_live) + g_tombs + n > static_cast<uint64_t>(g_cap) * 7 / 10)
        ok = rehash(g_live + n);
    ok = ok && reserve_deaths(static_cast<uint64_t>(g_live) + g_deaths_n + n);
    for (uint32_t i = 0; ok && i < n; ++i) {
        if (o[i].address <= kTomb || GC_base(reinterpret_cast<void *>(o[i].address)) != reinterpret_cast<void *>(o[i].address)) {
            g_not_heap.fetch_add(1, std::memory_order_relaxed);
            continue;
        }
        put(o[i]);
    }
    pthread_mutex_unlock(&g_mu);
    return ok;
}

uint64_t lifetimes_drain_request() { return g_req.load(std::memory_order_acquire); }

void lifetimes_drain_done(uint64_t req) { g_done.store(req, std::memory_order_release); }

uint32_t lifetimes_take(void (*sink)(void *, const PendingDeath *, uint32_t), void *ctx) {
    pthread_mutex_lock(&g_mu);
    uint32_t n = g_deaths_n;
    if (n) sink(ctx, g_deaths, n);
    g_deaths_n = 0;
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
            LiveObject &e = g_tab[i];
            if (e.address <= kTomb || GC_is_marked(reinterpret_cast<void *>(e.address))) continue;
            if (g_deaths_n == g_deaths_cap) break;  // cannot happen: the writer keeps room for all
            g_deaths[g_deaths_n++] = PendingDeath{{e.address, e.alloc_seq, e.class_id, e.stack_id, e.gc_size}, epoch};
            e.address = kTomb;
            --g_live;
            ++g_tombs;
            ++found;
        }
    }
    pthread_mutex_unlock(&g_mu);
    uint64_t dt = mono_ns() - t0;
    g_total_deaths.fetch_add(found, std::memory_order_relaxed);
    g_collections.fetch_add(1, std::memory_order_relaxed);
    g_last_scan_ns.store(dt, std::memory_order_relaxed);
    g_total_scan_ns.fetch_add(dt, std::memory_order_relaxed);
}

}  // namespace mt::rt
