// target.h — the MemTracer runtime the ITT collector feeds: one already in the process (the game
// links libmemtracer, or the Unity plug-in carries it), else the copy inside the collector.
#ifndef MEMTRACER_ITT_TARGET_H
#define MEMTRACER_ITT_TARGET_H

#include <memtracer/memtracer.h>

namespace mt::itt {

// The runtime's calls, resolved once. A member an older runtime lacks is NULL.
struct Target {
    mt_status (*config_init)(mt_config *);
    mt_status (*start)(const mt_config *);
    mt_status (*stop)(void);
    mt_status (*pause)(void);
    mt_status (*resume)(void);
    mt_status (*frame_end)(uint64_t);
    mt_status (*set_thread_name)(const char *);
    mt_status (*mark)(const char *);
    mt_status (*get_counters)(mt_counters *);
    const char *(*status_string)(mt_status);
    const char *(*last_error)(void);
    void *(*native_heap)(const char *, const char *);
    void (*native_alloc)(void *, void *, size_t, uint32_t);
    void (*native_free)(void *);
    int (*unity_frames_driven)(void);  // the Unity plug-in's: its frame callback ends frames
    bool foreign;                      // another image's runtime, not the collector's copy
    const char *tasks;                 // MEMTRACER_ITT_TASKS (NULL: every task)
    const char *frame_domain;          // MEMTRACER_ITT_FRAME_DOMAIN (NULL: the first to use frames)
};

// Finds the runtime (once; the first call decides), then starts a capture from the environment
// unless one runs or MEMTRACER_DISABLE is set. Never fails: a capture that cannot start is said on
// stderr and every later call is a no-op in the runtime.
const Target &target_attach();
// mt_stop if the collector started the capture (process exit, __itt_api_fini).
void target_release();

}  // namespace mt::itt

#endif  // MEMTRACER_ITT_TARGET_H
