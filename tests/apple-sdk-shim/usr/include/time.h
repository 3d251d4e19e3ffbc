/* Stand-in for the iOS SDK's <time.h>: clockid_t is an enum on Apple (clock_gettime since
 * iOS 10), CLOCK_MONOTONIC is _CLOCK_MONOTONIC = 6. docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_TIME_H
#define MT_SHIM_TIME_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef enum {
    _CLOCK_REALTIME = 0,
    _CLOCK_MONOTONIC = 6,
    _CLOCK_MONOTONIC_RAW = 4,
    _CLOCK_MONOTONIC_RAW_APPROX = 5,
    _CLOCK_UPTIME_RAW = 8,
    _CLOCK_UPTIME_RAW_APPROX = 9,
    _CLOCK_PROCESS_CPUTIME_ID = 12,
    _CLOCK_THREAD_CPUTIME_ID = 16
} clockid_t;
#define CLOCK_REALTIME _CLOCK_REALTIME
#define CLOCK_MONOTONIC _CLOCK_MONOTONIC
#define CLOCK_MONOTONIC_RAW _CLOCK_MONOTONIC_RAW
#define CLOCK_UPTIME_RAW _CLOCK_UPTIME_RAW
#define CLOCK_PROCESS_CPUTIME_ID _CLOCK_PROCESS_CPUTIME_ID
#define CLOCK_THREAD_CPUTIME_ID _CLOCK_THREAD_CPUTIME_ID
struct tm {
    int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
    long tm_gmtoff;
    char *tm_zone;
};
int clock_gettime(clockid_t clock_id, struct timespec *tp);
uint64_t clock_gettime_nsec_np(clockid_t clock_id);
int nanosleep(const struct timespec *req, struct timespec *rem);
time_t time(time_t *t);
struct tm *gmtime_r(const time_t *clock, struct tm *result);
struct tm *localtime_r(const time_t *clock, struct tm *result);
size_t strftime(char *s, size_t maxsize, const char *format, const struct tm *tm);
#ifdef __cplusplus
}
#endif
#endif
