// Platform defects: a loader whose dl_phdr_info has no dlpi_adds (bionic before Android 11), and
// ring memory across repeated captures with and without a provable quiescence (Apple has no
// process-wide barrier: there mt_stop must keep the rings for reuse, not drop them).
#include <catch2/catch.hpp>

#include <link.h>
#include <pthread.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lifecycle.h"
#include "modules.h"
#include "state.h"
#include "support.h"

using namespace mtt;

namespace {

int copy_entries(dl_phdr_info *info, size_t size, void *arg) {
    auto *out = static_cast<std::vector<dl_phdr_info> *>(arg);
    dl_phdr_info copy{};
    memcpy(&copy, info, size < sizeof copy ? size : sizeof copy);
    out->push_back(copy);
    return 0;
}

std::vector<dl_phdr_info> loaded_images() {
    std::vector<dl_phdr_info> v;
    dl_iterate_phdr(copy_entries, &v);
    return v;
}

// What a pre-Android-11 loader passes: only the original four fields exist, so the callback is
// given exactly that many bytes. On the heap and exactly that size, so under AddressSanitizer
// any read of dlpi_adds is a reported overflow.
uint64_t generation_with_truncated_size(const std::vector<dl_phdr_info> &images) {
    const size_t truncated = offsetof(dl_phdr_info, dlpi_adds);
    mt::rt::PhdrGeneration gen;
    for (const auto &img : images) {
        auto *old_layout = static_cast<dl_phdr_info *>(malloc(truncated));
        memcpy(old_layout, &img, truncated);
        CHECK(mt::rt::phdr_generation_cb(old_layout, truncated, &gen) == 0);  // must see every image
        free(old_layout);
    }
    CHECK_FALSE(gen.have_adds);
    return gen.value();
}

}  // namespace

TEST_CASE("dl_iterate_phdr without dlpi_adds: the size argument is checked, the fallback tracks the image set",
          "[modules]") {
    std::vector<dl_phdr_info> images = loaded_images();
    REQUIRE(!images.empty());
    if (images.size() < 2) {  // a static executable (the arm64 stage) is one image: the checks
        dl_phdr_info second = images[0];  // below need a list of two, not two real libraries
        second.dlpi_addr += 0x40000000;
        images.push_back(second);
    }
    CHECK(mt::rt::phdr_has_adds(sizeof(dl_phdr_info)));
    CHECK_FALSE(mt::rt::phdr_has_adds(offsetof(dl_phdr_info, dlpi_adds)));
    CHECK_FALSE(mt::rt::phdr_has_adds(offsetof(dl_phdr_info, dlpi_adds) + sizeof(images[0].dlpi_adds) - 1));

    // A full-size entry whose dlpi_adds holds a poison value, handed over with the short size:
    // the poison must not reach the generation.
    dl_phdr_info poisoned = images[0];
    poisoned.dlpi_adds = 0xDEADBEEFCAFEull;
    mt::rt::PhdrGeneration g1;
    mt::rt::phdr_generation_cb(&poisoned, offsetof(dl_phdr_info, dlpi_adds), &g1);
    CHECK(g1.value() != 0xDEADBEEFCAFEull);
    mt::rt::PhdrGeneration g2;
    mt::rt::phdr_generation_cb(&poisoned, sizeof poisoned, &g2);  // a loader that has the field
    CHECK(g2.have_adds);
    CHECK(g2.value() == 0xDEADBEEFCAFEull);

    // Fallback: the same image list gives the same generation; one image more or one moved, not.
    uint64_t same_a = generation_with_truncated_size(images);
    uint64_t same_b = generation_with_truncated_size(images);
    CHECK(same_a == same_b);
    std::vector<dl_phdr_info> fewer(images.begin(), images.end() - 1);
    CHECK(generation_with_truncated_size(fewer) != same_a);
    std::vector<dl_phdr_info> moved = images;
    moved.back().dlpi_addr += 0x10000;
    CHECK(generation_with_truncated_size(moved) != same_a);
}

namespace {

constexpr int kAllocsPerThread = 200;
FakeClass kCycleClass{"Cycle", "Test", false, 0, 0};

void *worker(void *arg) {
    uint64_t base = reinterpret_cast<uint64_t>(arg);
    alloc_same_site(kAllocsPerThread, &kCycleClass, base, 24);
    return nullptr;
}

// One capture: this thread and two short-lived threads allocate; the file must hold them all.
void one_capture(int cycle, uint32_t ring) {
    std::string path = temp_path("cycle");
    mt_config c = make_config(path);
    c.ring_capacity = ring;
    start(c);
    alloc_same_site(kAllocsPerThread, &kCycleClass, 0x100000, 24);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        REQUIRE(pthread_create(&t[i], nullptr, worker, reinterpret_cast<void *>(0x200000ull * (i + 2))) == 0);
    for (pthread_t th : t) pthread_join(th, nullptr);
    auto run = stop_and_load(path);
    INFO("cycle " << cycle);
    CHECK(all_events(run).size() == 3u * kAllocsPerThread);
}

}  // namespace

TEST_CASE("50 start/stop cycles leave no ring memory behind, with and without a process-wide barrier",
          "[lifecycle]") {
    const uint64_t before = mt::rt::ring_bytes_mapped();
    constexpr uint32_t kRing = 64 * 1024;

    SECTION("quiescence proven (Linux membarrier): every ring is unmapped at mt_stop") {
        for (int cycle = 0; cycle < 50; ++cycle) {
            one_capture(cycle, kRing);
            INFO("cycle " << cycle);
            REQUIRE(mt::rt::ring_bytes_mapped() == before);
        }
    }

    SECTION("no barrier (as on Apple): a live thread's ring is kept and reused, an exited one's unmapped") {
        mt::rt::lifecycle_test_force_no_barrier(true);
        for (int cycle = 0; cycle < 50; ++cycle) {
            // Every 10th capture uses rings of another size: the owners unmap the old ones.
            uint32_t ring = cycle % 10 == 9 ? 2 * kRing : kRing;
            one_capture(cycle, ring);
            INFO("cycle " << cycle);
            // The two workers exited: their rings are gone. This thread lives on (it could still
            // be inside its hook as far as mt_stop can tell): its one ring is kept, not dropped.
            REQUIRE(mt::rt::ring_bytes_mapped() == before + ring);
        }
        mt::rt::lifecycle_test_force_no_barrier(false);
        // With the barrier back, the next stop unmaps what the earlier captures kept.
        one_capture(50, kRing);
        CHECK(mt::rt::ring_bytes_mapped() == before);
    }
}
