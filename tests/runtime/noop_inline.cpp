// Compiled with MT_NOOP: every call is an inline no-op from the header itself.
#define MT_NOOP
#include "memtracer/memtracer.h"

mt_status noop_inline_start() {
    mt_config c;
    mt_on_alloc(nullptr, nullptr, 1);
    if (mt_frame_end(0) != MT_ERR_NOOP_BUILD) return MT_OK;
    if (mt_set_il2cpp_type_api(nullptr) != MT_ERR_NOOP_BUILD) return MT_OK;
    return mt_start(&c);
}
