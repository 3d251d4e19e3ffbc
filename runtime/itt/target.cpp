// target.cpp — finding the process's MemTracer and starting it from the environment (target.h).
#include "target.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace mt::itt {

namespace {

Target g_target{};
bool g_started_here = false;

const char *env(const char *name) {
    const char *v = getenv(name);
    return v != nullptr && *v != '\0' ? v : nullptr;
}

// The collector's own copy of the runtime (linked in, its symbols hidden from other images).
Target own() {
    return Target{mt_config_init, mt_start,      mt_stop,        mt_pause,         mt_resume,
                  mt_frame_end,   mt_set_thread_name, mt_mark,   mt_get_counters,  mt_status_string,
                  mt_last_error,  mt_native_heap, mt_on_native_alloc, mt_on_native_free, nullptr, false, nullptr, nullptr};
}

template <class F>
void pick(void *h, const char *name, F *out) {
    *out = reinterpret_cast<F>(dlsym(h, name));
}

// The image that defines this collector, so that its own (hidden) runtime is never taken for
// another one.
bool in_self(void *addr) {
    Dl_info mine{}, theirs{};
    return dladdr(reinterpret_cast<void *>(&in_self), &mine) && dladdr(addr, &theirs) &&
           mine.dli_fbase == theirs.dli_fbase;
}

struct Search {
    void *handle = nullptr;  // the image exporting mt_get_counters
    void *unity = nullptr;   // the image exporting memtracer_unity_frames_driven
};

// Every loaded image, the main program included, also those loaded RTLD_LOCAL (as Unity loads
// its plug-ins), which dlsym(RTLD_DEFAULT) would not see.
int visit(struct dl_phdr_info *info, size_t, void *ctx) {
    auto *s = static_cast<Search *>(ctx);
    const char *name = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : nullptr;
    void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return 0;
    void *f = dlsym(h, "mt_get_counters");
    if (!s->handle && f && !in_self(f)) s->handle = h;
    void *u = dlsym(h, "memtracer_unity_frames_driven");
    if (!s->unity && u && !in_self(u)) s->unity = h;
    if (h != s->handle && h != s->unity) dlclose(h);  // NOLOAD: only drops the reference it added
    return 0;
}

Target find() {
    Search s;
    dl_iterate_phdr(visit, &s);
    Target t = own();
    if (s.handle) {
        Target f{};
        pick(s.handle, "mt_config_init", &f.config_init);
        pick(s.handle, "mt_start", &f.start);
        pick(s.handle, "mt_stop", &f.stop);
        pick(s.handle, "mt_pause", &f.pause);
        pick(s.handle, "mt_resume", &f.resume);
        pick(s.handle, "mt_frame_end", &f.frame_end);
        pick(s.handle, "mt_set_thread_name", &f.set_thread_name);
        pick(s.handle, "mt_mark", &f.mark);
        pick(s.handle, "mt_get_counters", &f.get_counters);
        pick(s.handle, "mt_status_string", &f.status_string);
        pick(s.handle, "mt_last_error", &f.last_error);
        pick(s.handle, "mt_native_heap", &f.native_heap);
        pick(s.handle, "mt_on_native_alloc", &f.native_alloc);
        pick(s.handle, "mt_on_native_free", &f.native_free);
        f.foreign = true;
        // A runtime without the core calls is not one this collector can drive.
        if (f.config_init && f.start && f.stop && f.pause && f.resume && f.frame_end && f.set_thread_name &&
            f.mark && f.status_string && f.last_error)
            t = f;
    }
    if (s.unity) pick(s.unity, "memtracer_unity_frames_driven", &t.unity_frames_driven);
    return t;
}

uint32_t env_u32(const char *name, uint32_t fallback) {
    const char *v = env(name);
    return v != nullptr ? static_cast<uint32_t>(strtoul(v, nullptr, 0)) : fallback;
}

// The same variables as the Unity plug-in (docs/integration.md); MT_FLAG_NATIVE_HEAPS added so
// that lifetimes cover the ITT heaps where the process has no Boehm GC.
void start_from_env(const Target &t) {
    mt_config c;
    t.config_init(&c);
    c.output_path = env("MEMTRACER_OUTPUT") ? env("MEMTRACER_OUTPUT") : "run.mt";
    const char *mode = env("MEMTRACER_MODE");
    if (mode != nullptr && strcmp(mode, "aggregate") == 0) c.mode = MT_MODE_AGGREGATE;
    const char *unwinder = env("MEMTRACER_UNWINDER");
    if (unwinder != nullptr && strcmp(unwinder, "libunwind") == 0) c.unwinder = MT_UNWIND_LIBUNWIND;
    const char *sample = env("MEMTRACER_SAMPLE_BYTES");
    if (sample != nullptr) c.sample_interval_bytes = strtoull(sample, nullptr, 0);
    c.ring_capacity = env_u32("MEMTRACER_RING_BYTES", c.ring_capacity);
    c.max_stack_depth = env_u32("MEMTRACER_DEPTH", c.max_stack_depth);
    c.flags = env_u32("MEMTRACER_FLAGS", c.flags) | MT_FLAG_NATIVE_HEAPS;
    c.session_label = env("MEMTRACER_LABEL");
    mt_status st = t.start(&c);
    g_started_here = st == MT_OK;
    // Registered after mt_start's own handler, so it runs first: the capture ends as stopped
    // (END "stopped"), not as a process exit without mt_stop.
    if (g_started_here) atexit(target_release);
    if (st != MT_OK && st != MT_ERR_ALREADY_STARTED)
        fprintf(stderr, "memtracer-itt: not tracing: %s (%s)\n", t.status_string(st), t.last_error());
}

void attach_once() {
    g_target = find();
    g_target.tasks = getenv("MEMTRACER_ITT_TASKS");
    g_target.frame_domain = env("MEMTRACER_ITT_FRAME_DOMAIN");
    if (env("MEMTRACER_DISABLE") == nullptr) start_from_env(g_target);
}

}  // namespace

// Not from a load-time constructor: the runtime's own globals are initialised by constructors of
// the same image, in an order nothing promises. __itt_api_init (after the static part's dlopen
// returned) or the first call, whichever comes first.
const Target &target_attach() {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, attach_once);
    return g_target;
}

void target_release() {
    if (!g_started_here) return;
    g_started_here = false;
    mt_status st = g_target.stop();
    if (st != MT_OK && st != MT_ERR_NOT_STARTED)
        fprintf(stderr, "memtracer-itt: stopping: %s (%s)\n", g_target.status_string(st), g_target.last_error());
}

}  // namespace mt::itt
