/*
 * memtracer.h — the whole game-facing surface of the MemTracer runtime.
 *
 * If it is not in this file, it is not a published API. Every function is safe to call from any
 * thread, never blocks the caller for long, never throws and never aborts the process: on trouble
 * the runtime counts, disables itself, and mt_last_error() says why.
 *
 * Define MT_NOOP before including (or build with -DMEMTRACER_NOOP=ON) to compile every call to an
 * inline no-op, so a shipping build can keep its calls to MemTracer at zero cost.
 */
#ifndef MEMTRACER_MEMTRACER_H
#define MEMTRACER_MEMTRACER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define MT_API
#else
#define MT_API __attribute__((visibility("default")))
#endif

/* Result of every call. Parameter errors name the parameter; mt_last_error() adds the why. */
typedef enum mt_status {
    MT_OK = 0,
    MT_ERR_ALREADY_STARTED = 1,   /* mt_start while a capture runs */
    MT_ERR_NOT_STARTED = 2,       /* call needs a running capture */
    MT_ERR_DISABLED = 3,          /* the runtime disabled itself; see mt_last_error() */
    MT_ERR_NOOP_BUILD = 4,        /* compiled with MT_NOOP: nothing is ever recorded */
    MT_ERR_CONFIG_NULL = 10,      /* config pointer is NULL */
    MT_ERR_CONFIG_SIZE = 11,      /* config.struct_size is not a size this runtime knows */
    MT_ERR_OUTPUT_PATH = 12,      /* output_path NULL, empty or longer than MT_MAX_PATH */
    MT_ERR_RING_CAPACITY = 13,    /* ring_capacity not a power of two in [MT_MIN_RING, MT_MAX_RING] */
    MT_ERR_MAX_DEPTH = 14,        /* max_stack_depth not in [1, MT_MAX_STACK_DEPTH] */
    MT_ERR_UNWINDER = 15,         /* unknown unwinder, or libunwind not compiled in */
    MT_ERR_MODE = 16,             /* unknown mode */
    MT_ERR_SAMPLING = 17,         /* sample_interval_bytes above MT_MAX_SAMPLE_INTERVAL */
    MT_ERR_MAX_THREADS = 18,      /* max_threads not in [1, MT_MAX_THREADS] */
    MT_ERR_FULL_POLICY = 19,      /* unknown on_full policy */
    MT_ERR_DRAIN_INTERVAL = 20,   /* drain_interval_us not in [100, 1000000] */
    MT_ERR_FLAGS = 21,            /* unknown bits in flags */
    MT_ERR_LIVE = 22,             /* live_listen/live_connect not host:port, both set, or token too long */
    MT_ERR_OPEN_OUTPUT = 30,      /* output file could not be created (errno in mt_last_error) */
    MT_ERR_NO_MEMORY = 31,        /* could not reserve the capture's memory */
    MT_ERR_THREAD = 32,           /* could not start the writer thread */
    MT_ERR_ARGUMENT = 33,         /* a NULL or out-of-range argument to a non-config call */
    MT_ERR_MARKS_FULL = 34,       /* mt_mark: MT_MAX_PENDING_MARKS marks await the writer; this one is dropped */
    MT_ERR_IL2CPP_NOT_FOUND = 40  /* mt_attach_il2cpp: profiler API symbols not found */
} mt_status;

typedef enum mt_unwinder {
    MT_UNWIND_FRAME_POINTER = 0,  /* default: walk the frame-pointer chain (arm64 keeps it) */
    MT_UNWIND_LIBUNWIND = 1       /* unw_backtrace(); only if built with MEMTRACER_LIBUNWIND */
} mt_unwinder;

typedef enum mt_mode {
    MT_MODE_EVENTS = 0,           /* every allocation as an event (default) */
    MT_MODE_AGGREGATE = 1         /* per frame: (class, stack) -> count, requested, GC bytes */
} mt_mode;

typedef enum mt_full_policy {
    MT_ON_FULL_DROP = 0,          /* default: a full ring drops and counts the event */
    MT_ON_FULL_BLOCK = 1          /* the allocating thread waits for the writer (explicit opt-in) */
} mt_full_policy;

/* Optional recording features (config.flags). */
#define MT_FLAG_GC_EVENTS   0x1u  /* record collections, heap size and free bytes */
#define MT_FLAG_LIFETIMES   0x2u  /* record deaths of traced objects (costs per collection) */
#define MT_FLAG_FSYNC       0x4u  /* fsync after each frame: survive power loss, not only kills */
#define MT_FLAG_NATIVE_HEAPS 0x8u /* native heaps report their frees: with MT_FLAG_LIFETIMES, lifetimes are
                                     recorded (native deaths) even where libgc is absent */
#define MT_FLAGS_ALL        0xFu

#define MT_MAX_PATH 1024
#define MT_MIN_RING (4u * 1024u)
#define MT_MAX_RING (256u * 1024u * 1024u)
#define MT_MAX_STACK_DEPTH 128
#define MT_MAX_THREADS 1024
#define MT_MAX_SAMPLE_INTERVAL (1ull << 30)
#define MT_MAX_MARK_LABEL 63        /* mt_mark keeps at most this many bytes of a label */
#define MT_MAX_PENDING_MARKS 64     /* marks called but not yet taken by the writer */

