/* il2cpp_api_standin.c — the il2cpp C API the bridge hands over, exported as libil2cpp does. */
#include <stddef.h>
#define API __attribute__((visibility("default")))
struct Il2CppClass { const char *name, *namespaze; int rank, element_size; unsigned char valuetype; };
API const char *il2cpp_class_get_name(struct Il2CppClass *k) { return k->name; }
API const char *il2cpp_class_get_namespace(struct Il2CppClass *k) { return k->namespaze; }
API const void *il2cpp_class_get_type(struct Il2CppClass *k) { return k; }
API char *il2cpp_type_get_name(const void *t) { return (char *)((const struct Il2CppClass *)t)->name; }
API void il2cpp_free(void *p) { (void)p; }
API int il2cpp_array_element_size(const struct Il2CppClass *k) { return k->element_size; }
API int il2cpp_class_get_rank(const struct Il2CppClass *k) { return k->rank; }
API _Bool il2cpp_class_is_valuetype(const struct Il2CppClass *k) { return k->valuetype; }
API int il2cpp_init(const char *domain) { (void)domain; return 1; }
