// classes.h — Il2CppClass* -> name, namespace, flags, through il2cpp's exported API (no struct
// layout baked in). Resolved on the writer thread, once per class.
//
// Names are the ones a C# programmer reads: il2cpp_type_get_name(il2cpp_class_get_type(k)), IL
// format ("System.Collections.Generic.List<Game.Enemy>", nested "Game.Outer.Inner", arrays
// "System.Int32[]"), freed with il2cpp_free; where a game lacks those, namespace + name. Within a
// capture no two classes get the same namespace.name: a repeat gets " [<image>]", then " #<n>".
// Internal to the runtime.
#ifndef MEMTRACER_RT_CLASSES_H
#define MEMTRACER_RT_CLASSES_H

#include <stddef.h>
#include <stdint.h>

#include "memtracer/memtracer.h"
#include "memtracer/trace_writer.h"

namespace mt::rt {

// The one place an il2cpp function is looked up by name: a patched libil2cpp's bridge, else the
// export of whichever loaded image is libil2cpp (il2cpp_image.h). NULL if absent.
void *il2cpp_resolve(const char *symbol);

void classes_lookup_api();     // mt_start: resolve the API, forget the last capture's names
void classes_end();            // mt_stop (writer joined): release the name set
void classes_set_given_api(const mt_il2cpp_class_api *api);  // NULL: dlsym only
bool classes_set_given_type_api(const mt_il2cpp_type_api *api);  // false: struct_size too small
bool classes_api_available();  // il2cpp_class_get_name found
bool classes_type_names_available();  // il2cpp_type_get_name + class_get_type + il2cpp_free found

// Fills rec (name/name_space point into buf; at least 512 bytes give room for long generic names).
// Writer thread only: it also records the name so that no later class repeats it.
void class_describe(uint64_t klass, trace::ClassRecord *rec, char *buf, size_t buf_size);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_CLASSES_H