typedef struct mt_config {
    uint32_t struct_size;            /* sizeof(mt_config); set by mt_config_init */
    const char *output_path;         /* run.mt to create (truncated if it exists) */
    uint32_t ring_capacity;          /* bytes per thread ring; default 1 MiB */
    uint32_t max_stack_depth;        /* frames kept per stack; default 64 */
    mt_unwinder unwinder;            /* default MT_UNWIND_FRAME_POINTER */
    mt_mode mode;                    /* default MT_MODE_EVENTS */
    uint64_t sample_interval_bytes;  /* 0 = every allocation; N = one sample per N bytes (Poisson) */
    uint32_t max_threads;            /* threads traced at once; default 64 */
    mt_full_policy on_full;          /* default MT_ON_FULL_DROP */
    uint32_t drain_interval_us;      /* writer polls the rings this often; default 2000 */
    uint32_t flags;                  /* MT_FLAG_*; default MT_FLAG_GC_EVENTS */
    const char *session_label;       /* free text stored in the file (build name, map...); may be NULL */
    uint64_t random_seed;            /* sampling seed; 0 = from the clock */
    /* Live capture (docs/live.md); NULL = the environment variable named, else off. */
    const char *live_listen;         /* MEMTRACER_LISTEN: "127.0.0.1:34999" (":34999" = loopback) */
    const char *live_connect;        /* MEMTRACER_CONNECT: "host:port" of a listening host */
    const char *live_token;          /* MEMTRACER_TOKEN: a host must send it (listen: random if unset) */
} mt_config;

/* struct_size of an mt_config compiled before the live fields; still accepted (they read as NULL). */
#define MT_CONFIG_SIZE_V1 (offsetof(mt_config, live_listen))

/* Live counters; every field is monotonic over a capture and readable at any moment. */
typedef struct mt_counters {
    uint64_t allocations_seen;    /* mt_on_alloc calls while enabled (sampled-out included) */
    uint64_t events_recorded;     /* allocations placed in a ring */
    uint64_t events_dropped;      /* allocations lost: ring full or no thread slot */
    uint64_t events_sampled_out;  /* allocations skipped by sampling */
    uint64_t events_written;      /* events (or aggregated allocations) in the file */
    uint64_t bytes_written;       /* bytes in the file, header included */
    uint64_t frames_written;      /* frames committed to the file */
    uint64_t stacks_known;        /* distinct stacks written */
    uint64_t classes_known;       /* distinct classes written */
    uint64_t threads_known;       /* threads ever traced */
    uint64_t last_flush_unix_ns;  /* wall time of the last frame commit; 0 before the first */
    uint64_t last_flush_duration_ns; /* writer time spent on the last frame commit */
    uint64_t reentrant_skipped;   /* allocations made by the tracer itself, ignored */
    uint32_t running;             /* 1 while a capture runs (paused included) */
    uint32_t paused;              /* 1 while paused */
    uint32_t disabled;            /* 1 once the runtime disabled itself */
    uint32_t gc_callback_rechains; /* times Boehm's collection callback was found replaced (il2cpp's
                                     GarbageCollector::Initialize) and re-chained (docs/runtime.md) */
} mt_counters;

/* il2cpp's class API, for a game whose il2cpp exports dlsym cannot find (a static link with hidden
 * symbols). A NULL member is looked up as usual (a patched libil2cpp's bridge, else the loaded images). */
typedef struct mt_il2cpp_class_api {
    const char *(*get_name)(void *klass);      /* il2cpp_class_get_name */
    const char *(*get_namespace)(void *klass); /* il2cpp_class_get_namespace */
    int (*array_element_size)(void *klass);    /* il2cpp_array_element_size */
} mt_il2cpp_class_api;

/* il2cpp's type-name API (exported since Unity 5.x), so classes are named as C# reads them
 * ("System.Collections.Generic.List<Game.Enemy>"). A NULL member is looked up as usual (a patched libil2cpp's bridge, else the loaded images).
 * Set struct_size to sizeof(mt_il2cpp_type_api); later versions only append members. */
typedef struct mt_il2cpp_type_api {
    uint32_t struct_size;                              /* sizeof(mt_il2cpp_type_api) */
    const void *(*class_get_type)(void *klass);        /* il2cpp_class_get_type */
    char *(*type_get_name)(const void *type);          /* il2cpp_type_get_name (IL format, caller frees) */
    void (*free_memory)(void *ptr);                    /* il2cpp_free: releases type_get_name's string */
    const void *(*class_get_image)(void *klass);       /* il2cpp_class_get_image */
    const char *(*image_get_name)(const void *image);  /* il2cpp_image_get_name */
} mt_il2cpp_type_api;

#ifndef MT_NOOP

/* Fills *config with defaults. Returns MT_ERR_CONFIG_NULL for NULL. */
MT_API mt_status mt_config_init(mt_config *config);

/* Validates config, creates the file, writes its header and starts the writer; all or nothing. */
MT_API mt_status mt_start(const mt_config *config);

