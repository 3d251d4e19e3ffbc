// classes.h — Il2CppClass* -> name, namespace, flags, through il2cpp's exported API looked up
// with dlsym at mt_start (no struct layout baked in). Resolved on the writer thread, once per
// class. Internal to the runtime.
#ifndef MEMTRACER_RT_CLASSES_H
#define MEMTRACER_RT_CLASSES_H

#include <stddef.h>
#include <stdint.h>

#include "memtracer/memtracer.h"
#include "trace_writer.h"

namespace mt::rt {

void classes_lookup_api();     // mt_start
void classes_set_given_api(const mt_il2cpp_class_api *api);  // NULL: dlsym only
bool classes_api_available();  // il2cpp_class_get_name found

// Fills rec (name/name_space point into buf, which holds at least 2 * 256 bytes).
void class_describe(uint64_t klass, ClassRecord *rec, char *buf, size_t buf_size);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_CLASSES_H
