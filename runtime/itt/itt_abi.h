/*
 * itt_abi.h — the part of Intel's ITT API (ittnotify) a collector and its callers share, declared
 * here from the API reference (docs/itt.md cites it); Debian ships no ittnotify.h. C, so the test
 * programs in tests/itt use it as well.
 *
 * Two sides: the instrumented program's "static part" (compiled into libtbb, libomp, a game) and
 * the collector it loads from INTEL_LIBITTNOTIFY64. The static part calls every API function
 * through a pointer; a collector that exports __itt_api_init is handed the static part's table of
 * those pointers (protocol version 2) and fills the ones it implements. One exporting only
 * __itt_api_version has each __itt_<name> looked up with dlsym instead (version 1, and only for
 * the groups INTEL_ITTNOTIFY_GROUPS enables).
 */
#ifndef MEMTRACER_ITT_ABI_H
#define MEMTRACER_ITT_ABI_H

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ___itt_domain {
    volatile int flags;          /* non-zero: enabled (the static part's macros skip a disabled domain) */
    const char *nameA;
    void *nameW;                 /* wide name (Windows only) */
    int extra1;                  /* reserved to the collector */
    void *extra2;
    struct ___itt_domain *next;
} __itt_domain;

typedef struct ___itt_string_handle {
    const char *strA;
    void *strW;
    int extra1;
    void *extra2;
    struct ___itt_string_handle *next;
} __itt_string_handle;

typedef struct ___itt_id {
    unsigned long long d1, d2, d3;
} __itt_id;

typedef unsigned long long __itt_timestamp;
typedef void *__itt_heap_function;
typedef int __itt_event;
typedef int __itt_scope;  /* __itt_scope_global = 1, process, thread, task, marker */

typedef enum {
    __itt_group_none = 0,
    __itt_group_all = -1
} __itt_group_id;

/* One row of the static part's table: the function's name ("__itt_frame_begin_v3"), the pointer
 * the static part calls it through, its lazy-init stub, what to set to ignore it, its group. */
typedef struct ___itt_api_info {
    const char *name;
    void **func_ptr;
    void *init_func;
    void *null_func;
    __itt_group_id group;
} __itt_api_info;

/* The static part's descriptor, as far as a collector reads it (the fields after api_list_ptr
 * vary between ittnotify versions and are not touched). */
typedef struct ___itt_global {
    unsigned char magic[8];
    unsigned long version_major, version_minor, version_build;
    volatile long api_initialized, mutex_initialized, atomic_counter;
    pthread_mutex_t mutex;
    void *lib;
    void *error_handler;
    const char **dll_path_ptr;
    __itt_api_info *api_list_ptr;
} __itt_global;

#ifdef __cplusplus
}
#endif

#endif /* MEMTRACER_ITT_ABI_H */
