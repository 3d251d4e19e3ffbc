// classes.cpp — class names through il2cpp_type_get_name & co. (see classes.h).
#include "classes.h"

#include <new>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "hashmap.h"
#include "il2cpp_image.h"
#include "native_heaps.h"
#include "errors.h"

namespace mt::rt {

namespace {

using NameFn = const char *(*)(void *);
using BoolFn = bool (*)(void *);
using IntFn = int (*)(void *);
using TypeFn = const void *(*)(void *);
using TypeNameFn = char *(*)(const void *);
using FreeFn = void (*)(void *);
using ImageNameFn = const char *(*)(const void *);

struct Api {
    NameFn get_name = nullptr;
    NameFn get_namespace = nullptr;
    BoolFn is_valuetype = nullptr;
    IntFn get_rank = nullptr;
    IntFn element_size = nullptr;
    TypeFn class_get_type = nullptr;
    TypeNameFn type_get_name = nullptr;
    FreeFn free_memory = nullptr;
    TypeFn class_get_image = nullptr;
    ImageNameFn image_get_name = nullptr;
} g_api;

// Given by the game through mt_set_il2cpp_class_api / _type_api; win over il2cpp_resolve member by member.
mt_il2cpp_class_api g_given{};
mt_il2cpp_type_api g_given_types{};

// Hashes of every "namespace.name" written in this capture (writer thread only; created at
// mt_start, released at mt_stop). A 64-bit hash collision can only add a needless suffix.
U64Map *g_names = nullptr;

// What the game handed over first, else il2cpp_resolve.
template <class F>
F pick(F given, const char *symbol) {
    return given ? given : reinterpret_cast<F>(il2cpp_resolve(symbol));
}

void copy(char *dst, size_t cap, const char *src) { snprintf(dst, cap, "%s", src ? src : ""); }

uint64_t fnv1a(uint64_t h, const char *s) {
    for (; *s; ++s) h = (h ^ static_cast<uint8_t>(*s)) * 0x100000001B3ull;
    return h;
}

// What the views show and Compare matches on: "namespace.name", or "name" (symbolizer full_name).
uint64_t display_hash(const char *ns, const char *name) {
    uint64_t h = 0xCBF29CE484222325ull;
    if (*ns) h = fnv1a(fnv1a(h, ns), ".");
    h = fnv1a(h, name);
    return h ? h : 1;  // U64Map keys are non-zero
}

// Writes `base` + `suffix` into name (capacity cap), cutting base so the suffix always fits.
void with_suffix(char *name, size_t cap, const char *base, size_t base_len, const char *suffix) {
    size_t slen = strlen(suffix);
    if (slen + 1 > cap) slen = cap - 1;
    size_t keep = base_len + slen + 1 > cap ? cap - 1 - slen : base_len;
    memmove(name, base, keep);
    memcpy(name + keep, suffix, slen);
    name[keep + slen] = 0;
}

const char *image_of(void *k) {
    if (!g_api.class_get_image || !g_api.image_get_name) return nullptr;
    const void *img = g_api.class_get_image(k);
    const char *name = img ? g_api.image_get_name(img) : nullptr;
    return name && *name ? name : nullptr;
}

// Makes ns.name unique in the capture. The first class keeps its name. A repeat from another
// image (the same type name in two assemblies) gets " [<image>]"; one from the same image (only
// where il2cpp_type_get_name is missing: every List`1 instance) gets " #2", " #3"... in the
// order the writer first meets them.
void make_unique(void *k, const char *ns, char *name, size_t cap) {
    if (!g_names) return;
    const char *image = image_of(k);
    uint32_t image_key = image ? static_cast<uint32_t>(fnv1a(0xCBF29CE484222325ull, image)) | 1u : 1u;
    uint64_t h = display_hash(ns, name);
    uint32_t holder_image;
    if (g_names->find(h, &holder_image)) {
        char base[512];
        size_t base_len = strlen(name);
        if (base_len >= sizeof base) base_len = sizeof base - 1;
        memcpy(base, name, base_len);
        base[base_len] = 0;
        char suffix[96];
        bool found = false;
        uint32_t unused;
        if (image && holder_image != image_key) {
            snprintf(suffix, sizeof suffix, " [%s]", image);
            with_suffix(name, cap, base, base_len, suffix);
            h = display_hash(ns, name);
            found = !g_names->find(h, &unused);
        }
        for (uint32_t n = 2; !found; ++n) {
            snprintf(suffix, sizeof suffix, " #%u", n);
            with_suffix(name, cap, base, base_len, suffix);
            h = display_hash(ns, name);
            found = !g_names->find(h, &unused);
        }
    }
    g_names->insert(h, image_key);  // out of memory: names stay as they are, the capture goes on
}

// name := the IL name without its "namespace." prefix, so that namespace + "." + name (what every
// reader shows) is exactly the IL name. A name not under ns (a nested type: il2cpp gives it an
// empty namespace) is kept whole with ns emptied. False if the game has no type-name API.
bool il_name(void *k, char *ns, char *name, size_t name_cap) {
    if (!g_api.class_get_type || !g_api.type_get_name || !g_api.free_memory) return false;
    const void *type = g_api.class_get_type(k);
    char *full = type ? g_api.type_get_name(type) : nullptr;
    if (!full) return false;
    size_t ns_len = strlen(ns);
    const char *rest = full;
    if (ns_len && strncmp(full, ns, ns_len) == 0 && full[ns_len] == '.' && full[ns_len + 1])
        rest = full + ns_len + 1;
    else if (ns_len)
        ns[0] = 0;
    size_t len = strlen(rest);
    if (len + 1 > name_cap && name_cap > 4) {  // cut, and say so; make_unique keeps it distinct
        memcpy(name, rest, name_cap - 4);
        memcpy(name + name_cap - 4, "...", 4);
    } else {
        copy(name, name_cap, rest);
    }
    g_api.free_memory(full);
    return true;
}

}  // namespace

// A patched libil2cpp's bridge first (works with il2cpp's exports hidden), else the export
// from wherever libil2cpp is loaded (il2cpp_image.h).
void *il2cpp_resolve(const char *symbol) {
    void *f = bridge_connect() ? bridge_il2cpp_function(symbol) : nullptr;
    return f ? f : il2cpp_export(symbol);
}

void classes_lookup_api() {
    g_api.get_name = pick<NameFn>(g_given.get_name, "il2cpp_class_get_name");
    g_api.get_namespace = pick<NameFn>(g_given.get_namespace, "il2cpp_class_get_namespace");
    g_api.is_valuetype = pick<BoolFn>(nullptr, "il2cpp_class_is_valuetype");
    g_api.get_rank = pick<IntFn>(nullptr, "il2cpp_class_get_rank");
    // il2cpp_array_element_size(array class) is the size of that array's elements;
    // il2cpp_class_array_element_size(klass) is the size klass takes *as* an element, which for
    // an array class is a pointer. Only the first answers "how big is a Char[]'s element".
    g_api.element_size = pick<IntFn>(g_given.array_element_size, "il2cpp_array_element_size");
    g_api.class_get_type = pick<TypeFn>(g_given_types.class_get_type, "il2cpp_class_get_type");
    g_api.type_get_name = pick<TypeNameFn>(g_given_types.type_get_name, "il2cpp_type_get_name");
    g_api.free_memory = pick<FreeFn>(g_given_types.free_memory, "il2cpp_free");
    g_api.class_get_image = pick<TypeFn>(g_given_types.class_get_image, "il2cpp_class_get_image");
    g_api.image_get_name = pick<ImageNameFn>(g_given_types.image_get_name, "il2cpp_image_get_name");
    classes_end();
    void *mem = malloc(sizeof(U64Map));
    g_names = mem ? new (mem) U64Map() : nullptr;  // none: names are written without the check
}

void classes_end() {
    if (!g_names) return;
    g_names->~U64Map();
    free(g_names);
    g_names = nullptr;
}

void classes_set_given_api(const mt_il2cpp_class_api *api) { g_given = api ? *api : mt_il2cpp_class_api{}; }

bool classes_set_given_type_api(const mt_il2cpp_type_api *api) {
    constexpr size_t kFirstVersion = offsetof(mt_il2cpp_type_api, image_get_name) + sizeof(void *);
    if (api && api->struct_size < kFirstVersion) return false;
    g_given_types = mt_il2cpp_type_api{};
    if (api) memcpy(&g_given_types, api, api->struct_size < sizeof *api ? api->struct_size : sizeof *api);
    return true;
}

bool classes_api_available() { return g_api.get_name != nullptr; }

bool classes_type_names_available() {
    return g_api.class_get_type && g_api.type_get_name && g_api.free_memory;
}

void class_describe(uint64_t klass, trace::ClassRecord *rec, char *buf, size_t buf_size) {
    if (native_heap_describe(klass, rec, buf, buf_size)) return;  // mt_native_heap's handles
    // The namespace is short; the name (a generic instance's IL name) gets the rest.
    size_t ns_cap = buf_size / 4;
    char *ns = buf, *name = buf + ns_cap;
    size_t name_cap = buf_size - ns_cap;
    void *k = reinterpret_cast<void *>(klass);
    rec->klass = klass;
    rec->flags = 0;
    rec->element_size = 0;
    if (!g_api.get_name || !klass) {
        snprintf(name, name_cap, "0x%llx", static_cast<unsigned long long>(klass));
        ns[0] = 0;
        rec->flags = MT_CLASS_UNRESOLVED;
    } else {
        copy(ns, ns_cap, g_api.get_namespace ? g_api.get_namespace(k) : "");
        char short_name[256];
        copy(short_name, sizeof short_name, g_api.get_name(k));
        size_t n = strlen(short_name);
        // IL2CPP names array classes "Int32[]" / "Int32[,]"; rank, where exported, is exact.
        bool array = g_api.get_rank ? g_api.get_rank(k) > 0 : (n > 2 && short_name[n - 1] == ']');
        if (array) {
            rec->flags |= MT_CLASS_ARRAY;
            if (g_api.element_size) {
                int es = g_api.element_size(k);
                rec->element_size = es > 0 ? static_cast<uint64_t>(es) : 0;
            }
        }
        if (strcmp(short_name, "String") == 0 && strcmp(ns, "System") == 0) rec->flags |= MT_CLASS_STRING;
        if (!array && g_api.is_valuetype && g_api.is_valuetype(k)) rec->flags |= MT_CLASS_VALUE_TYPE;
        if (!il_name(k, ns, name, name_cap)) copy(name, name_cap, short_name);
        make_unique(k, ns, name, name_cap);
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

extern "C" MT_API mt_status mt_set_il2cpp_type_api(const mt_il2cpp_type_api *api) {
    if (!mt::rt::classes_set_given_type_api(api)) {
        mt::rt::set_last_error("MT_ERR_ARGUMENT: mt_set_il2cpp_type_api: struct_size %u is smaller than the struct",
                               api->struct_size);
        return MT_ERR_ARGUMENT;
    }
    return MT_OK;
}
