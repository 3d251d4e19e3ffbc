// noop.cpp — the runtime built with MEMTRACER_NOOP=ON: the same exported symbols, each doing
// nothing, so a shipping game can keep linking libmemtracer without recording anything.
#include "memtracer/memtracer.h"

extern "C" {
MT_API mt_status mt_config_init(mt_config *) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_start(const mt_config *) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_stop(void) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_pause(void) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_resume(void) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_frame_end(uint64_t) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_set_thread_name(const char *) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_name_thread(uint64_t, const char *) { return MT_ERR_NOOP_BUILD; }
MT_API void mt_on_alloc(void *, void *, size_t) {}
MT_API mt_status mt_mark(const char *) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_get_counters(mt_counters *) { return MT_ERR_NOOP_BUILD; }
MT_API const char *mt_status_string(mt_status) { return "MT_ERR_NOOP_BUILD: memtracer was compiled out"; }
MT_API const char *mt_last_error(void) { return "memtracer compiled out (MEMTRACER_NOOP)"; }
MT_API mt_status mt_set_il2cpp_class_api(const mt_il2cpp_class_api *) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_set_il2cpp_type_api(const mt_il2cpp_type_api *) { return MT_ERR_NOOP_BUILD; }
MT_API mt_status mt_attach_il2cpp(void) { return MT_ERR_NOOP_BUILD; }
MT_API void *mt_native_heap(const char *, const char *) { return nullptr; }
MT_API void mt_on_native_alloc(void *, void *, size_t, uint32_t) {}
MT_API void mt_on_native_free(void *) {}
}
