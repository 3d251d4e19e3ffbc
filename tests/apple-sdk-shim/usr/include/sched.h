/* Stand-in for the iOS SDK's <sched.h> (docs/runtime.md "Apple compile check"). */
#ifndef MT_SHIM_SCHED_H
#define MT_SHIM_SCHED_H
#ifdef __cplusplus
extern "C" {
#endif
int sched_yield(void);
#ifdef __cplusplus
}
#endif
#endif
