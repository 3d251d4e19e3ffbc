/*
 * itt_static_part.h — a stand-in for ittnotify's static part, for the test programs: what a game
 * or plug-in compiles in when it is ITT-instrumented. Like the real one (intel/ittapi
 * src/ittnotify/ittnotify_static.c, read for the protocol) it loads the collector named by
 * INTEL_LIBITTNOTIFY64 on first use, hands it its table of function pointers through
 * __itt_api_init (protocol version 2, what libtbb12 and libomp5 use), creates domains and string
 * handles itself, and calls the collector only through those pointers, skipping NULL or disabled
 * domains as ittnotify.h's macros do. Stricter than the real one: it checks that the collector
 * left no row NULL and filled the rows of functions it does not implement with their null stubs.
 * Without INTEL_LIBITTNOTIFY64 every call is a no-op.
 */
#ifndef MT_TEST_ITT_STATIC_PART_H
#define MT_TEST_ITT_STATIC_PART_H

#include <stddef.h>

#include "itt_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the collector (once; later calls return the first answer): 2 = protocol 2, 0 = none. */
int itt_init(void);
/* Rows the collector left NULL or pointing at something other than its own function or the null
 * stub (protocol breaches); 0 when none. */
int itt_bad_rows(void);

__itt_domain *itt_domain_create(const char *name);
__itt_string_handle *itt_string_handle_create(const char *name);

/* The API, through the pointers (names as in ittnotify.h, without the leading __). */
#define ITT_FUNCTIONS(X) \
    X(void, frame_begin_v3, (const __itt_domain *d, __itt_id *id), (d, id)) \
    X(void, frame_end_v3, (const __itt_domain *d, __itt_id *id), (d, id)) \
    X(void, frame_submit_v3, (const __itt_domain *d, __itt_id *id, __itt_timestamp b, __itt_timestamp e), (d, id, b, e)) \
    X(void, task_begin, (const __itt_domain *d, __itt_id id, __itt_id parent, __itt_string_handle *n), (d, id, parent, n)) \
    X(void, task_end, (const __itt_domain *d), (d)) \
    X(void, marker, (const __itt_domain *d, __itt_id id, __itt_string_handle *n, __itt_scope s), (d, id, n, s)) \
    X(__itt_event, event_create, (const char *name, int len), (name, len)) \
    X(int, event_start, (__itt_event e), (e)) \
    X(int, event_end, (__itt_event e), (e)) \
    X(void, thread_set_name, (const char *name), (name)) \
    X(__itt_heap_function, heap_function_create, (const char *name, const char *domain), (name, domain)) \
    X(void, heap_allocate_begin, (__itt_heap_function h, size_t size, int init), (h, size, init)) \
    X(void, heap_allocate_end, (__itt_heap_function h, void **addr, size_t size, int init), (h, addr, size, init)) \
    X(void, heap_free_begin, (__itt_heap_function h, void *addr), (h, addr)) \
    X(void, heap_free_end, (__itt_heap_function h, void *addr), (h, addr)) \
    X(void, heap_reallocate_begin, (__itt_heap_function h, void *addr, size_t size, int init), (h, addr, size, init)) \
    X(void, heap_reallocate_end, (__itt_heap_function h, void *addr, void **new_addr, size_t size, int init), (h, addr, new_addr, size, init)) \
    X(void, pause, (void), ()) \
    X(void, resume, (void), ()) \
    X(void, detach, (void), ()) \
    X(void, sync_create, (void *addr, const char *type, const char *name, int attr), (addr, type, name, attr)) \
    X(void, counter_inc, (void *counter), (counter))

#define ITT_DECLARE_PTR(ret, name, params, args) extern ret(*itt_##name##_ptr) params;
ITT_FUNCTIONS(ITT_DECLARE_PTR)
#undef ITT_DECLARE_PTR

/* Calls as the static part's macros make them: nothing without a collector or for a NULL or
 * disabled domain. The raw pointers (itt_<name>_ptr) reach the collector with any argument. */
#define ITT_CALL(name, ...) (itt_init(), itt_##name##_ptr ? itt_##name##_ptr(__VA_ARGS__) : 0)
#define ITT_CALLV(name, ...) do { itt_init(); if (itt_##name##_ptr) itt_##name##_ptr(__VA_ARGS__); } while (0)
#define ITT_CALL_D(name, ...) do { if (ITT_FIRST(__VA_ARGS__, 0) != NULL && ITT_FIRST(__VA_ARGS__, 0)->flags) ITT_CALLV(name, __VA_ARGS__); } while (0)
#define ITT_FIRST(d, ...) (d)

extern const __itt_id itt_null;

#ifdef __cplusplus
}
#endif

#endif /* MT_TEST_ITT_STATIC_PART_H */
