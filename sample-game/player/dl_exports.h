// dl_exports.h — looks a library's exports up in its own dlopen handle, as a player does with a
// library it loaded RTLD_LOCAL (dlsym(RTLD_DEFAULT) cannot see it). The first missing export
// becomes the error; the rest are still looked up so every pointer is set or null.
#pragma once

#include <dlfcn.h>

#include <string>
#include <type_traits>

namespace mtsample {

struct DlExports {
    void *handle;
    const std::string &from;  // the library, for the error
    std::string &error;
    bool ok = true;

    template <class Fn>
    void operator()(Fn &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<Fn>>(dlsym(handle, name));
        if (!fn && ok) {
            error = from + ": missing export " + name;
            ok = false;
        }
    }
};

}  // namespace mtsample
