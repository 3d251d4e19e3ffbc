// hook_slot_bridge.h — a patched libil2cpp's hook slot, for the tests (hook_slot_bridge.cpp).
#pragma once

#include <memtracer/il2cpp_bridge.h>

#include "support.h"

namespace mtt {

// What libil2cpp's hook slot holds now.
mt_il2cpp_alloc_hook hook_slot();
// One allocation as a patched libil2cpp reports it: load the slot, call it if non-NULL.
void game_alloc(void *obj, FakeClass *klass, size_t size);

}  // namespace mtt
