// il2cpp_attach.h — the no-patch mode's view of il2cpp (internal to the runtime).
//
// Only the exported C API is used, found wherever libil2cpp is loaded (il2cpp_image.h); no Il2CppClass or
// Il2CppObject layout is baked in except the two object headers' sizes, which every libil2cpp
// read (5.3 to 6000.x) lays out the same: an object is (klass, monitor), an array adds (bounds,
// max_length) before its elements. Where il2cpp exports the sizes (6000.x:
// il2cpp_object_header_size, il2cpp_array_object_header_size) those are used instead.
#ifndef MEMTRACER_RT_IL2CPP_ATTACH_H
#define MEMTRACER_RT_IL2CPP_ATTACH_H

#include <stddef.h>
#include <stdint.h>

namespace mt::rt {

namespace il2cpp {

// Il2CppProfileFlags values (il2cpp-api-types.h, unchanged since Unity 5).
constexpr int kProfileAllocations = 1 << 7;
constexpr int kProfileGC = 1 << 8;

// The functions the attach needs, with the signatures il2cpp exports them with.
struct Api {
    // required
    void (*profiler_install)(void *prof, void (*shutdown)(void *prof));
    void (*profiler_set_events)(int events);
    void (*profiler_install_allocation)(void (*cb)(void *prof, void *obj, void *klass));
    int32_t (*class_instance_size)(void *klass);
    uint32_t (*array_length)(void *array);
    int (*array_element_size)(const void *array_class);
    int32_t (*string_length)(void *str);
    const void *(*get_corlib)();
    void *(*class_from_name)(const void *image, const char *name_space, const char *name);
    // optional: exact header sizes (6000.x), rank (2017+; else il2cpp_object_get_size is used)
    int (*class_get_rank)(const void *klass);
    uint32_t (*object_get_size)(void *obj);
    uint32_t (*object_header_size)();
    uint32_t (*array_object_header_size)();
    // optional: collections (il2cpp_profiler_install_gc with IL2CPP_PROFILE_GC)
    void (*profiler_install_gc)(void (*gc)(void *prof, int event, int generation),
                                void (*heap_resize)(void *prof, int64_t new_size));
    // optional: Boehm's state as il2cpp reports it (GC_get_heap_size, GC_is_incremental_mode,
    // GC_is_disabled), to tell the collection its profiler cannot forward (il2cpp_attach.cpp)
    int64_t (*gc_get_heap_size)();
    bool (*gc_is_incremental)();
    bool (*gc_is_disabled)();
};

// What libil2cpp allocated for obj of klass (see il2cpp_attach.cpp for the formulas).
size_t requested_size(const Api &api, void *string_class, size_t object_header, size_t array_header, void *obj,
                      void *klass);

}  // namespace il2cpp
}  // namespace mt::rt

#endif  // MEMTRACER_RT_IL2CPP_ATTACH_H
