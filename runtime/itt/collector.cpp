// collector.cpp — what each ITT call becomes in MemTracer (docs/itt.md has the table).
//
// Every entry point may be called from any thread, at any rate, with any argument the static
// part lets through (NULL domains and names included): none blocks, none allocates, none
// fails. What MemTracer cannot take (a full mark queue) is counted in g_stats.
#include "collector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

#define MT_ITT_EXPORT extern "C" __attribute__((visibility("default")))

namespace mt::itt {

Stats g_stats;

namespace {

constexpr uint32_t kTaskDepth = 64;  // nested tasks per thread whose names the end marks repeat

struct TaskStack {
    const char *names[kTaskDepth];
    uint32_t depth;  // may exceed kTaskDepth: the names above it are not kept
};
__thread TaskStack t_tasks;

std::atomic<const __itt_domain *> g_frame_domain{nullptr};  // the domain whose frames are MemTracer's
std::atomic<int> g_frame_open{0};
std::atomic<uint64_t> g_frame_index{0};

// __itt_event_create's names: a fixed table; an event beyond it is ignored.
constexpr int kMaxEvents = 1024;
char g_event_names[kMaxEvents][48];
std::atomic<int> g_events{0};

const Target &t() { return target_attach(); }

const char *domain_name(const __itt_domain *d) { return d && d->nameA ? d->nameA : "?"; }

void mark(const char *what, const char *name, const char *suffix) {
    char label[MT_MAX_MARK_LABEL + 1];
    snprintf(label, sizeof label, "%s%s%s", what, name ? name : "?", suffix);
    mt_status st = t().mark(label);
    if (st == MT_OK)
        g_stats.marks.fetch_add(1, std::memory_order_relaxed);
    else if (st == MT_ERR_MARKS_FULL)
        g_stats.marks_dropped.fetch_add(1, std::memory_order_relaxed);
}

// MEMTRACER_ITT_TASKS: unset, every task; "none", no task; else the comma-separated names kept.
bool task_wanted(const char *name) {
    const char *list = t().tasks;
    if (list == nullptr) return true;
    if (name == nullptr || strcmp(list, "none") == 0) return false;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? static_cast<size_t>(comma - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        if (!comma) break;
        p = comma + 1;
    }
    return false;
}

// Whether d's frames are MemTracer's: MEMTRACER_ITT_FRAME_DOMAIN names the domain, else the first
// domain that calls a frame function takes it, unless the Unity plug-in's frame callback ends
// MemTracer's frames (then every domain's frames are marks).
bool frame_domain(const __itt_domain *d) {
    if (t().unity_frames_driven && t().unity_frames_driven()) return false;
    const __itt_domain *cur = g_frame_domain.load(std::memory_order_acquire);
    if (cur != nullptr) return cur == d;
    const char *wanted = t().frame_domain;
    if (wanted != nullptr && strcmp(wanted, domain_name(d)) != 0) return false;
    g_frame_domain.compare_exchange_strong(cur, d, std::memory_order_acq_rel);
    return g_frame_domain.load(std::memory_order_acquire) == d;
}

void end_frame() {
    if (t().frame_end(g_frame_index.fetch_add(1, std::memory_order_relaxed)) == MT_OK)
        g_stats.frames.fetch_add(1, std::memory_order_relaxed);
}

void ignored() { g_stats.ignored.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

void collector_init() { target_attach(); }

}  // namespace mt::itt

using namespace mt::itt;

// ---- frames: the chosen domain's end MemTracer frames, the others' are marks ----

// A begin while the frame is open ends it (the reference: consecutive begins are an end/begin pair).
MT_ITT_EXPORT void __itt_frame_begin_v3(const __itt_domain *d, __itt_id *) {
    if (d == nullptr) return ignored();
    if (!frame_domain(d)) return mark("frame ", domain_name(d), "");
    if (g_frame_open.exchange(1, std::memory_order_acq_rel)) end_frame();
}

// An end without its begin is ignored, as the reference says.
MT_ITT_EXPORT void __itt_frame_end_v3(const __itt_domain *d, __itt_id *) {
    if (d == nullptr) return ignored();
    if (!frame_domain(d)) return mark("frame ", domain_name(d), " end");
    if (g_frame_open.exchange(0, std::memory_order_acq_rel))
        end_frame();
    else
        ignored();
}

// A whole frame after the fact: its timestamps are the caller's clock, so MemTracer's frame ends now.
MT_ITT_EXPORT void __itt_frame_submit_v3(const __itt_domain *d, __itt_id *, __itt_timestamp, __itt_timestamp) {
    if (d == nullptr) return ignored();
    if (!frame_domain(d)) return mark("frame ", domain_name(d), "");
    end_frame();
}

// ---- tasks, markers, events: marks ----

MT_ITT_EXPORT void __itt_task_begin(const __itt_domain *d, __itt_id, __itt_id, __itt_string_handle *name) {
    const char *n = name ? name->strA : nullptr;
    TaskStack &ts = t_tasks;
    if (ts.depth < kTaskDepth) ts.names[ts.depth] = n;
    ++ts.depth;
    if (d == nullptr || n == nullptr) return ignored();
    if (task_wanted(n)) mark("task ", n, "");
}

// A task named by its function's address (task_begin_fn): marked with the address.
MT_ITT_EXPORT void __itt_task_begin_fn(const __itt_domain *d, __itt_id, __itt_id, void *fn) {
    TaskStack &ts = t_tasks;
    if (ts.depth < kTaskDepth) ts.names[ts.depth] = nullptr;
    ++ts.depth;
    if (d == nullptr || !task_wanted("fn")) return;
    char addr[24];
    snprintf(addr, sizeof addr, "%p", fn);
    mark("task ", addr, "");
}

MT_ITT_EXPORT void __itt_task_end(const __itt_domain *d) {
    TaskStack &ts = t_tasks;
    if (ts.depth == 0) return ignored();  // an end without a begin on this thread
    --ts.depth;
    const char *n = ts.depth < kTaskDepth ? ts.names[ts.depth] : nullptr;
    if (d == nullptr || n == nullptr) return;
    if (task_wanted(n)) mark("task ", n, " end");
}

MT_ITT_EXPORT void __itt_marker(const __itt_domain *d, __itt_id, __itt_string_handle *name, __itt_scope) {
    if (d == nullptr || name == nullptr || name->strA == nullptr) return ignored();
    mark("marker ", name->strA, "");
}

MT_ITT_EXPORT __itt_event __itt_event_create(const char *name, int namelen) {
    if (name == nullptr || namelen < 0) return -1;
    int id = g_events.fetch_add(1, std::memory_order_relaxed);
    if (id >= kMaxEvents) return -1;
    size_t n = static_cast<size_t>(namelen) < sizeof g_event_names[0] - 1 ? static_cast<size_t>(namelen)
                                                                         : sizeof g_event_names[0] - 1;
    n = strnlen(name, n);
    memcpy(g_event_names[id], name, n);
    g_event_names[id][n] = 0;
    return id;
}

static const char *event_name(__itt_event e) {
    int n = g_events.load(std::memory_order_relaxed);
    return e >= 0 && e < n && e < kMaxEvents ? g_event_names[e] : nullptr;
}

MT_ITT_EXPORT int __itt_event_start(__itt_event e) {
    const char *n = event_name(e);
    if (n == nullptr) return ignored(), 0;
    mark("event ", n, "");
    return 0;
}

MT_ITT_EXPORT int __itt_event_end(__itt_event e) {
    const char *n = event_name(e);
    if (n == nullptr) return ignored(), 0;
    mark("event ", n, " end");
    return 0;
}

// ---- threads ----

MT_ITT_EXPORT void __itt_thread_set_name(const char *name) {
    if (name == nullptr) return ignored();
    t().set_thread_name(name);
}

// The legacy spelling, which libomp uses for its threads ("OMP Worker Thread #3"): name need not
// end within namelen.
MT_ITT_EXPORT int __itt_thr_name_set(const char *name, int namelen) {
    if (name == nullptr || namelen < 0) return ignored(), 0;
    char copy[64];
    size_t n = strnlen(name, static_cast<size_t>(namelen) < sizeof copy - 1 ? static_cast<size_t>(namelen) : sizeof copy - 1);
    memcpy(copy, name, n);
    copy[n] = 0;
    t().set_thread_name(copy);
    return 0;
}

// ---- heaps: native allocation records, the heap function's name as their class ----

MT_ITT_EXPORT __itt_heap_function __itt_heap_function_create(const char *name, const char *domain) {
    return t().native_heap ? t().native_heap(name, domain) : nullptr;
}

MT_ITT_EXPORT void __itt_heap_allocate_begin(__itt_heap_function, size_t, int) {}

// noinline and never a tail call (the target is built -fno-optimize-sibling-calls): the runtime
// skips exactly this frame, so the stack starts at the allocator's call.
MT_ITT_EXPORT __attribute__((noinline)) void __itt_heap_allocate_end(__itt_heap_function h, void **addr,
                                                                     size_t size, int) {
    if (addr == nullptr || *addr == nullptr || !t().native_alloc) return ignored();  // a failed allocation
    t().native_alloc(*addr, h, size, 1);
    g_stats.heap_allocs.fetch_add(1, std::memory_order_relaxed);
}

MT_ITT_EXPORT void __itt_heap_free_begin(__itt_heap_function, void *addr) {
    if (addr == nullptr || !t().native_free) return ignored();
    t().native_free(addr);
    g_stats.heap_frees.fetch_add(1, std::memory_order_relaxed);
}

MT_ITT_EXPORT void __itt_heap_free_end(__itt_heap_function, void *) {}
MT_ITT_EXPORT void __itt_heap_reallocate_begin(__itt_heap_function, void *, size_t, int) {}

// C's realloc: addr NULL is an allocation; a NULL result (new_size 0, or failure) frees nothing
// unless new_size is 0.
MT_ITT_EXPORT __attribute__((noinline)) void __itt_heap_reallocate_end(__itt_heap_function h, void *addr,
                                                                       void **new_addr, size_t new_size, int) {
    void *p = new_addr ? *new_addr : nullptr;
    if (addr != nullptr && (p != nullptr || new_size == 0) && t().native_free) {
        t().native_free(addr);
        g_stats.heap_frees.fetch_add(1, std::memory_order_relaxed);
    }
    if (p != nullptr && t().native_alloc) {
        t().native_alloc(p, h, new_size, 1);
        g_stats.heap_allocs.fetch_add(1, std::memory_order_relaxed);
    }
}

// ---- collection control ----

MT_ITT_EXPORT void __itt_pause(void) { t().pause(); }
MT_ITT_EXPORT void __itt_resume(void) { t().resume(); }
MT_ITT_EXPORT void __itt_detach(void) { t().stop(); }

// The counters above, for tests and tools: frames, marks, marks_dropped, heap_allocs, heap_frees, ignored.
MT_ITT_EXPORT void memtracer_itt_stats(uint64_t out[6]) {
    if (out == nullptr) return;
    out[0] = g_stats.frames.load();
    out[1] = g_stats.marks.load();
    out[2] = g_stats.marks_dropped.load();
    out[3] = g_stats.heap_allocs.load();
    out[4] = g_stats.heap_frees.load();
    out[5] = g_stats.ignored.load();
}

namespace mt::itt {

const Entry *entries() {
#define MT_ITT_ENTRY(name) {#name, reinterpret_cast<void *>(&name)},
    static const Entry table[] = {
        MT_ITT_ENTRY(__itt_frame_begin_v3) MT_ITT_ENTRY(__itt_frame_end_v3) MT_ITT_ENTRY(__itt_frame_submit_v3)
        MT_ITT_ENTRY(__itt_task_begin) MT_ITT_ENTRY(__itt_task_begin_fn) MT_ITT_ENTRY(__itt_task_end)
        MT_ITT_ENTRY(__itt_marker) MT_ITT_ENTRY(__itt_event_create) MT_ITT_ENTRY(__itt_event_start)
        MT_ITT_ENTRY(__itt_event_end) MT_ITT_ENTRY(__itt_thread_set_name) MT_ITT_ENTRY(__itt_thr_name_set)
        MT_ITT_ENTRY(__itt_heap_function_create) MT_ITT_ENTRY(__itt_heap_allocate_begin)
        MT_ITT_ENTRY(__itt_heap_allocate_end) MT_ITT_ENTRY(__itt_heap_free_begin) MT_ITT_ENTRY(__itt_heap_free_end)
        MT_ITT_ENTRY(__itt_heap_reallocate_begin) MT_ITT_ENTRY(__itt_heap_reallocate_end)
        MT_ITT_ENTRY(__itt_pause) MT_ITT_ENTRY(__itt_resume) MT_ITT_ENTRY(__itt_detach)
        {nullptr, nullptr}};
#undef MT_ITT_ENTRY
    return table;
}

}  // namespace mt::itt
