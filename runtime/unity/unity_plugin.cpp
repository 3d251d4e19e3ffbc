// unity_plugin.cpp — MemTracer as a Unity native plug-in. Unity calls UnityPluginLoad at startup;
// from then on Unity's profiler callbacks end MemTracer frames (RegisterFrameCallback) and name
// its threads (RegisterCreateThreadCallback). The plug-in only forwards: every decision about
// recording stays in the runtime core behind memtracer.h. Unity's plug-in API has no scene-load
// event; what it has are its own profiler markers, so the markers named in MEMTRACER_UNITY_MARKS
// (default: the scene-load step, below) become mt_mark labels.
//
// Configuration comes from the environment (an Xcode scheme, `adb shell setprop wrap...`, or the
// launcher), since the plug-in loads before any C# runs, and else from the settings the Unity
// package bakes into the player (memtracer_unity_settings). See docs/integration.md.
#include <memtracer/memtracer.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>

#ifdef MEMTRACER_REAL_UNITY_HEADERS
#include <IUnityInterface.h>
#include <IUnityProfilerCallbacks.h>
static constexpr UnityInterfaceGUID kUnityProfilerCallbacksGUID{0x572FDB38CE3C4B1FULL, 0xA6071A9A7C4F52D8ULL};
#else
#include "unity_plugin_api.h"
#endif

// The Unity package's settings (Project Settings > MemTracer), generated as C source next to this
// file (memtracer_settings.c): name/value pairs, ended by two NULLs. This weak, empty definition
// stands when the player has none (the repository's own builds); the generated one overrides it.
extern "C" __attribute__((weak)) const char *const memtracer_unity_settings[] = {nullptr, nullptr};

namespace {

IUnityProfilerCallbacks *g_callbacks = nullptr;
std::atomic<uint64_t> g_frame{0};
bool g_started_here = false;
char g_output[MT_MAX_PATH];

void UNITY_INTERFACE_API on_frame(void *) { mt_frame_end(g_frame.fetch_add(1, std::memory_order_relaxed)); }

void UNITY_INTERFACE_API on_thread(const UnityProfilerThreadDesc *desc, void *) {
    if (desc == nullptr || desc->name == nullptr) return;
    // Unity usually registers a thread from that thread, but the callback does not promise it.
    if (desc->threadId == static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pthread_self())))
        mt_set_thread_name(desc->name);
    else
        mt_name_thread(desc->threadId, desc->name);
}

// Forwarded markers: a fixed table, filled from the create-marker callback (Unity calls it for
// every existing marker at registration, then for each new one, on any thread).
constexpr int kMaxForwarded = 16;
constexpr size_t kMaxMarkNames = 512;
// Unity's scene-load integration step on the main thread: one Begin per step of an async load,
// which can span several frames (so a run of consecutive frames is marked once, below).
constexpr const char *kDefaultMarks = "Application.LoadLevelAsync Integrate";
char g_mark_names[kMaxMarkNames];  // the list, ',' turned into '\0'
struct Forwarded {
    std::atomic<const UnityProfilerMarkerDesc *> desc{nullptr};
    std::atomic<uint64_t> last_frame{~0ull};
};
Forwarded g_forwarded[kMaxForwarded];
std::atomic<int> g_forwarded_count{0};

bool wanted_mark(const char *name) {
    for (const char *p = g_mark_names; *p != '\0'; p += strlen(p) + 1)
        if (strcmp(p, name) == 0) return true;
    return false;
}

void UNITY_INTERFACE_API on_marker_event(const UnityProfilerMarkerDesc *desc, UnityProfilerMarkerEventType type,
                                         uint16_t, const UnityProfilerMarkerData *, void *user) {
    if (type == kUnityProfilerMarkerEventTypeEnd) return;
    auto *f = static_cast<Forwarded *>(user);
    uint64_t frame = g_frame.load(std::memory_order_relaxed);
    uint64_t last = f->last_frame.exchange(frame, std::memory_order_relaxed);
    // Still the same load: it began this frame or the one before.
    if (last != ~0ull && frame - last <= 1) return;
    mt_mark(desc->name);  // copies the label, never blocks (memtracer.h)
}