/* Drains every ring, commits the last frame, writes the end chunk, closes the file. */
MT_API mt_status mt_stop(void);

/* Stops recording allocations (cost: one relaxed load per allocation) without ending the capture. */
MT_API mt_status mt_pause(void);

/* Resumes recording after mt_pause. */
MT_API mt_status mt_resume(void);

/* Ends the current frame: its allocations are committed to the file off the calling thread. */
MT_API mt_status mt_frame_end(uint64_t frame_index);

/* Names the calling thread in the file (copied; at most 63 bytes kept). */
MT_API mt_status mt_set_thread_name(const char *name);

/* Names another thread, given its pthread_t cast to uint64_t (as Unity's profiler passes it). */
MT_API mt_status mt_name_thread(uint64_t native_thread_id, const char *name);

/* The allocation hook: obj was just allocated for klass (an Il2CppClass*) with requested_size. */
MT_API void mt_on_alloc(void *obj, void *klass, size_t requested_size);

/* Labels the frame open now ("level loaded"): any thread, copied (MT_MAX_MARK_LABEL bytes kept), never blocks. */
MT_API mt_status mt_mark(const char *label);

/* Copies the live counters into *out (allowed before, during and after a capture). */
MT_API mt_status mt_get_counters(mt_counters *out);

/* Static English name of a status ("MT_ERR_RING_CAPACITY: ..."). Never NULL. */
MT_API const char *mt_status_string(mt_status status);

/* Why the last call failed or why the runtime disabled itself; "" if nothing went wrong. */
MT_API const char *mt_last_error(void);

/* Uses *api (copied) to name classes from the next mt_start on; NULL goes back to the usual lookup. */
MT_API mt_status mt_set_il2cpp_class_api(const mt_il2cpp_class_api *api);

/* Uses *api (copied) to name classes from the next mt_start on; NULL goes back to the usual lookup.
 * MT_ERR_ARGUMENT if api->struct_size is smaller than the first version of the struct. */
MT_API mt_status mt_set_il2cpp_type_api(const mt_il2cpp_type_api *api);

/* No-patch mode: finds il2cpp's profiler API in any loaded image and registers the hook (MT_OK and
 * nothing installed when a patched libil2cpp's il2cpp_memtracer_bridge is connected). */
MT_API mt_status mt_attach_il2cpp(void);

/* Native heaps: allocators that are not il2cpp's GC (a plug-in's pool, ITT's heap functions).
 * mt_native_heap returns the heap's handle, a class whose name is `name` (namespace `name_space`,
 * may be NULL) flagged MT_CLASS_NATIVE; the same names give the same handle. NULL when name is
 * NULL or the table (MT_MAX_NATIVE_HEAPS) is full; then "other native heaps" is returned. */
#define MT_MAX_NATIVE_HEAPS 256
MT_API void *mt_native_heap(const char *name, const char *name_space);

/* A native allocation of `size` bytes at ptr from `heap` (an mt_native_heap handle): recorded like
 * mt_on_alloc (GC size = size), its stack starting skip_frames frames above the caller's call. */
MT_API void mt_on_native_alloc(void *ptr, void *heap, size_t size, uint32_t skip_frames);

/* ptr (a native allocation) was freed: its death, with MT_FLAG_LIFETIMES. Never blocks. */
MT_API void mt_on_native_free(void *ptr);

#else /* MT_NOOP: every call compiles to nothing */

static inline mt_status mt_config_init(mt_config *c) { (void)c; return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_start(const mt_config *c) { (void)c; return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_stop(void) { return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_pause(void) { return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_resume(void) { return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_frame_end(uint64_t f) { (void)f; return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_set_thread_name(const char *n) { (void)n; return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_name_thread(uint64_t t, const char *n) { (void)t; (void)n; return MT_ERR_NOOP_BUILD; }
static inline void mt_on_alloc(void *o, void *k, size_t s) { (void)o; (void)k; (void)s; }
static inline mt_status mt_mark(const char *l) { (void)l; return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_get_counters(mt_counters *o) { (void)o; return MT_ERR_NOOP_BUILD; }
static inline const char *mt_status_string(mt_status s) { (void)s; return "MT_ERR_NOOP_BUILD"; }
static inline const char *mt_last_error(void) { return "memtracer compiled out (MT_NOOP)"; }
static inline mt_status mt_set_il2cpp_class_api(const mt_il2cpp_class_api *a) { (void)a; return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_set_il2cpp_type_api(const mt_il2cpp_type_api *a) { (void)a; return MT_ERR_NOOP_BUILD; }
static inline mt_status mt_attach_il2cpp(void) { return MT_ERR_NOOP_BUILD; }
static inline void *mt_native_heap(const char *n, const char *s) { (void)n; (void)s; return (void *)0; }
static inline void mt_on_native_alloc(void *p, void *h, size_t s, uint32_t k) { (void)p; (void)h; (void)s; (void)k; }
static inline void mt_on_native_free(void *p) { (void)p; }

#endif /* MT_NOOP */

#ifdef __cplusplus
}
#endif

#endif /* MEMTRACER_MEMTRACER_H */
