/*
 * itt_heap_program.c — a game-like program whose custom allocator announces itself through the
 * ITT heap API (declared in itt_abi.h from the reference), with frames, a marker, a task and an
 * event, on two threads. Its figures are fixed, so the test knows the exact counts, sizes and
 * lifetimes a capture must show (test_itt.cpp, kHeap* constants):
 *   frame 0: 100 x 24 bytes from pool_small
 *   frame 1: 50 x 4096 from pool_big, marker "LevelLoaded", a "Loader" domain frame
 *   frame 2: 60 of the small ones and all 50 big ones freed; 10 small ones reallocated to 48
 *   frame 3: thread "itt heap worker": task "LoadChunk", event "Stream", 20 x 100 from pool_small
 * Nothing else is freed. stdout: one checksum line, the same with or without a collector.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itt_static_part.h"

static __itt_heap_function h_small, h_big;

/* The custom allocator: malloc underneath, announced to ITT as its reference asks. */
__attribute__((noinline)) static void *pool_alloc(__itt_heap_function h, size_t size) {
    void *p;
    ITT_CALLV(heap_allocate_begin, h, size, 0);
    p = malloc(size);
    memset(p, 0x5a, size);
    ITT_CALLV(heap_allocate_end, h, &p, size, 0);
    return p;
}

__attribute__((noinline)) static void pool_free(__itt_heap_function h, void *p) {
    ITT_CALLV(heap_free_begin, h, p);
    free(p);
    ITT_CALLV(heap_free_end, h, p);
}

__attribute__((noinline)) static void *pool_realloc(__itt_heap_function h, void *p, size_t size) {
    void *q;
    ITT_CALLV(heap_reallocate_begin, h, p, size, 0);
    q = realloc(p, size);
    memset(q, 0x5b, size);
    ITT_CALLV(heap_reallocate_end, h, p, &q, size, 0);
    return q;
}

static unsigned long checksum;
static void *worker_blocks[20];

static void *worker(void *arg) {
    __itt_domain *d = itt_domain_create("Streaming");
    __itt_string_handle *task = itt_string_handle_create("LoadChunk");
    __itt_event ev = ITT_CALL(event_create, "Stream", 6);
    (void)arg;
    ITT_CALLV(thread_set_name, "itt heap worker");
    ITT_CALL_D(task_begin, d, itt_null, itt_null, task);
    ITT_CALL(event_start, ev);
    for (int i = 0; i < 20; ++i) worker_blocks[i] = pool_alloc(h_small, 100);
    ITT_CALL(event_end, ev);
    ITT_CALL_D(task_end, d);
    return NULL;
}

int main(void) {
    __itt_domain *game = itt_domain_create("Game"), *loader = itt_domain_create("Loader");
    __itt_string_handle *loaded = itt_string_handle_create("LevelLoaded");
    void *small[100], *big[50];
    pthread_t t;
    ITT_CALLV(thread_set_name, "itt heap main");
    h_small = ITT_CALL(heap_function_create, "pool_small", "game");
    h_big = ITT_CALL(heap_function_create, "pool_big", "game");

    ITT_CALL_D(frame_begin_v3, game, NULL);
    for (int i = 0; i < 100; ++i) small[i] = pool_alloc(h_small, 24);
    ITT_CALL_D(frame_end_v3, game, NULL);

    ITT_CALL_D(frame_begin_v3, game, NULL);
    for (int i = 0; i < 50; ++i) big[i] = pool_alloc(h_big, 4096);
    ITT_CALL_D(marker, game, itt_null, loaded, 1);
    ITT_CALL_D(frame_submit_v3, loader, NULL, 0, 0);
    ITT_CALL_D(frame_end_v3, game, NULL);

    ITT_CALL_D(frame_begin_v3, game, NULL);
    for (int i = 0; i < 60; ++i) pool_free(h_small, small[i]);
    for (int i = 0; i < 50; ++i) pool_free(h_big, big[i]);
    for (int i = 60; i < 70; ++i) small[i] = pool_realloc(h_small, small[i], 48);
    ITT_CALL_D(frame_end_v3, game, NULL);

    ITT_CALL_D(frame_begin_v3, game, NULL);
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    ITT_CALL_D(frame_end_v3, game, NULL);

    for (int i = 60; i < 100; ++i) checksum += ((unsigned char *)small[i])[0] + (i < 70 ? 48u : 24u);
    for (int i = 0; i < 20; ++i) checksum += ((unsigned char *)worker_blocks[i])[99];
    printf("checksum=%lu\n", checksum);
    return itt_bad_rows() == 0 ? 0 : 3;
}
