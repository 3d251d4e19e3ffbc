// classes.cpp — class names through il2cpp_class_get_name & co. (see classes.h).
#include "classes.h"

#include "bridge.h"
#include "il2cpp_image.h"
#include <stdio.h>
#include <string.h>

namespace mt::rt {

namespace {

using NameFn = const char *(*)(void *);
using BoolFn = bool (*)(void *);
using IntFn = int (*)(void *);
using PtrFn = void *(*)(void *);

struct Api {
    NameFn get_name = nullptr;
    NameFn get_namespace = nullptr;
    BoolFn is_valuetype = nullptr;
    IntFn get_rank = nullptr;
    IntFn element_size = nullptr;
} g_api;

// Given by the game through mt_set_il2cpp_class_api; wins over dlsym member by member.
mt_il2cpp_class_api g_given{};

// A patched libil2cpp's bridge first (works with il2cpp's exports hidden), else the export
// from wherever libil2cpp is loaded (il2cpp_image.h).
template <class F>
F sym(const char *name) {
    void *f = bridge_connect() ? bridge_il2cpp_function(name) : nullptr;
    return reinterpret_cast<F>(f ? f : il2cpp_export(name));
}

void copy(char *dst, size_t cap, const char *src) {
    snprintf(dst, cap, "%s", src ? src : "");
}

}  // namespace

void classes_lookup_api() {
    g_api.get_name = sym<NameFn>("il2cpp_class_get_name");
    g_api.get_namespace = sym<NameFn>("il2cpp_class_get_namespace");
    g_api.is_valuetype = sym<BoolFn>("il2cpp_class_is_valuetype");
    g_api.get_rank = sym<IntFn>("il2cpp_class_get_rank");
    // il2cpp_array_element_size(array class) is the size of that array's elements;
    // il2cpp_class_array_element_size(klass) is the size klass takes *as* an element, which for
    // an array class is a pointer. Only the first answers "how big is a Char[]'s element".
    g_api.element_size = sym<IntFn>("il2cpp_array_element_size");
    if (g_given.get_name) g_api.get_name = g_given.get_name;
    if (g_given.get_namespace) g_api.get_namespace = g_given.get_namespace;
    if (g_given.array_element_size) g_api.element_size = g_given.array_element_size;
}

void classes_set_given_api(const mt_il2cpp_class_api *api) { g_given = api ? *api : mt_il2cpp_class_api{}; }

bool classes_api_available() { return g_api.get_name != nullptr; }

void class_describe(uint64_t klass, ClassRecord *rec, char *buf, size_t buf_size) {
    size_t half = buf_size / 2;
    char *name = buf, *ns = buf + half;
    void *k = reinterpret_cast<void *>(klass);
    rec->klass = klass;
    rec->flags = 0;
    rec->element_size = 0;
    if (!g_api.get_name || !klass) {
        snprintf(name, half, "0x%llx", static_cast<unsigned long long>(klass));
        ns[0] = 0;
        rec->flags = MT_CLASS_UNRESOLVED;
    } else {
        copy(name, half, g_api.get_name(k));
        copy(ns, half, g_api.get_namespace ? g_api.get_namespace(k) : "");
        size_t n = strlen(name);
        // IL2CPP names array classes "Int32[]" / "Int32[,]"; rank, where exported, is exact.
        bool array = g_api.get_rank ? g_api.get_rank(k) > 0 : (n > 2 && name[n - 1] == ']');
        if (array) {
            rec->flags |= MT_CLASS_ARRAY;
            if (g_api.element_size) {
                int es = g_api.element_size(k);
                rec->element_size = es > 0 ? static_cast<uint64_t>(es) : 0;
            }
        }
        if (strcmp(name, "String") == 0 && strcmp(ns, "System") == 0) rec->flags |= MT_CLASS_STRING;
        if (!array && g_api.is_valuetype && g_api.is_valuetype(k)) rec->flags |= MT_CLASS_VALUE_TYPE;
    }
    rec->name = name;
    rec->name_space = ns;
}

}  // namespace mt::rt

// Only copies: the capture reads it at its next mt_start, so a call during a capture is safe.
extern "C" MT_API mt_status mt_set_il2cpp_class_api(const mt_il2cpp_class_api *api) {
    mt::rt::classes_set_given_api(api);
    return MT_OK;
}
