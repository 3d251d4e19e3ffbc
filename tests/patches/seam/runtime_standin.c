/* runtime_standin.c — the MemTracer runtime reduced to its side of the seam: it defines
 * mt_on_alloc and reaches libil2cpp only through dlsym of il2cpp_memtracer_bridge (a system
 * call), as runtime/src/bridge.cpp does. Declarations instead of system headers. */
#include <stddef.h>
#include <memtracer/il2cpp_bridge.h>

#define API __attribute__((visibility("default")))
void *dlsym(void *handle, const char *symbol);
#define RTLD_DEFAULT ((void *)-2) /* Apple's value; only passed through here */

static unsigned long seen;
API void mt_on_alloc(void *obj, void *klass, size_t size) { (void)obj; (void)klass; seen += size; }

API int mt_standin_connect(void) {
    mt_il2cpp_bridge_fn fn = (mt_il2cpp_bridge_fn)dlsym(RTLD_DEFAULT, MT_IL2CPP_BRIDGE_SYMBOL);
    mt_il2cpp_bridge b = {sizeof b};
    return fn && fn(mt_on_alloc, &b) == MT_IL2CPP_BRIDGE_VERSION && b.gc_size != NULL;
}
