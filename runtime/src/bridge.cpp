// bridge.cpp — connecting to a patched libil2cpp through il2cpp_memtracer_bridge (see bridge.h).
#include "bridge.h"

#include <pthread.h>
#include <string.h>

#include "il2cpp_image.h"
#include "memtracer/format.h"
#include "memtracer/memtracer.h"
#include "state.h"

namespace mt::rt {

std::atomic<size_t (*)(const void *)> g_gc_size{nullptr};
std::atomic<int> g_gc_size_source{GC_SIZE_REQUESTED};

namespace {

pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
mt_il2cpp_bridge g_table{};
std::atomic<bool> g_connected{false};
bool g_recording = false;  // under g_mu (bridge_set_recording)

// Puts what g_recording asks for in libil2cpp's hook slot, if the patch lets us. A capture the
// writer disabled stays cleared even if an mt_resume raced with it (g.disabled is stored before
// the writer clears the slot, both under g_mu's order).
void apply_hook_locked() {
    if (!g_connected.load(std::memory_order_relaxed) || !g_table.set_alloc_hook) return;
    bool on = g_recording && !g.disabled.load(std::memory_order_acquire);
    g_table.set_alloc_hook(on ? &mt_on_alloc : nullptr);
}

}  // namespace

bool bridge_connect() {
    if (g_connected.load(std::memory_order_acquire)) return true;
    pthread_mutex_lock(&g_mu);
    if (!g_connected.load(std::memory_order_relaxed)) {
        auto fn = reinterpret_cast<mt_il2cpp_bridge_fn>(image_symbol(MT_IL2CPP_BRIDGE_SYMBOL, MT_IL2CPP_BRIDGE_SYMBOL));
        mt_il2cpp_bridge t{};
        t.struct_size = sizeof t;
        if (fn && fn(&mt_on_alloc, &t) >= 1) {
            // A shorter table (an older patch) leaves the fields it does not know NULL.
            memcpy(&g_table, &t, t.struct_size <= sizeof t ? t.struct_size : sizeof t);
            if (g_table.gc_size) {
                g_gc_size.store(g_table.gc_size, std::memory_order_release);
                g_gc_size_source.store(GC_SIZE_EXACT, std::memory_order_release);
            }
            g_connected.store(true, std::memory_order_release);
            apply_hook_locked();  // the bridge call installed the hook: clear it if not recording
        }
    }
    pthread_mutex_unlock(&g_mu);
    return g_connected.load(std::memory_order_acquire);
}

void bridge_set_recording(bool on) {
    pthread_mutex_lock(&g_mu);
    g_recording = on;
    apply_hook_locked();
    pthread_mutex_unlock(&g_mu);
}

bool bridge_can_clear_hook() { return bridge().set_alloc_hook != nullptr; }

bool bridge_connected() { return g_connected.load(std::memory_order_acquire); }

const mt_il2cpp_bridge &bridge() {
    static const mt_il2cpp_bridge empty{};
    return g_connected.load(std::memory_order_acquire) ? g_table : empty;
}

void *bridge_il2cpp_function(const char *name) {
    const mt_il2cpp_bridge &b = bridge();
    struct Entry {
        const char *name;
        void *fn;
    } const table[] = {
        {"il2cpp_class_get_name", reinterpret_cast<void *>(b.class_get_name)},
        {"il2cpp_class_get_namespace", reinterpret_cast<void *>(b.class_get_namespace)},
        {"il2cpp_class_get_type", reinterpret_cast<void *>(b.class_get_type)},
        {"il2cpp_type_get_name", reinterpret_cast<void *>(b.type_get_name)},
        {"il2cpp_free", reinterpret_cast<void *>(b.il2cpp_free)},
        {"il2cpp_array_element_size", reinterpret_cast<void *>(b.array_element_size)},
        {"il2cpp_class_get_rank", reinterpret_cast<void *>(b.class_get_rank)},
        {"il2cpp_class_is_valuetype", reinterpret_cast<void *>(b.class_is_valuetype)},
    };
    for (const Entry &e : table)
        if (strcmp(e.name, name) == 0) return e.fn;
    return nullptr;
}

void gc_size_estimate_enable() {
    int expected = GC_SIZE_REQUESTED;
    g_gc_size_source.compare_exchange_strong(expected, GC_SIZE_ESTIMATED, std::memory_order_acq_rel);
}

uint32_t gc_source_frame_flags() {
    switch (g_gc_size_source.load(std::memory_order_acquire)) {
    case GC_SIZE_EXACT: return MT_FRAME_GC_SIZE_EXACT;
    case GC_SIZE_ESTIMATED: return MT_FRAME_GC_SIZE_ESTIMATED;
    default: return 0;
    }
}

uint64_t boehm_size_estimate(uint64_t requested) {
    constexpr uint64_t kGranule = 2 * sizeof(void *);       // GRANULE_BYTES
    constexpr uint64_t kBlock = 4096;                       // HBLKSIZE
    constexpr uint64_t kBlockGranules = kBlock / kGranule;  // HBLK_GRANULES
    constexpr uint64_t kTinyFreelists = sizeof(void *) == 8 ? 25 : 33;  // TINY_FREELISTS
    uint64_t granules = (requested + 1 + kGranule - 1) / kGranule;       // EXTRA_BYTES = 1
    if (granules >= kTinyFreelists && granules * kGranule <= kBlock / 2) {  // small, not tiny
        granules = (granules + 1) & ~uint64_t{1};
        granules = (kBlockGranules / (kBlockGranules / granules)) & ~uint64_t{1};
    }
    return granules * kGranule;
}

}  // namespace mt::rt
