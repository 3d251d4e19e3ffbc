// hook_slot_bridge.cpp — a patched libil2cpp's hook slot and bridge (memtracer/il2cpp_bridge.h),
// as bdwgc-patches/memtracer_il2cpp_hooks.h defines them, without Boehm: the slot is loaded
// relaxed and called if non-NULL after every allocation (game_alloc), and the bridge hands over
// set_alloc_hook. Built with MT_TEST_OLD_BRIDGE it is a patch from before set_alloc_hook: it
// fills the table only up to that field, as the real bridge does for a shorter struct.
#include "hook_slot_bridge.h"

#include <atomic>
#include <stddef.h>
#include <string.h>

namespace {
std::atomic<mt_il2cpp_alloc_hook> g_slot{nullptr};

void set_alloc_hook(mt_il2cpp_alloc_hook hook) { g_slot.store(hook, std::memory_order_release); }
}  // namespace

namespace mtt {

mt_il2cpp_alloc_hook hook_slot() { return g_slot.load(std::memory_order_acquire); }

void game_alloc(void *obj, FakeClass *klass, size_t size) {
    mt_il2cpp_alloc_hook h = g_slot.load(std::memory_order_relaxed);  // MEMTRACER_IL2CPP_ON_ALLOC
    if (h) h(obj, klass, size);
}

}  // namespace mtt

extern "C" __attribute__((visibility("default"))) int il2cpp_memtracer_bridge(mt_il2cpp_alloc_hook hook,
                                                                               mt_il2cpp_bridge *out) {
    if (!out || out->struct_size < 2 * sizeof(uint32_t)) return 0;
    mt_il2cpp_bridge b{};
#if defined(MT_TEST_OLD_BRIDGE)
    constexpr size_t kKnown = offsetof(mt_il2cpp_bridge, set_alloc_hook);
#else
    constexpr size_t kKnown = sizeof(mt_il2cpp_bridge);
    b.set_alloc_hook = &set_alloc_hook;
#endif
    b.struct_size = static_cast<uint32_t>(out->struct_size < kKnown ? out->struct_size : kKnown);
    b.version = MT_IL2CPP_BRIDGE_VERSION;
    memcpy(out, &b, b.struct_size);
    g_slot.store(hook, std::memory_order_release);
    return MT_IL2CPP_BRIDGE_VERSION;
}
