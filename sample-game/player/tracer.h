// tracer.h — the player's view of the MemTracer runtime: its C API as function pointers, taken
// from wherever the runtime is, as a Unity player has it:
//   separate  its own shared library, loaded with dlopen(RTLD_LOCAL) as Android loads a native
//             plug-in (libmemtracer_unity.so): libil2cpp cannot see it, it cannot see libil2cpp;
//   in-game   linked into the GameAssembly library, as the runtime is in UnityFramework on iOS;
//   linked    (static players) linked into the executable.
#pragma once

#include <string>

#include "memtracer/memtracer.h"

namespace mtsample {

struct GameLibrary;

struct Tracer {
    void *handle = nullptr;
    std::string from;
    mt_status (*config_init)(mt_config *) = nullptr;
    mt_status (*start)(const mt_config *) = nullptr;
    mt_status (*attach_il2cpp)() = nullptr;
    mt_status (*stop)() = nullptr;
    mt_status (*frame_end)(uint64_t) = nullptr;
    mt_status (*set_thread_name)(const char *) = nullptr;
    mt_status (*get_counters)(mt_counters *) = nullptr;
    const char *(*status_string)(mt_status) = nullptr;
    const char *(*last_error)() = nullptr;
    mt_status (*mark)(const char *) = nullptr;
};

// runtime: "separate" (runtime_lib, or the build's libmemtracer) or "in-game" (from lib).
bool load_tracer(const std::string &runtime, const std::string &runtime_lib, const GameLibrary &lib, Tracer &t,
                 std::string &error);

}  // namespace mtsample
