// game_library.cpp — dlopen + dlsym of GameAssembly, with errors naming the file and symbol; or,
// in the static player, GameAssembly's symbols linked in directly.
#include "game_library.h"

#include "dl_exports.h"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

namespace mtsample {

#ifdef MTSAMPLE_LINKED_GAME_ASSEMBLY
// A static player (sample-game/CMakeLists.txt): one GameAssembly variant is linked in, so its
// exports are plain symbols and the "path" only names which variant was asked for.
extern "C" {
int il2cpp_init(const char *);
void il2cpp_shutdown();
Il2CppDomain *il2cpp_domain_get();
Il2CppThread *il2cpp_thread_attach(Il2CppDomain *);
void il2cpp_thread_detach(Il2CppThread *);
int64_t il2cpp_gc_get_heap_size();
int mtsample_start(uint64_t, uint32_t);
void mtsample_update(uint64_t);
void mtsample_run_job(uint64_t, uint32_t);
void mtsample_late_update(uint64_t);
uint32_t mtsample_take_tally(mtsample_tally_row *, uint32_t);
void mtsample_leak(uint64_t);
uint64_t mtsample_collection_count();
}

namespace {
const std::string kLinked = "(linked in) GameAssembly-";
}

std::string default_game_library(const std::string &hook) { return kLinked + hook; }

bool load_game_library(const std::string &path, GameLibrary &lib, std::string &error) {
    if (path != kLinked + MTSAMPLE_LINKED_GAME_ASSEMBLY) {
        error = "cannot load the game library: this player is statically linked with GameAssembly-"
                MTSAMPLE_LINKED_GAME_ASSEMBLY " (asked for '" + path + "'; --hook " MTSAMPLE_LINKED_GAME_ASSEMBLY
                " only, no --game-lib)";
        return false;
    }
    lib = {nullptr, path, il2cpp_init, il2cpp_shutdown, il2cpp_domain_get, il2cpp_thread_attach,
           il2cpp_thread_detach, il2cpp_gc_get_heap_size, mtsample_start, mtsample_update,
           mtsample_run_job, mtsample_late_update, mtsample_take_tally, mtsample_leak,
           mtsample_collection_count};
    return true;
}

#else

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
    // RTLD_LOCAL, as Android loads libil2cpp.so: its exports are not in the global scope.
    lib.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) {
        error = std::string("cannot load the game library: ") + dlerror();
        return false;
    }
    lib.path = path;
    DlExports resolve{lib.handle, path, error};
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
    resolve(lib.leak, "mtsample_leak");
    resolve(lib.collection_count, "mtsample_collection_count");
    return resolve.ok;
}

#endif

}  // namespace mtsample
