/*
 * mtsample_game.h — what the sample game's "GameAssembly" library exports to its player, beside
 * the il2cpp_* API: the player loop entry points (the stand-in for Unity's player invoking
 * MonoBehaviour.Update / LateUpdate and C# jobs) and the game's own allocation tally.
 */
#ifndef MTSAMPLE_GAME_H
#define MTSAMPLE_GAME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One class's allocations since the previous mtsample_take_tally. */
typedef struct mtsample_tally_row {
    const void *klass;       /* Il2CppClass*, the same pointer MemTracer records */
    const char *name_space;
    const char *name;
    uint64_t count;
    uint64_t bytes;          /* requested sizes, as libil2cpp computed them */
} mtsample_tally_row;

typedef int (*mtsample_start_fn)(uint64_t seed, uint32_t jobs_per_frame);   /* GameManager.Awake */
typedef void (*mtsample_update_fn)(uint64_t frame);                         /* main thread */
typedef void (*mtsample_run_job_fn)(uint64_t frame, uint32_t job);          /* any worker */
typedef void (*mtsample_late_update_fn)(uint64_t frame);                    /* main, jobs done */
typedef void (*mtsample_leak_fn)(uint64_t frame);                           /* main: keep one object forever */
typedef uint32_t (*mtsample_take_tally_fn)(mtsample_tally_row *out, uint32_t max);
typedef uint64_t (*mtsample_collection_count_fn)(void);  /* C# GC.CollectionCount(0): Boehm's GC_get_gc_no */

#ifdef __cplusplus
}
#endif

#endif /* MTSAMPLE_GAME_H */