void UNITY_INTERFACE_API on_marker_created(const UnityProfilerMarkerDesc *desc, void *) {
    if (desc == nullptr || desc->name == nullptr || !wanted_mark(desc->name)) return;
    int slot = g_forwarded_count.fetch_add(1, std::memory_order_relaxed);
    if (slot >= kMaxForwarded) return;  // more markers of these names than the table holds
    g_forwarded[slot].desc.store(desc, std::memory_order_relaxed);
    g_callbacks->RegisterMarkerEventCallback(desc, &on_marker_event, &g_forwarded[slot]);
}

const char *baked(const char *name) {
    for (const char *const *p = memtracer_unity_settings; p[0] != nullptr; p += 2)
        if (strcmp(p[0], name) == 0) return p[1];
    return nullptr;
}

// The environment wins; else the baked setting; empty counts as unset.
const char *env(const char *name) {
    const char *v = getenv(name);
    if (v == nullptr || *v == '\0') v = baked(name);
    return v != nullptr && *v != '\0' ? v : nullptr;
}

uint64_t env_u64(const char *name, uint64_t fallback) {
    const char *v = env(name);
    return v != nullptr ? strtoull(v, nullptr, 0) : fallback;
}

// Where a phone app may write: the app container's Documents on iOS, the app's external files
// folder on Android (pulled with adb), the working directory elsewhere.
const char *default_output() {
#if defined(__APPLE__)
    const char *home = env("HOME");
    if (home != nullptr) snprintf(g_output, sizeof g_output, "%s/Documents/run.mt", home);
#elif defined(__ANDROID__)
    char process[256] = {0};
    if (FILE *f = fopen("/proc/self/cmdline", "r")) {
        size_t n = fread(process, 1, sizeof process - 1, f);
        process[n] = '\0';
        fclose(f);
    }
    snprintf(g_output, sizeof g_output, "/sdcard/Android/data/%s/files/run.mt", process);
#endif
    if (g_output[0] == '\0') snprintf(g_output, sizeof g_output, "run.mt");
    return g_output;
}

mt_status start_capture() {
    mt_config config;
    mt_config_init(&config);
    config.output_path = env("MEMTRACER_OUTPUT") ? env("MEMTRACER_OUTPUT") : default_output();
    const char *mode = env("MEMTRACER_MODE");
    if (mode != nullptr && strcmp(mode, "aggregate") == 0) config.mode = MT_MODE_AGGREGATE;
    const char *unwinder = env("MEMTRACER_UNWINDER");
    if (unwinder != nullptr && strcmp(unwinder, "libunwind") == 0) config.unwinder = MT_UNWIND_LIBUNWIND;
    config.sample_interval_bytes = env_u64("MEMTRACER_SAMPLE_BYTES", config.sample_interval_bytes);
    config.ring_capacity = static_cast<uint32_t>(env_u64("MEMTRACER_RING_BYTES", config.ring_capacity));
    config.max_stack_depth = static_cast<uint32_t>(env_u64("MEMTRACER_DEPTH", config.max_stack_depth));
    config.flags = static_cast<uint32_t>(env_u64("MEMTRACER_FLAGS", config.flags));
    config.session_label = env("MEMTRACER_LABEL");
    // The runtime reads these variables itself when NULL; set here so baked values apply too.
    config.live_listen = env("MEMTRACER_LISTEN");
    config.live_connect = env("MEMTRACER_CONNECT");
    config.live_token = env("MEMTRACER_TOKEN");

    mt_status status = mt_start(&config);
    g_started_here = g_started_here || status == MT_OK;
    if (status != MT_OK && status != MT_ERR_ALREADY_STARTED)
        fprintf(stderr, "memtracer: not tracing: %s (%s)\n", mt_status_string(status), mt_last_error());
    return status;
}

