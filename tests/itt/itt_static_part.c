/* itt_static_part.c — the stand-in static part (itt_static_part.h). */
#include "itt_static_part.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const __itt_id itt_null = {0, 0, 0};

/* Null stubs: what a row is set to when the collector ignores the function. */
#define ITT_NULL_STUB(ret, name, params, args) static ret itt_##name##_null params { return (ret)0; }
#define ITT_NULL_STUBV(name, params) static void itt_##name##_null params {}
ITT_NULL_STUBV(frame_begin_v3, (const __itt_domain *d, __itt_id *id)) ITT_NULL_STUBV(frame_end_v3, (const __itt_domain *d, __itt_id *id))
ITT_NULL_STUBV(frame_submit_v3, (const __itt_domain *d, __itt_id *id, __itt_timestamp b, __itt_timestamp e))
ITT_NULL_STUBV(task_begin, (const __itt_domain *d, __itt_id id, __itt_id parent, __itt_string_handle *n))
ITT_NULL_STUBV(task_end, (const __itt_domain *d))
ITT_NULL_STUBV(marker, (const __itt_domain *d, __itt_id id, __itt_string_handle *n, __itt_scope s))
static __itt_event itt_event_create_null(const char *name, int len) { (void)name; (void)len; return -1; }
static int itt_event_start_null(__itt_event e) { (void)e; return 0; }
static int itt_event_end_null(__itt_event e) { (void)e; return 0; }
ITT_NULL_STUBV(thread_set_name, (const char *name))
static __itt_heap_function itt_heap_function_create_null(const char *n, const char *d) { (void)n; (void)d; return NULL; }
ITT_NULL_STUBV(heap_allocate_begin, (__itt_heap_function h, size_t size, int init))
ITT_NULL_STUBV(heap_allocate_end, (__itt_heap_function h, void **addr, size_t size, int init))
ITT_NULL_STUBV(heap_free_begin, (__itt_heap_function h, void *addr))
ITT_NULL_STUBV(heap_free_end, (__itt_heap_function h, void *addr))
ITT_NULL_STUBV(heap_reallocate_begin, (__itt_heap_function h, void *addr, size_t size, int init))
ITT_NULL_STUBV(heap_reallocate_end, (__itt_heap_function h, void *addr, void **new_addr, size_t size, int init))
ITT_NULL_STUBV(pause, (void)) ITT_NULL_STUBV(resume, (void)) ITT_NULL_STUBV(detach, (void))
ITT_NULL_STUBV(sync_create, (void *addr, const char *type, const char *name, int attr))
ITT_NULL_STUBV(counter_inc, (void *counter))

#define ITT_DEFINE_PTR(ret, name, params, args) ret(*itt_##name##_ptr) params = NULL;
ITT_FUNCTIONS(ITT_DEFINE_PTR)

/* The table handed to the collector: every row starts at NULL (the real one: its lazy-init stub). */
#define ITT_ROW(ret, name, params, args) {"__itt_" #name, (void **)&itt_##name##_ptr, NULL, (void *)itt_##name##_null, __itt_group_all},
static __itt_api_info g_rows[] = {ITT_FUNCTIONS(ITT_ROW){NULL, NULL, NULL, NULL, __itt_group_none}};

static __itt_global g_global;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_state = -1; /* -1: not tried; else the protocol loaded (0: none) */
static void *g_lib;

typedef void api_init_t(__itt_global *, __itt_group_id);

int itt_init(void) {
    if (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) >= 0) return g_state;
    pthread_mutex_lock(&g_mu);
    if (g_state < 0) {
        int state = 0;
        const char *lib = getenv("INTEL_LIBITTNOTIFY64");
        if (lib != NULL && *lib) g_lib = dlopen(lib, RTLD_LAZY);
        api_init_t *init = g_lib ? (api_init_t *)dlsym(g_lib, "__itt_api_init") : NULL;
        if (init != NULL) {
            memcpy(g_global.magic, "\xED\xAB\xAB\xEC\x0D\xEE\xDA\x30", 8);
            g_global.version_major = 3;
            g_global.api_list_ptr = g_rows;
            init(&g_global, __itt_group_all);
            state = 2;
        }
        g_global.api_initialized = 1;
        __atomic_store_n(&g_state, state, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&g_mu);
    return g_state;
}

int itt_bad_rows(void) {
    int bad = 0;
    if (itt_init() != 2) return 0;
    for (__itt_api_info *r = g_rows; r->name; ++r) {
        void *p = *r->func_ptr;
        void *theirs = dlsym(g_lib, r->name); /* the collector's function of that name, if any */
        if (p == NULL || (p != r->null_func && p != theirs)) ++bad;
    }
    return bad;
}

/* Domains and string handles belong to the static part: created once per name, never freed. */
struct named {
    struct named *next;
    union {
        __itt_domain d;
        __itt_string_handle s;
    } u;
};
static struct named *g_domains, *g_strings;

static struct named *find_or_add(struct named **list, const char *name, int domain) {
    struct named *n;
    pthread_mutex_lock(&g_mu);
    for (n = *list; n; n = n->next)
        if (strcmp(domain ? n->u.d.nameA : n->u.s.strA, name) == 0) break;
    if (n == NULL && (n = calloc(1, sizeof *n)) != NULL) {
        char *copy = strdup(name);
        if (domain) {
            n->u.d.flags = 1; /* enabled, as the real static part creates them */
            n->u.d.nameA = copy;
        } else {
            n->u.s.strA = copy;
        }
        n->next = *list;
        *list = n;
    }
    pthread_mutex_unlock(&g_mu);
    return n;
}

__itt_domain *itt_domain_create(const char *name) {
    struct named *n;
    if (name == NULL) return NULL;
    itt_init();
    n = find_or_add(&g_domains, name, 1);
    return n ? &n->u.d : NULL;
}

__itt_string_handle *itt_string_handle_create(const char *name) {
    struct named *n;
    if (name == NULL) return NULL;
    itt_init();
    n = find_or_add(&g_strings, name, 0);
    return n ? &n->u.s : NULL;
}
