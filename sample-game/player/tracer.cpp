// tracer.cpp — the runtime's C API from its own library, from GameAssembly, or linked in.
#include "tracer.h"

#include <dlfcn.h>

#include "dl_exports.h"
#include "game_library.h"

namespace mtsample {

#ifdef MTSAMPLE_LINKED_GAME_ASSEMBLY
bool load_tracer(const std::string &, const std::string &, const GameLibrary &, Tracer &t, std::string &) {
    t = Tracer{nullptr,         "(linked in)",  mt_config_init,     mt_start,         mt_attach_il2cpp, mt_stop,
               mt_frame_end,    mt_set_thread_name, mt_get_counters, mt_status_string, mt_last_error,
               mt_mark};
    return true;
}
#else
namespace {

bool resolve_all(void *handle, const std::string &from, Tracer &t, std::string &error) {
    DlExports resolve{handle, from, error};
    resolve(t.config_init, "mt_config_init");
    resolve(t.start, "mt_start");
    resolve(t.attach_il2cpp, "mt_attach_il2cpp");
    resolve(t.stop, "mt_stop");
    resolve(t.frame_end, "mt_frame_end");
    resolve(t.set_thread_name, "mt_set_thread_name");
    resolve(t.get_counters, "mt_get_counters");
    resolve(t.status_string, "mt_status_string");
    resolve(t.last_error, "mt_last_error");
    resolve(t.mark, "mt_mark");
    t.handle = handle;
    t.from = from;
    return resolve.ok;
}

}  // namespace

bool load_tracer(const std::string &runtime, const std::string &runtime_lib, const GameLibrary &lib, Tracer &t,
                 std::string &error) {
    if (runtime == "in-game") return resolve_all(lib.handle, lib.path, t, error);
    std::string path = runtime_lib.empty() ? MTSAMPLE_RUNTIME_LIB : runtime_lib;
    // RTLD_LOCAL, as Android loads a plug-in: the runtime's exports stay out of the global scope.
    void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        error = std::string("cannot load the MemTracer runtime: ") + dlerror();
        return false;
    }
    return resolve_all(h, path, t, error);
}
#endif

}  // namespace mtsample
