// il2cpp_types_fixture.cpp — a shared library that exports il2cpp's class and type-name API over
// a small type universe, shaped like the real one so the runtime meets what a player gives it:
//
// * il2cpp_class_get_name / _get_namespace answer what Il2CppClass holds: a generic instance is
//   "List`1" in "System.Collections.Generic" whatever its arguments, a nested type has an empty
//   namespace, an array class is named after its element ("Int32[]") in the element's namespace.
// * il2cpp_type_get_name returns a fresh il2cpp_alloc'd string that il2cpp_free releases, in the
//   IL format of libil2cpp's vm/Type.cpp GetNameInternal (read in js6pak/libil2cpp-archive,
//   6000.0.20; same rules since 5.3.0b2, see docs/il2cpp-notes.md): namespace + '.', declaring
//   type + '.' for a nested one (formatted without its generic arguments), the `N arity cut off,
//   generic arguments as IL full names in <...> joined by ',' without spaces, "[]" for a
//   single-dimension zero-based array, "[*]" for a rank-1 general array, "[,]" for rank 2.
//   Written from that reading, not copied.
//
// MT_FIXTURE_NO_TYPE_API builds the same library without the type-name exports (a game whose
// il2cpp lacks them, or strips them), so the runtime's namespace + name fallback is exercised.
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <string>

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct Image {
    const char *name;
};

struct Class;

// Il2CppType, reduced: the class a type stands for (the runtime only passes it back to us).
struct Type {
    const Class *klass;
};

enum Kind { PLAIN, GENERIC_INST, SZARRAY, MDARRAY };

struct Class {
    const char *name;
    const char *namespaze;
    const Image *image;
    Kind kind;
    const Class *declaring;  // nested types
    const Class *def;        // GENERIC_INST: the generic type definition
    const Class *args[2];    // GENERIC_INST arguments
    int argc;
    const Class *element;    // arrays
    int rank;
    bool valuetype;
    int element_size;        // il2cpp_array_element_size of an array class
    Type byval_arg;
};

Image kCorlib{"mscorlib.dll"};
Image kGame{"Assembly-CSharp.dll"};
Image kFirstpass{"Assembly-CSharp-firstpass.dll"};

std::atomic<long> g_live_names{0};  // il2cpp_type_get_name strings not yet given to il2cpp_free

void append_il_name(std::string &s, const Class *k, bool is_nested);

void append_array(std::string &s, const Class *k) {
    append_il_name(s, k->element, false);
    if (k->kind == SZARRAY) {
        s += "[]";
        return;
    }
    s += '[';
    if (k->rank == 1) s += '*';
    for (int i = 1; i < k->rank; ++i) s += ',';
    s += ']';
}

// The IL format: see the header comment for where each rule was read.
void append_il_name(std::string &s, const Class *k, bool is_nested) {
    if (k->kind == SZARRAY || k->kind == MDARRAY) return append_array(s, k);
    const Class *named = k->kind == GENERIC_INST ? k->def : k;
    if (named->declaring) {
        append_il_name(s, named->declaring, true);
        s += '.';
    } else if (*named->namespaze) {
        s += named->namespaze;
        s += '.';
    }
    const char *tick = strchr(named->name, '`');
    s.append(named->name, tick ? static_cast<size_t>(tick - named->name) : strlen(named->name));
    if (is_nested || k->kind != GENERIC_INST) return;
    s += '<';
    for (int i = 0; i < k->argc; ++i) {
        if (i) s += ',';
        append_il_name(s, k->args[i], false);
    }
    s += '>';
}

}  // namespace

