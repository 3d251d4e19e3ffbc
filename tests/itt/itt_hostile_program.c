/*
 * itt_hostile_program.c — everything a careless or hostile ITT client may do, through the raw
 * pointers (past the NULL checks ittnotify.h's macros would make): NULL domains, names, handles
 * and addresses, unbalanced task ends, frame ends without begins, 10,000 domains, an out-of-range
 * event, a flood of marks from 16 threads at once, and functions the collector does not
 * implement. Exits 0 with "hostile done" if it got through; the test also checks the capture.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "itt_static_part.h"

#define CALL(name, ...) do { if (itt_##name##_ptr) itt_##name##_ptr(__VA_ARGS__); } while (0)

enum { kThreads = 16, kPerThread = 2000, kDomains = 10000 };
static __itt_domain *domains[kDomains];

static void *flood(void *arg) {
    long id = (long)arg;
    char name[32];
    __itt_string_handle *task = itt_string_handle_create("flood");
    __itt_heap_function h = itt_heap_function_create_ptr ? itt_heap_function_create_ptr("flood heap", NULL) : NULL;
    snprintf(name, sizeof name, "hostile %ld", id);
    CALL(thread_set_name, name);
    for (int i = 0; i < kPerThread; ++i) {
        __itt_domain *d = domains[(id * kPerThread + i) % kDomains];
        void *p = malloc(16);
        CALL(task_begin, d, itt_null, itt_null, task);
        CALL(marker, d, itt_null, task, 1);
        CALL(frame_begin_v3, d, NULL);
        CALL(frame_end_v3, d, NULL);
        CALL(heap_allocate_end, h, &p, 16, 0);
        CALL(heap_free_begin, h, p);
        free(p);
        CALL(task_end, d);
        CALL(task_end, d); /* one end too many */
    }
    return NULL;
}

int main(void) {
    pthread_t t[kThreads];
    void *null_addr = NULL;
    char name[32];
    if (itt_init() != 2) {
        printf("no collector\n");
        return 0;
    }
    /* NULL everything. */
    CALL(frame_begin_v3, NULL, NULL);
    CALL(frame_end_v3, NULL, NULL);
    CALL(frame_submit_v3, NULL, NULL, 0, 0);
    CALL(task_begin, NULL, itt_null, itt_null, NULL);
    CALL(task_end, NULL);
    CALL(marker, NULL, itt_null, NULL, 0);
    CALL(thread_set_name, NULL);
    CALL(heap_allocate_end, NULL, NULL, 8, 0);
    CALL(heap_allocate_end, NULL, &null_addr, 8, 0);
    CALL(heap_free_begin, NULL, NULL);
    CALL(heap_reallocate_end, NULL, NULL, NULL, 0, 0);
    if (itt_heap_function_create_ptr) {
        itt_heap_function_create_ptr(NULL, NULL);
        itt_heap_function_create_ptr("no domain", NULL);
    }
    if (itt_event_create_ptr) itt_event_create_ptr(NULL, 4);
    if (itt_event_start_ptr) itt_event_start_ptr(123456), itt_event_start_ptr(-7);
    if (itt_event_end_ptr) itt_event_end_ptr(123456);
    /* Unbalanced: ends without begins, a frame end first. */
    {
        __itt_domain *d = itt_domain_create("unbalanced");
        CALL(frame_end_v3, d, NULL);
        CALL(frame_end_v3, d, NULL);
        for (int i = 0; i < 100; ++i) CALL(task_end, d);
        for (int i = 0; i < 200; ++i) CALL(task_begin, d, itt_null, itt_null, NULL); /* deeper than kept */
    }
    /* Functions the collector ignores. */
    CALL(sync_create, &t, "mutex", "m", 0);
    CALL(counter_inc, NULL);
    /* 10,000 domains, then 16 threads over all of them. */
    for (int i = 0; i < kDomains; ++i) {
        snprintf(name, sizeof name, "domain %d", i);
        domains[i] = itt_domain_create(name);
    }
    for (long i = 0; i < kThreads; ++i) pthread_create(&t[i], NULL, flood, (void *)i);
    for (int i = 0; i < kThreads; ++i) pthread_join(t[i], NULL);
    CALL(pause);
    CALL(resume);
    CALL(detach);
    CALL(detach); /* twice */
    CALL(frame_end_v3, domains[0], NULL); /* after detach */
    printf("hostile done\n");
    return itt_bad_rows() == 0 ? 0 : 3;
}
