// il2cpp_image.cpp — image_symbol: the global scope, then each loaded image by its own handle.
#include "il2cpp_image.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#else
#include <link.h>
#endif

#include "memtracer/il2cpp_bridge.h"

namespace mt::rt {

namespace {

// Asks one image (by path; NULL: the main program) for anchor, then name.
void *from_image(const char *path, const char *anchor, const char *name) {
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return nullptr;
    void *found = dlsym(h, anchor) ? dlsym(h, name) : nullptr;
    dlclose(h);  // drops the reference RTLD_NOLOAD took; the game's own keeps the image loaded
    return found;
}

#if !defined(__APPLE__)
// The paths are copied out first: bionic's dl_iterate_phdr holds the lock dlopen needs.
struct Paths {
    char **v = nullptr;
    size_t n = 0, cap = 0;
    ~Paths() {
        for (size_t i = 0; i < n; ++i) free(v[i]);
        free(v);
    }
};

int collect(dl_phdr_info *info, size_t, void *ctx) {
    auto *p = static_cast<Paths *>(ctx);
    if (!info->dlpi_name || !info->dlpi_name[0]) return 0;  // the main program: asked separately
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        void *v = realloc(p->v, cap * sizeof(char *));
        if (!v) return 1;
        p->v = static_cast<char **>(v);
        p->cap = cap;
    }
    if (char *s = strdup(info->dlpi_name)) p->v[p->n++] = s;
    return 0;
}
#endif

}  // namespace

void *image_symbol(const char *anchor, const char *name) {
    if (dlsym(RTLD_DEFAULT, anchor)) {
        if (void *s = dlsym(RTLD_DEFAULT, name)) return s;
    }
#if defined(__APPLE__)
    uint32_t count = _dyld_image_count();
    for (uint32_t i = 0; i < count; ++i) {
        const char *path = _dyld_get_image_name(i);
        if (!path) continue;
        if (void *s = from_image(path, anchor, name)) return s;
    }
    return nullptr;
#else
    if (void *s = from_image(nullptr, anchor, name)) return s;
    Paths paths;
    dl_iterate_phdr(collect, &paths);
    for (size_t i = 0; i < paths.n; ++i)
        if (void *s = from_image(paths.v[i], anchor, name)) return s;
    return nullptr;
#endif
}

void *il2cpp_export(const char *name) {
    if (void *s = dlsym(RTLD_DEFAULT, name)) return s;  // exported to the global scope
    if (void *s = image_symbol("il2cpp_init", name)) return s;
    return image_symbol(MT_IL2CPP_BRIDGE_SYMBOL, name);
}

}  // namespace mt::rt