// The universe. Names and namespaces as Il2CppClass holds them.
namespace fx {
Class Int32{"Int32", "System", &kCorlib, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, true, 0, {}};
Class String{"String", "System", &kCorlib, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class ListDef{"List`1", "System.Collections.Generic", &kCorlib, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class DictDef{"Dictionary`2", "System.Collections.Generic", &kCorlib, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class Enemy{"Enemy", "", &kGame, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class EnemyFirstpass{"Enemy", "", &kFirstpass, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class Outer{"Outer", "Game", &kGame, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class Other{"Other", "Game", &kGame, PLAIN, nullptr, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class OuterInner{"Inner", "", &kGame, PLAIN, &Outer, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class OtherInner{"Inner", "", &kGame, PLAIN, &Other, nullptr, {}, 0, nullptr, 0, false, 0, {}};
Class ListEnemy{"List`1", "System.Collections.Generic", &kCorlib, GENERIC_INST, nullptr, &ListDef, {&Enemy}, 1,
                nullptr, 0, false, 0, {}};
Class ListInt{"List`1", "System.Collections.Generic", &kCorlib, GENERIC_INST, nullptr, &ListDef, {&Int32}, 1,
              nullptr, 0, false, 0, {}};
Class DictStringListEnemy{"Dictionary`2", "System.Collections.Generic", &kCorlib, GENERIC_INST, nullptr, &DictDef,
                          {&String, &ListEnemy}, 2, nullptr, 0, false, 0, {}};
Class IntArray{"Int32[]", "System", &kCorlib, SZARRAY, nullptr, nullptr, {}, 0, &Int32, 1, false, 4, {}};
Class IntArrayRank1{"Int32[*]", "System", &kCorlib, MDARRAY, nullptr, nullptr, {}, 0, &Int32, 1, false, 4, {}};
Class IntMatrix{"Int32[,]", "System", &kCorlib, MDARRAY, nullptr, nullptr, {}, 0, &Int32, 2, false, 4, {}};
Class ListEnemyArray{"List`1[]", "System.Collections.Generic", &kCorlib, SZARRAY, nullptr, nullptr, {}, 0,
                     &ListEnemy, 1, false, 8, {}};
}  // namespace fx

// Test side: the classes by a short key, and the count of names not yet freed.
EXPORT void *fixture_class(const char *key) {
    static const struct {
        const char *key;
        Class *k;
    } all[] = {{"Int32", &fx::Int32}, {"String", &fx::String}, {"Enemy", &fx::Enemy},
               {"EnemyFirstpass", &fx::EnemyFirstpass}, {"Outer.Inner", &fx::OuterInner},
               {"Other.Inner", &fx::OtherInner}, {"List<Enemy>", &fx::ListEnemy}, {"List<Int32>", &fx::ListInt},
               {"Dictionary<String,List<Enemy>>", &fx::DictStringListEnemy}, {"Int32[]", &fx::IntArray},
               {"Int32[*]", &fx::IntArrayRank1}, {"Int32[,]", &fx::IntMatrix},
               {"List<Enemy>[]", &fx::ListEnemyArray}};
    for (const auto &e : all)
        if (strcmp(e.key, key) == 0) {
            e.k->byval_arg.klass = e.k;
            return e.k;
        }
    return nullptr;
}

EXPORT long fixture_live_names() { return g_live_names.load(); }

// il2cpp's class API.
EXPORT const char *il2cpp_class_get_name(void *k) { return static_cast<Class *>(k)->name; }
EXPORT const char *il2cpp_class_get_namespace(void *k) { return static_cast<Class *>(k)->namespaze; }
EXPORT bool il2cpp_class_is_valuetype(void *k) { return static_cast<Class *>(k)->valuetype; }
EXPORT int il2cpp_class_get_rank(void *k) { return static_cast<Class *>(k)->rank; }
EXPORT int il2cpp_array_element_size(void *k) { return static_cast<Class *>(k)->element_size; }
EXPORT const void *il2cpp_class_get_image(void *k) { return static_cast<Class *>(k)->image; }
EXPORT const char *il2cpp_image_get_name(const void *image) { return static_cast<const Image *>(image)->name; }

#ifndef MT_FIXTURE_NO_TYPE_API
EXPORT const void *il2cpp_class_get_type(void *k) {
    Class *c = static_cast<Class *>(k);
    c->byval_arg.klass = c;
    return &c->byval_arg;
}

// As libil2cpp: the name is built, then copied into il2cpp_alloc'd memory the caller frees.
EXPORT char *il2cpp_type_get_name(const void *type) {
    std::string s;
    append_il_name(s, static_cast<const Type *>(type)->klass, false);
    char *out = static_cast<char *>(malloc(s.size() + 1));
    memcpy(out, s.c_str(), s.size() + 1);
    g_live_names.fetch_add(1);
    return out;
}

EXPORT void il2cpp_free(void *p) {
    if (p) g_live_names.fetch_sub(1);
    free(p);
}
#endif
