// unity_plugin.cpp — MemTracer as a Unity native plug-in. Unity calls UnityPluginLoad at startup;
// from then on Unity's profiler callbacks end MemTracer frames (RegisterFrameCallback) and name
// its threads (RegisterCreateThreadCallback). The plug-in only forwards: every decision about
// recording stays in the runtime core behind memtracer.h.
//
// Configuration comes from the environment (an Xcode scheme, `adb shell setprop wrap...`, or the
// launcher), since the plug-in loads before any C# runs. See docs/integration.md.
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

const char *env(const char *name) {
    const char *v = getenv(name);
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

void start_capture() {
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

    mt_status status = mt_start(&config);
    g_started_here = status == MT_OK;
    if (status != MT_OK && status != MT_ERR_ALREADY_STARTED)
        fprintf(stderr, "memtracer: not tracing: %s (%s)\n", mt_status_string(status), mt_last_error());
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
}

extern "C" UNITY_INTERFACE_EXPORT void UNITY_INTERFACE_API UnityPluginUnload() {
    if (g_callbacks != nullptr) {
        g_callbacks->UnregisterFrameCallback(&on_frame, nullptr);
        g_callbacks->UnregisterCreateThreadCallback(&on_thread, nullptr);
        g_callbacks = nullptr;
    }
    if (g_started_here) mt_stop();
    g_started_here = false;
}
