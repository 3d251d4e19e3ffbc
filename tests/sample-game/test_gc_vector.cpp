// The GC_gcj_vector_malloc stand-in on Debian's libgc: an array of structs holding strings keeps
// those strings alive through collections (they are reachable only through the array, so only
// the vector kind's mark procedure can keep them), and the array reaches MemTracer's profiler
// hook with libil2cpp's requested size.
#include <catch2/catch.hpp>

#include "il2cpp-class-internals.h"
#include "il2cpp-object-internals.h"

#include <gc/gc.h>

#include <cstdio>
#include <cstring>
#include <string>

extern "C" {
int il2cpp_init(const char *domain_name);
Il2CppClass *il2cpp_class_from_name(const Il2CppImage *image, const char *namespaze, const char *name);
Il2CppArray *il2cpp_array_new(Il2CppClass *element_class, il2cpp_array_size_t length);
Il2CppString *il2cpp_string_new(const char *str);
void il2cpp_gc_collect(int max_generations);
}

namespace {

struct PathNode {  // generated/Il2CppTypes.h's PathNode_t: 24 bytes, a reference at offset 16
    int32_t x, y;
    float cost;
    int32_t parent;
    Il2CppString *label;
};

constexpr uint32_t kNodes = 600;

std::string label_text(uint32_t i) {
    return "node-label-" + std::to_string(i * 7919u);
}

// Fills the labels in a frame of its own: once it returns, the array is their only holder.
__attribute__((noinline)) void fill_labels(Il2CppArray *array) {
    PathNode *nodes = reinterpret_cast<PathNode *>(reinterpret_cast<char *>(array) + kIl2CppSizeOfArray);
    for (uint32_t i = 0; i < kNodes; ++i) nodes[i].label = il2cpp_string_new(label_text(i).c_str());
}

__attribute__((noinline)) void churn() {
    for (int round = 0; round < 6; ++round) {
        for (int i = 0; i < 20000; ++i) il2cpp_string_new("garbage-garbage-garbage-garbage");
        il2cpp_gc_collect(0);
    }
}

bool label_is(const Il2CppString *s, const std::string &want) {
    if (!s || s->length != static_cast<int32_t>(want.size())) return false;
    for (size_t k = 0; k < want.size(); ++k)
        if (s->chars[k] != static_cast<Il2CppChar>(want[k])) return false;
    return true;
}

}  // namespace

TEST_CASE("arrays of structs with references keep their referents alive through collections") {
    REQUIRE(il2cpp_init("vector-test") == 1);
    Il2CppClass *path_node = il2cpp_class_from_name(nullptr, "", "PathNode");
    REQUIRE(path_node != nullptr);
    REQUIRE(path_node->valuetype);
    REQUIRE((reinterpret_cast<GC_word>(path_node->gc_desc) & 3) == 1);  // bitmap: the vector path

    // The only root is this uncollectable cell, so the array is found, then its elements only
    // through the mark procedure of the vector kind.
    Il2CppArray **root = static_cast<Il2CppArray **>(GC_MALLOC_UNCOLLECTABLE(sizeof(Il2CppArray *)));
    *root = il2cpp_array_new(path_node, kNodes);
    REQUIRE((*root)->max_length == kNodes);
    CHECK(GC_size(*root) >= kIl2CppSizeOfArray + kNodes * sizeof(PathNode));
    fill_labels(*root);

    const GC_word collections_before = GC_get_gc_no();
    churn();
    CHECK(GC_get_gc_no() >= collections_before + 6);

    PathNode *nodes = reinterpret_cast<PathNode *>(reinterpret_cast<char *>(*root) + kIl2CppSizeOfArray);
    uint32_t intact = 0;
    for (uint32_t i = 0; i < kNodes; ++i) intact += label_is(nodes[i].label, label_text(i));
    CHECK(intact == kNodes);
    GC_FREE(root);
}
