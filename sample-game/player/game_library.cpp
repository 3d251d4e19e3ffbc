// game_library.cpp — dlopen + dlsym of GameAssembly, with errors naming the file and symbol.
#include "game_library.h"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

namespace mtsample {

std::string default_game_library(const std::string &hook) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    std::string dir = ".";
    if (n > 0) {
        std::string p(exe, static_cast<size_t>(n));
        dir = p.substr(0, p.find_last_of('/'));
    }
    return dir + "/../lib/libGameAssembly-" + hook + ".so";
}

bool load_game_library(const std::string &path, GameLibrary &lib, std::string &error) {
    lib.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!lib.handle) {
        error = std::string("cannot load the game library: ") + dlerror();
        return false;
    }
    lib.path = path;
    bool ok = true;
    auto resolve = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib.handle, name));
        if (!fn && ok) {
            error = path + ": missing export " + name;
            ok = false;
        }
    };
    resolve(lib.il2cpp_init, "il2cpp_init");
    resolve(lib.il2cpp_shutdown, "il2cpp_shutdown");
    resolve(lib.il2cpp_domain_get, "il2cpp_domain_get");
    resolve(lib.il2cpp_thread_attach, "il2cpp_thread_attach");
    resolve(lib.il2cpp_thread_detach, "il2cpp_thread_detach");
    resolve(lib.il2cpp_gc_get_heap_size, "il2cpp_gc_get_heap_size");
    resolve(lib.start, "mtsample_start");
    resolve(lib.update, "mtsample_update");
    resolve(lib.run_job, "mtsample_run_job");
    resolve(lib.late_update, "mtsample_late_update");
    resolve(lib.take_tally, "mtsample_take_tally");
    return ok;
}

}  // namespace mtsample
