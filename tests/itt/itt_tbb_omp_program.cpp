// itt_tbb_omp_program.cpp — real ITT clients: oneTBB (libtbb12) and LLVM's OpenMP runtime
// (libomp5) each carry ittnotify's static part and load the collector from INTEL_LIBITTNOTIFY64.
// A TBB parallel_for and an OpenMP parallel loop (GCC's codegen, linked against libomp, which
// implements the GOMP entry points) each allocate through an ITT-announced heap (the stand-in
// static part, itt_static_part.h), so every worker thread records allocations and its name
// (what TBB and libomp report through __itt_thread_set_name) reaches the capture. stdout: one
// checksum line, the same with or without a collector.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "itt_static_part.h"

namespace {

__itt_heap_function g_tbb_heap, g_omp_heap;
std::atomic<unsigned long> g_sum{0};



__attribute__((noinline)) void work(__itt_heap_function h, int i) {
    size_t size = 64 + static_cast<size_t>(i % 8) * 16;
    void *p = malloc(size);
    ITT_CALLV(heap_allocate_end, h, &p, size, 0);
    memset(p, i & 0xff, size);
    unsigned long s = 0;
    for (int k = 0; k < 20000; ++k) s += static_cast<unsigned char *>(p)[k % size] ^ static_cast<unsigned>(k);
    g_sum.fetch_add(s % 1000, std::memory_order_relaxed);
    ITT_CALLV(heap_free_begin, h, p);
    free(p);
}

// TBB item 0 waits (60 s at most) until another thread has run an item, so that a worker takes
// part however fast the caller's thread would be alone; with no worker at all it goes on.
std::atomic<bool> g_helped{false};
std::atomic<std::thread::id> g_first{};

void wait_for_help() {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!g_helped.load() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
}

void tbb_item(int i) {
    std::thread::id none{}, me = std::this_thread::get_id();
    g_first.compare_exchange_strong(none, me);
    if (g_first.load() != me) g_helped.store(true);
    if (i == 0 && tbb::this_task_arena::max_concurrency() > 1) wait_for_help();
    work(g_tbb_heap, i);
}

}  // namespace

int main() {
    __itt_domain *game = itt_domain_create("Game");
    g_tbb_heap = ITT_CALL(heap_function_create, "tbb_jobs", "game");
    g_omp_heap = ITT_CALL(heap_function_create, "omp_jobs", "game");
    constexpr int kItems = 4000;
    for (int frame = 0; frame < 3; ++frame) {
        ITT_CALL_D(frame_begin_v3, game, nullptr);
        {
            tbb::task_arena arena(4);
            arena.execute([] { tbb::parallel_for(0, kItems, [](int i) { tbb_item(i); }); });
        }
#pragma omp parallel for num_threads(4) schedule(dynamic, 16)
        for (int i = 0; i < kItems; ++i) work(g_omp_heap, i);
        ITT_CALL_D(frame_end_v3, game, nullptr);
    }
    printf("checksum=%lu\n", g_sum.load());
    return 0;
}
