// game_library.h — the player's view of GameAssembly: loaded with dlopen(RTLD_LOCAL) as Android
// loads libil2cpp.so, so its il2cpp_* exports are not in the global scope (MemTracer finds them
// by walking the loaded images).
#pragma once

#include <cstdint>
#include <string>

#include "mtsample_game.h"

struct Il2CppDomain;
struct Il2CppThread;

namespace mtsample {

struct GameLibrary {
    void *handle = nullptr;
    std::string path;
    int (*il2cpp_init)(const char *) = nullptr;
    void (*il2cpp_shutdown)() = nullptr;
    Il2CppDomain *(*il2cpp_domain_get)() = nullptr;
    Il2CppThread *(*il2cpp_thread_attach)(Il2CppDomain *) = nullptr;
    void (*il2cpp_thread_detach)(Il2CppThread *) = nullptr;
    int64_t (*il2cpp_gc_get_heap_size)() = nullptr;
    mtsample_start_fn start = nullptr;
    mtsample_update_fn update = nullptr;
    mtsample_run_job_fn run_job = nullptr;
    mtsample_late_update_fn late_update = nullptr;
    mtsample_take_tally_fn take_tally = nullptr;
    mtsample_leak_fn leak = nullptr;  // --leak-from
    mtsample_collection_count_fn collection_count = nullptr;
};

// Default: <dir of the executable>/../lib/libGameAssembly-<hook>.so.
std::string default_game_library(const std::string &hook);

// Loads and resolves everything; on failure returns false and says what is missing where.
bool load_game_library(const std::string &path, GameLibrary &lib, std::string &error);

}  // namespace mtsample
