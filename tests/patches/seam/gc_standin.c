/* gc_standin.c — Boehm "compiled into libil2cpp" for the link test: defined here, hidden by the
 * export list, never referenced from outside the image. Allocation from a static arena. */
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define HIDDEN __attribute__((visibility("hidden")))
#else
#define HIDDEN
#endif

static unsigned char arena[1 << 16];
static size_t used;
typedef void (*GC_on_collection_event_proc)(int);
static GC_on_collection_event_proc on_event;
struct GC_prof_stats_s;

HIDDEN void *GC_malloc(size_t n) {
    void *p = arena + used;
    used += (n + 15) & ~(size_t)15;
    return p;
}
HIDDEN void *GC_malloc_atomic(size_t n) { return GC_malloc(n); }
HIDDEN size_t GC_size(const void *p) { (void)p; return 16; }
HIDDEN size_t GC_get_heap_size(void) { return sizeof arena; }
HIDDEN size_t GC_get_free_bytes(void) { return sizeof arena - used; }
HIDDEN uintptr_t GC_get_gc_no(void) { return 0; }
HIDDEN void *GC_base(void *p) { return p; }
HIDDEN int GC_is_marked(const void *p) { (void)p; return 1; }
HIDDEN void GC_set_on_collection_event(GC_on_collection_event_proc f) { on_event = f; }
HIDDEN GC_on_collection_event_proc GC_get_on_collection_event(void) { return on_event; }
HIDDEN size_t GC_get_prof_stats_unsafe(struct GC_prof_stats_s *s, size_t n) { (void)s; (void)n; return 0; }
