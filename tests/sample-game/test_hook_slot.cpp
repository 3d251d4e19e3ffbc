// The sample game's patched GameAssembly (memtracer-patch-il2cpp's output, built from
// bdwgc-patches/memtracer_il2cpp_hooks.h) without the runtime: its bridge hands over
// set_alloc_hook, which empties and refills the hook slot the patched allocations call through;
// a caller with the older, shorter table gets no set_alloc_hook and the table is filled only
// that far.
#include <catch2/catch.hpp>

#include <memtracer/il2cpp_bridge.h>

#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"

#include <atomic>
#include <cstddef>
#include <cstring>

extern "C" {
int il2cpp_init(const char *domain_name);
Il2CppString *il2cpp_string_new(const char *str);
int il2cpp_memtracer_bridge(mt_il2cpp_alloc_hook hook, mt_il2cpp_bridge *out);
}

namespace {

std::atomic<int> g_calls{0};
void count_hook(void *, void *, size_t) { g_calls.fetch_add(1, std::memory_order_relaxed); }

int calls_for_strings(int n) {
    int before = g_calls.load();
    for (int i = 0; i < n; ++i) il2cpp_string_new("hook-slot");
    return g_calls.load() - before;
}

}  // namespace

TEST_CASE("patched GameAssembly: set_alloc_hook empties and refills the hook slot", "[hook_slot]") {
    REQUIRE(il2cpp_init("hook-slot-test") == 1);

    // An older runtime's table, one field short: filled that far, set_alloc_hook left alone.
    unsigned char raw[sizeof(mt_il2cpp_bridge) + 16];
    memset(raw, 0xAB, sizeof raw);
    auto *old_table = reinterpret_cast<mt_il2cpp_bridge *>(raw);
    memset(raw, 0, offsetof(mt_il2cpp_bridge, set_alloc_hook));
    old_table->struct_size = offsetof(mt_il2cpp_bridge, set_alloc_hook);
    REQUIRE(il2cpp_memtracer_bridge(&count_hook, old_table) == MT_IL2CPP_BRIDGE_VERSION);
    CHECK(old_table->struct_size == offsetof(mt_il2cpp_bridge, set_alloc_hook));
    CHECK(old_table->gc_size != nullptr);
    for (size_t i = offsetof(mt_il2cpp_bridge, set_alloc_hook); i < sizeof raw; ++i) CHECK(raw[i] == 0xAB);
    CHECK(calls_for_strings(10) == 10);  // the hook is installed all the same

    mt_il2cpp_bridge t{};
    t.struct_size = sizeof t;
    REQUIRE(il2cpp_memtracer_bridge(&count_hook, &t) == MT_IL2CPP_BRIDGE_VERSION);
    CHECK(t.struct_size == sizeof t);
    REQUIRE(t.set_alloc_hook != nullptr);
    CHECK(calls_for_strings(10) == 10);
    t.set_alloc_hook(nullptr);  // what the runtime does on pause and stop
    CHECK(calls_for_strings(10) == 0);
    t.set_alloc_hook(&count_hook);  // and on start and resume
    CHECK(calls_for_strings(10) == 10);
    t.set_alloc_hook(nullptr);
    CHECK(calls_for_strings(10) == 0);
}
