// fixture_registry.h — each compiled fixture block registers its three allocators here.
#pragma once

#include <stddef.h>

#include <string>
#include <vector>

struct Il2CppClass;
struct Il2CppObject;

namespace mt::test {

struct FixtureAllocators {
    const char *name;  // "2021.x", or "5.3.0f2 unpatched" for the control
    bool gcj;          // ALLOC_TYPED is GC_gcj_malloc (else GC_MALLOC + descriptor store)
    bool wrapped;      // the hooks header defined the ALLOC_* wrappers
    Il2CppObject *(*ptrfree)(Il2CppClass *, size_t);
    Il2CppObject *(*object)(Il2CppClass *, size_t);
    Il2CppObject *(*typed)(Il2CppClass *, size_t);
};

std::vector<FixtureAllocators> &fixture_registry();

struct FixtureRegistrar {
    explicit FixtureRegistrar(const FixtureAllocators &a) { fixture_registry().push_back(a); }
};

}  // namespace mt::test