// MEMTRACER_UNITY_MARKS: comma-separated marker names as Unity's Profiler window shows them;
// unset: kDefaultMarks; empty ("") or "none": no marker is forwarded.
void load_mark_names() {
    const char *v = getenv("MEMTRACER_UNITY_MARKS");
    if (v == nullptr) v = kDefaultMarks;
    if (strcmp(v, "none") == 0) v = "";
    snprintf(g_mark_names, sizeof g_mark_names - 1, "%s", v);
    size_t n = strlen(g_mark_names);
    g_mark_names[n + 1] = '\0';  // the list ends with an empty name
    for (size_t i = 0; i < n; ++i)
        if (g_mark_names[i] == ',') g_mark_names[i] = '\0';
}

// Automatic: mt_attach_il2cpp itself tells a patched libil2cpp (its il2cpp_memtracer_bridge is
// connected, allocations arrive through the patch: nothing more is installed) from a shipped one
// (il2cpp's profiler API). No symbol of libil2cpp is referenced, weakly or not.
bool want_attach() {
    const char *hook = env("MEMTRACER_HOOK");
    return hook == nullptr || strcmp(hook, "patch") != 0;
}

}  // namespace

extern "C" UNITY_INTERFACE_EXPORT void UNITY_INTERFACE_API UnityPluginLoad(IUnityInterfaces *interfaces) {
    if (interfaces == nullptr || env("MEMTRACER_DISABLE") != nullptr) return;
    start_capture();
    if (want_attach() && mt_attach_il2cpp() != MT_OK)
        fprintf(stderr, "memtracer: no allocation hook: %s\n", mt_last_error());
    g_callbacks = reinterpret_cast<IUnityProfilerCallbacks *>(interfaces->GetInterfaceSplit(
        kUnityProfilerCallbacksGUID.m_GUIDHigh, kUnityProfilerCallbacksGUID.m_GUIDLow));
    if (g_callbacks == nullptr) {
        fprintf(stderr, "memtracer: IUnityProfilerCallbacks unavailable: frames end only through mt_frame_end\n");
        return;
    }
    g_callbacks->RegisterFrameCallback(&on_frame, nullptr);
    g_callbacks->RegisterCreateThreadCallback(&on_thread, nullptr);
    load_mark_names();
    if (g_mark_names[0] != '\0') g_callbacks->RegisterCreateMarkerCallback(&on_marker_created, nullptr);
}

// 1 while Unity's frame callback ends MemTracer's frames: the ITT collector (docs/itt.md) then
// turns ITT frames into marks instead of ending frames a second time.
extern "C" UNITY_INTERFACE_EXPORT int memtracer_unity_frames_driven(void) { return g_callbacks != nullptr ? 1 : 0; }

extern "C" UNITY_INTERFACE_EXPORT void UNITY_INTERFACE_API UnityPluginUnload() {
    if (g_callbacks != nullptr) {
        g_callbacks->UnregisterFrameCallback(&on_frame, nullptr);
        g_callbacks->UnregisterCreateThreadCallback(&on_thread, nullptr);
        if (g_mark_names[0] != '\0') {
            g_callbacks->UnregisterCreateMarkerCallback(&on_marker_created, nullptr);
            for (auto &f : g_forwarded)
                if (f.desc.load(std::memory_order_relaxed) != nullptr)
                    g_callbacks->UnregisterMarkerEventCallback(nullptr, &on_marker_event, &f);
        }
        for (auto &f : g_forwarded) f.desc.store(nullptr, std::memory_order_relaxed), f.last_frame.store(~0ull);
        g_forwarded_count.store(0, std::memory_order_relaxed);
        g_callbacks = nullptr;
    }
    if (g_started_here) mt_stop();
    g_started_here = false;
}

// For the package's C# API (MemTracer.Tracer.Start, .Setting): a capture with the same
// configuration as at load, and one setting as the plug-in resolves it (NULL when unset).
extern "C" UNITY_INTERFACE_EXPORT int UNITY_INTERFACE_API memtracer_unity_start() { return start_capture(); }

extern "C" UNITY_INTERFACE_EXPORT const char *UNITY_INTERFACE_API memtracer_unity_setting(const char *name) {
    return name != nullptr ? env(name) : nullptr;
}
