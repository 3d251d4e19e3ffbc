// The patched ALLOC_* macros of every fixture layout, compiled (alloc_paths.cpp) and run on the
// sample game's libil2cpp and real Boehm GC: each allocation keeps its original side effects
// (class and monitor stores, gcj vtable word, descriptor store) and reaches MemTracer as
// (object, class, requested size); the unpatched control reaches it not at all.
#include "fixture_registry.h"
#include "tree.h"

#include <catch2/catch.hpp>
#include <memtracer/memtracer.h>
#include <memtracer/reader.h>

#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"

#include <gc/gc.h>

#include <filesystem>
#include <map>
#include <tuple>

extern "C" {
int il2cpp_init(const char *domain_name);
const Il2CppImage *il2cpp_get_corlib();
Il2CppClass *il2cpp_class_from_name(const Il2CppImage *image, const char *namespaze, const char *name);
}

namespace mt::test {
std::vector<FixtureAllocators> &fixture_registry() {
    static std::vector<FixtureAllocators> v;
    return v;
}
}  // namespace mt::test

namespace fs = std::filesystem;
using namespace mt::test;

TEST_CASE("patched ALLOC_* macros of every layout keep their effects and report to MemTracer") {
    REQUIRE(il2cpp_init("patch-test") == 1);
    const Il2CppImage *corlib = il2cpp_get_corlib();
    Il2CppClass *string_class = il2cpp_class_from_name(corlib, "System", "String");
    Il2CppClass *object_class = il2cpp_class_from_name(corlib, "System", "Object");
    Il2CppClass *typed_class = il2cpp_class_from_name(corlib, "System.Text", "StringBuilder");
    REQUIRE((string_class && object_class && typed_class));
    REQUIRE((reinterpret_cast<GC_word>(typed_class->gc_desc) & 3) == 1);  // a GC_DS_BITMAP descriptor

    auto &fixtures = fixture_registry();
    REQUIRE(fixtures.size() == 14);  // 6 layouts x (gcj, no gcj) + the unpatched control x 2
    size_t wrapped = 0;
    for (const auto &f : fixtures) wrapped += f.wrapped;
    CHECK(wrapped == 12);

    fs::path dir = make_temp_dir("macros");
    std::string out = (dir / "run.mt").string();
    mt_config config;
    REQUIRE(mt_config_init(&config) == MT_OK);
    config.output_path = out.c_str();
    config.flags = 0;
    REQUIRE(mt_start(&config) == MT_OK);

    // Keeps every object reachable (an uncollectable root), so no address is reused mid-test.
    void **roots = static_cast<void **>(GC_MALLOC_UNCOLLECTABLE(sizeof(void *) * 3 * fixtures.size()));
    using Key = std::tuple<uint64_t, uint64_t, uint64_t>;  // address, klass, size
    std::map<Key, const FixtureAllocators *> expected;
    size_t n = 0;
    for (size_t i = 0; i < fixtures.size(); ++i) {
        const FixtureAllocators &f = fixtures[i];
        INFO(f.name << (f.gcj ? " gcj" : " no-gcj"));
        const size_t size = 40 + 8 * i;

        Il2CppObject *p = f.ptrfree(string_class, size);
        CHECK(p->klass == string_class);
        CHECK(p->monitor == nullptr);
        CHECK(GC_size(p) >= size);
        Il2CppObject *o = f.object(object_class, size + 1);
        CHECK(o->klass == object_class);
        CHECK(GC_size(o) >= size + 1);
        Il2CppObject *t = f.typed(typed_class, size + 2);
        CHECK(*reinterpret_cast<Il2CppClass **>(t) == typed_class);  // gcj vtable word or descriptor store
        CHECK(GC_size(t) >= size + 2);

        for (auto [obj, klass, sz] : {Key{(uint64_t)p, (uint64_t)string_class, size},
                                      Key{(uint64_t)o, (uint64_t)object_class, size + 1},
                                      Key{(uint64_t)t, (uint64_t)typed_class, size + 2}}) {
            roots[n++] = reinterpret_cast<void *>(obj);
            expected[Key{obj, klass, sz}] = &f;
        }
    }
    REQUIRE(mt_stop() == MT_OK);

    const mt::reader::Run run = mt::reader::load_file(out);
    REQUIRE(run.result.stop == mt::reader::Stop::End);
    std::map<Key, int> seen;
    for (const auto &frame : run.frames)
        for (const auto &e : frame.event_list) ++seen[Key{e.address, run.classes.at(e.class_id).klass, e.size}];

    for (const auto &[key, f] : expected) {
        INFO(f->name << (f->gcj ? " gcj" : " no-gcj") << " size " << std::get<2>(key));
        CHECK(seen[key] == (f->wrapped ? 1 : 0));
    }
    CHECK(run.result.counters.allocations_seen == 3 * wrapped);
    for (const auto &c : run.classes)
        if (c.klass == reinterpret_cast<uint64_t>(string_class)) CHECK(c.name == "String");
    GC_FREE(roots);
    fs::remove_all(dir);
}
